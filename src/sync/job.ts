// The catalogue sync: each platform fetched from its own source (clist.by when that fails or when
// it is the only one, the long tail asked for in one request), judged, and written on its own, so
// one failing platform never stops the others; two syncs of one platform never overlap; each run
// is recorded, and a platform clist's budget put off is named for a sync as soon as it allows.
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import type { ContestInput } from '../contests/contest-input.ts'
import { sourcedUpcomingByPlatform } from '../contests/stats.ts'
import { upsertPlatformContests } from '../contests/upsert.ts'
import { acquireLock, releaseLock } from '../db/job-lock.ts'
import type { ContestRow, PlatformStatusRow } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'
import { log } from '../lib/log.ts'
import type { PlatformModule } from '../platforms/define.ts'
import { platformModule, type Platform } from '../platforms/registry.ts'
import type { AdapterResult } from '../platforms/source.ts'
import {
  nextStatus,
  readPlatformStatuses,
  savePlatformStatus,
  type PlatformState,
  type SourceName,
  type Transition,
} from './platform-status.ts'
import { judgeAnswer, verdictOf, type Fetched } from './answers.ts'
import { askClist, askClistForAll, type ClistAnswer } from './clist-answers.ts'
import { clistServes, isLongTail, syncedPlatforms, type SyncDeps } from './deps.ts'
import { publishPlatformsSnapshot } from './platform-view.ts'
import { recordSyncRuns, type SyncRunInput } from './runs.ts'

export interface PlatformSyncReport {
  platform: Platform
  state: PlatformState
  source: SourceName
  created: number
  updated: number
  unchanged: number
  /** Upstream items that could not be stored (invalid), each explained in the run's log. */
  failed: number
  /** Well-formed items that are not contests of the platform's types. */
  unsupported: number
  rescheduled: number
  /** Future contests the healthy source no longer lists, deactivated. */
  cancelled: number
  statements: number
  durationMs: number
  error?: string
  /**
   * "waiting for the clist budget": clist.by was not asked (its budget, ours or clist's own, was
   * spent), and the platform is named in `deferred` for a sync once it allows.
   */
  waiting?: string
}

/** Platforms whose clist.by answer the budget put off, and from when it allows a request. */
export interface DeferredSync {
  platforms: Platform[]
  retryAt: number
}

export const WAITING_FOR_CLIST = 'waiting for the clist budget'

export class SyncInProgressError extends Error {
  constructor() {
    super('A contest sync is already running')
  }
}

// Longer than one platform's sync can take (its own source's pages, at most 10 of 15 s, then
// clist.by's, at most 5, then the writes), and short enough that a sync cut off by an evicted
// isolate holds its platform back for minutes, not the whole interval.
const LEASE_MS = 5 * 60_000

export interface PlatformTransition {
  platform: Platform
  transition: Exclude<Transition, undefined>
  status: PlatformStatusRow
  /** When the incident that opened or closed began. */
  startedAt: number
}

/** Syncs `platforms` side by side, returning one report each, what it created and the
 * incidents that opened or closed. */
export async function runSync(
  deps: SyncDeps,
  platforms: readonly Platform[],
  now: number,
): Promise<{
  reports: PlatformSyncReport[]
  created: ContestRow[]
  transitions: PlatformTransition[]
  deferred?: DeferredSync
}> {
  const holder = newId(now)
  const locked: Platform[] = []
  try {
    for (const platform of platforms) {
      if (!(await acquireLock(deps.db, `contest-sync:${platform}`, holder, now, LEASE_MS))) {
        throw new SyncInProgressError()
      }
      locked.push(platform)
    }
    const longTail = platforms.map(platformModule).filter((m) => isLongTail(deps, m))
    const [statuses, stored, clistAnswers] = await Promise.all([
      readPlatformStatuses(deps.db),
      sourcedUpcomingByPlatform(deps.db, now),
      askClistForAll(deps, longTail, now),
    ])
    const outcomes = await Promise.all(
      platforms.map((p) =>
        syncPlatform(
          deps,
          platformModule(p),
          statuses.get(p),
          stored.get(p) ?? 0,
          now,
          clistAnswers.get(p),
        ),
      ),
    )
    await recordSyncRuns(
      deps.db,
      outcomes.map((o) => o.run),
    )
    const reports = outcomes.map((o) => o.report)
    // A changed state is news for the cached /platforms and home page as much as a new contest.
    const stateChanged = reports.some((r) => r.state !== statuses.get(r.platform)?.state)
    if (stateChanged || reports.some((r) => r.created + r.updated + r.cancelled > 0)) {
      await bumpCatalogueVersion(deps.kv)
    }
    await publishPlatformsSnapshot(deps.db, deps.kv, syncedPlatforms(deps), now)
    const waiting = outcomes.filter((o) => o.retryAt !== undefined)
    return {
      ...(waiting.length > 0 && {
        deferred: {
          platforms: waiting.map((o) => o.report.platform),
          // The latest, so that none of them is refused again when the sync comes.
          retryAt: Math.max(...waiting.map((o) => o.retryAt!)),
        },
      }),
      reports,
      created: outcomes.flatMap((o) => o.created),
      transitions: outcomes.flatMap((o) =>
        o.transition
          ? [
              {
                platform: o.report.platform,
                transition: o.transition,
                status: o.status,
                startedAt: (o.transition === 'opened' ? o.status : statuses.get(o.report.platform))!
                  .incidentStartedAt!,
              },
            ]
          : [],
      ),
    }
  } finally {
    for (const platform of locked) await releaseLock(deps.db, `contest-sync:${platform}`, holder)
  }
}

/** Asks the platform's own source, unless a block's backoff is still running. */
async function askOwnSource(
  deps: SyncDeps,
  module: PlatformModule,
  previous: PlatformStatusRow | undefined,
  stored: number,
  now: number,
): Promise<Fetched> {
  if (previous?.state === 'blocked' && (previous.retryAfter ?? 0) > now) {
    return { verdict: { kind: 'waiting' }, source: 'own' }
  }
  try {
    const result = await module.source!.fetch({
      baseUrl: deps.baseUrl(module),
      fetchFn: deps.fetchFn,
      now,
      retentionDays: deps.retentionDays,
      userAgent: deps.userAgent,
      timeoutMs: deps.timeoutMs,
    })
    return { verdict: judgeAnswer(result, stored, now), result, source: 'own' }
  } catch (error) {
    return { verdict: verdictOf(error), source: 'own' }
  }
}

/** The contests to write: the own source's first, then what the fallback adds. */
function merge(own: AdapterResult | undefined, fallback: AdapterResult | undefined) {
  const contests = [...(own?.contests ?? [])]
  const listed = new Set(contests.map((c) => c.platformId))
  for (const c of fallback?.contests ?? []) if (!listed.has(c.platformId)) contests.push(c)
  return {
    contests: contests as ContestInput[],
    skipped: (own?.skipped ?? 0) + (fallback?.skipped ?? 0),
    unsupported: (own?.unsupported ?? 0) + (fallback?.unsupported ?? 0),
    errors: [...(own?.errors ?? []), ...(fallback?.errors ?? [])],
  }
}

async function syncPlatform(
  deps: SyncDeps,
  module: PlatformModule,
  previous: PlatformStatusRow | undefined,
  stored: number,
  now: number,
  clistAnswer?: ClistAnswer,
) {
  const started = Date.now()
  const platform = module.id as Platform
  const empty = {
    created: 0,
    updated: 0,
    unchanged: 0,
    rescheduled: 0,
    cancelled: 0,
    statements: 0,
  }
  let written = { ...empty, created: [] as ContestRow[], cancelled: [] as string[] }
  let primary: Fetched
  let fallback: Fetched | undefined
  let error: string | undefined
  try {
    if (module.source) {
      primary = await askOwnSource(deps, module, previous, stored, now)
      if (primary.verdict.kind !== 'healthy' && clistServes(deps, module)) {
        fallback = await askClist(deps, module, stored, now)
      }
    } else if (clistServes(deps, module)) {
      primary = await askClist(deps, module, stored, now, clistAnswer)
    } else {
      primary = {
        verdict: { kind: 'failing', reason: 'clist.by is not configured' },
        source: 'clist',
      }
    }
    const healthy = primary.verdict.kind === 'healthy'
    const usable = fallback?.result ? fallback : primary
    const contests = merge(primary.result, fallback?.result)
    if (contests.errors.length > 0) {
      const skipped = contests.errors.slice(0, 20)
      log.with({ job: 'sync' }).warn('sync-items-skipped', { platform, skipped })
    }
    // Only a healthy answer is complete enough to cancel what it no longer lists.
    written = await upsertPlatformContests(
      deps.db,
      platform,
      contests.contests,
      now,
      module.volatileMetadata,
      healthy,
      module.formerIds,
    )
    const next = nextStatus(platform, previous, primary.verdict, usable.source, now)
    await savePlatformStatus(deps.db, next.row)
    const retryAt = (fallback ?? primary).retryAt
    // A platform clist lists alone, put off by the budget, is waiting, not failing: nothing is
    // wrong with it, and it is synced again as soon as the budget allows.
    if (!healthy && !(primary.source === 'clist' && retryAt !== undefined))
      error = 'reason' in primary.verdict ? primary.verdict.reason : 'waiting out a block'
    const report: PlatformSyncReport = {
      platform,
      state: next.row.state,
      source: next.row.source,
      created: written.created.length,
      updated: written.updated,
      unchanged: written.unchanged,
      failed: contests.skipped,
      unsupported: contests.unsupported,
      rescheduled: written.rescheduled,
      cancelled: written.cancelled.length,
      statements: written.statements,
      durationMs: Date.now() - started,
      ...(error && { error }),
      ...(retryAt !== undefined && { waiting: WAITING_FOR_CLIST }),
    }
    return {
      report,
      run: runOf(report, now),
      created: written.created,
      transition: next.transition,
      status: next.row,
      retryAt,
    }
  } catch (err) {
    // A failure of our own (the database): recorded, the platform's state left as it was.
    error = err instanceof Error ? err.message : String(err)
    const report: PlatformSyncReport = {
      platform,
      state: previous?.state ?? 'failing',
      source: previous?.source ?? 'own',
      ...empty,
      failed: 0,
      unsupported: 0,
      durationMs: Date.now() - started,
      error,
    }
    return {
      report,
      run: runOf(report, now),
      created: [],
      transition: undefined,
      status: previous!,
      retryAt: undefined,
    }
  }
}

function runOf(report: PlatformSyncReport, now: number): SyncRunInput {
  return {
    id: newId(now),
    platform: report.platform,
    // A run clist's budget put off got nothing: not a success, so the last sync time stays true.
    status: report.error || report.waiting ? 'failed' : 'success',
    startedAt: now,
    finishedAt: now + report.durationMs,
    created: report.created,
    updated: report.updated,
    unchanged: report.unchanged,
    skipped: report.failed,
    error: report.error ?? report.waiting ?? null,
  }
}
