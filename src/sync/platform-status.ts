// Each platform's health: what one sync's outcome makes of its state, and the stored row. A state
// other than ok is an incident; its opening and its closing are told once each.
import type { Db } from '../db/client.ts'
import { platformStatus, type PlatformStatusRow } from '../db/schema.ts'
import { DAY_MS, HOUR_MS } from '../lib/time.ts'
import type { Platform } from '../platforms/registry.ts'

export type PlatformState = PlatformStatusRow['state']
export type SourceName = PlatformStatusRow['source']

/** What a sync saw of the platform's own source (or of clist.by, for a platform with no other). */
export type SourceVerdict =
  | { kind: 'healthy' }
  /** Answered, but the answer cannot be the truth: schema broken, empty, or half gone. */
  | { kind: 'degraded'; reason: string }
  /** 403 or 429: bot protection or a rate limit. */
  | { kind: 'blocked'; reason: string; retryAfterSeconds?: number }
  /** No usable answer: network, timeout, 5xx. */
  | { kind: 'failing'; reason: string }
  /** Not asked this time: still inside a blocked source's backoff. */
  | { kind: 'waiting' }

export type Transition = 'opened' | 'closed' | undefined

// A blocked source is asked again after an hour, then two, four... at most a day: bot protection
// that sees the same client every six hours regardless only stays up.
const FIRST_BACKOFF_MS = HOUR_MS
const MAX_BACKOFF_MS = DAY_MS

/**
 * Whether an answer with `upcoming` contests to come is believable next to the `stored` ones
 * (active, still to come, from earlier answers): nothing where there is something, or fewer than
 * half, means the source broke, not that the platform cancelled its season. Stored rather than the
 * last answer's count, so that contests which merely started since are not counted as lost.
 */
export function judgeCount(upcoming: number, stored: number): SourceVerdict {
  if (stored > 0 && upcoming === 0) {
    return { kind: 'degraded', reason: `no upcoming contests where ${stored} are stored` }
  }
  if (upcoming * 2 < stored) {
    return {
      kind: 'degraded',
      reason: `${upcoming} upcoming contests, fewer than half of the ${stored} stored`,
    }
  }
  return { kind: 'healthy' }
}

/** The row after one sync, and whether an incident opened or closed with it. */
export function nextStatus(
  platform: Platform,
  previous: PlatformStatusRow | undefined,
  verdict: SourceVerdict,
  source: SourceName,
  now: number,
): { row: PlatformStatusRow; transition: Transition } {
  const base: PlatformStatusRow = previous ?? {
    platform,
    state: 'ok',
    source: 'own',
    lastSuccessAt: null,
    lastAttemptAt: now,
    incidentStartedAt: null,
    retryAfter: null,
    blockedCount: 0,
    lastError: null,
  }
  if (verdict.kind === 'waiting') {
    return { row: { ...base, source, lastAttemptAt: now }, transition: undefined }
  }
  if (verdict.kind === 'healthy') {
    const row: PlatformStatusRow = {
      ...base,
      state: 'ok',
      source,
      lastSuccessAt: now,
      lastAttemptAt: now,
      incidentStartedAt: null,
      retryAfter: null,
      blockedCount: 0,
      lastError: null,
    }
    return { row, transition: base.incidentStartedAt !== null ? 'closed' : undefined }
  }
  const blockedCount = verdict.kind === 'blocked' ? base.blockedCount + 1 : 0
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (blockedCount - 1), MAX_BACKOFF_MS)
  const asked = verdict.kind === 'blocked' ? (verdict.retryAfterSeconds ?? 0) * 1000 : 0
  const row: PlatformStatusRow = {
    ...base,
    state: verdict.kind,
    source,
    lastAttemptAt: now,
    incidentStartedAt: base.incidentStartedAt ?? now,
    retryAfter: verdict.kind === 'blocked' ? now + Math.max(backoff, asked) : null,
    blockedCount,
    lastError: verdict.reason.slice(0, 500),
  }
  return { row, transition: base.incidentStartedAt === null ? 'opened' : undefined }
}

export async function readPlatformStatuses(db: Db): Promise<Map<string, PlatformStatusRow>> {
  const rows = await db.select().from(platformStatus)
  return new Map(rows.map((row) => [row.platform, row]))
}

export function savePlatformStatus(db: Db, row: PlatformStatusRow) {
  const { platform: _, ...fields } = row
  return db
    .insert(platformStatus)
    .values(row)
    .onConflictDoUpdate({ target: platformStatus.platform, set: fields })
}
