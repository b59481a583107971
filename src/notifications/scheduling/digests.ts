// Daily and weekly digests: at 09:00 local time, one email per user listing the contests of the
// next day or week that match their platforms and contestTypes; nothing when none match.
import { listContestsStartingBetween } from '../contests/notified.ts'
import type { ContestRow } from '../db/schema.ts'
import { DAY_MS, toIso } from '../lib/time.ts'
import { contestTags, typesAllow } from './contest-match.ts'
import { EMAIL_ONLY, fanOutContext, type Notifier } from './context.ts'
import { dueDigestDate, slotStart, type DigestFrequency } from './digest-time.ts'
import { enqueueDeliveries } from './enqueue.ts'
import { createNotifications, type NotificationSpec } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './reminders.ts'
import { formatTime, platformName } from './wording.ts'

const PERIOD_MS: Record<DigestFrequency, number> = { daily: DAY_MS, weekly: 7 * DAY_MS }
const CONTESTS_PER_DIGEST_RUN = 500
// The message lists this many contests; the email lists them all.
const LISTED_IN_MESSAGE = 20

interface Candidate {
  contest: ContestRow
  tags: string[]
}

interface DigestUser {
  rid: number
  id: string
  platforms: string
  contestTypes: string
}

// Users of one (frequency, time zone), walked through the users_frequency_timezone index, whose
// entries are ordered by rowid within a key: a keyset walk without sorting.
const DIGEST_USERS_SQL = `SELECT rowid AS rid, id, platforms, contest_types AS contestTypes
  FROM users
  WHERE alert_frequency = ?1 AND timezone = ?2 AND rowid > ?3
    AND is_active = 1 AND email_verified_at IS NOT NULL AND deleted_at IS NULL AND notify_email = 1
  ORDER BY rowid LIMIT ?4`

/** The contests among `candidates` that the user's platforms and contestTypes select. */
export function digestContestsFor(
  platforms: readonly string[],
  contestTypes: readonly string[],
  candidates: readonly Candidate[],
): ContestRow[] {
  return candidates
    .filter((c) => platforms.includes(c.contest.platform) && typesAllow(contestTypes, c.tags))
    .map((c) => c.contest)
}

export function digestSpec(
  frequency: DigestFrequency,
  localDate: string,
  contests: readonly ContestRow[],
  from: number,
  until: number,
): NotificationSpec {
  const count = contests.length
  const period = frequency === 'daily' ? 'the next 24 hours' : 'the next 7 days'
  const lines = contests
    .slice(0, LISTED_IN_MESSAGE)
    .map((c) => `- ${c.name} (${platformName(c.platform)}), ${formatTime(c.startTime)}`)
  if (count > LISTED_IN_MESSAGE) lines.push(`- and ${count - LISTED_IN_MESSAGE} more`)
  return {
    contestId: null,
    type: 'CONTEST_REMINDER',
    dedupeKey: `${frequency}:${localDate}`,
    title: `Your ${frequency} contest digest: ${count} contest${count === 1 ? '' : 's'}`,
    message: `Contests in ${period}:\n${lines.join('\n')}`,
    payload: {
      kind: 'digest',
      frequency,
      date: localDate,
      from: toIso(from),
      until: toIso(until),
      contestIds: contests.map((c) => c.id),
    },
    channels: EMAIL_ONLY,
    scheduledAt: from,
  }
}

function parseList(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

async function digestZone(
  n: Notifier,
  frequency: DigestFrequency,
  zone: string,
  localDate: string,
  candidates: readonly Candidate[],
  now: number,
  pageSize: number,
) {
  const ctx = fanOutContext(n, now)
  const until = now + PERIOD_MS[frequency]
  let after = 0
  let created = 0
  let queued = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(DIGEST_USERS_SQL)
      .bind(frequency, zone, after, pageSize)
      .all<DigestUser>()
    if (results.length === 0) break
    // Users whose preferences select the same contests share one statement.
    const groups = new Map<string, { spec: NotificationSpec; userIds: string[] }>()
    for (const user of results) {
      const contests = digestContestsFor(
        parseList(user.platforms),
        parseList(user.contestTypes),
        candidates,
      )
      if (contests.length === 0) continue
      const key = contests.map((c) => c.id).join(',')
      let group = groups.get(key)
      if (!group) {
        group = { spec: digestSpec(frequency, localDate, contests, now, until), userIds: [] }
        groups.set(key, group)
      }
      group.userIds.push(user.id)
    }
    const page = await createNotifications(ctx, [...groups.values()])
    created += page.created
    queued += await enqueueDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = results[results.length - 1].rid
  }
  return { created, queued }
}

export async function runDigests(n: Notifier, now: number, options: PagingOptions = {}) {
  const empty = { digestZones: 0, digestsCreated: 0, digestDeliveriesQueued: 0 }
  if (!n.enabled.email) return empty
  const slot = slotStart(now)
  // A small query: the distinct (frequency, zone) pairs, read from the index alone.
  const { results: zones } = await n.d1
    .prepare(
      `SELECT DISTINCT alert_frequency AS frequency, timezone AS zone FROM users
        WHERE alert_frequency IN ('daily', 'weekly')`,
    )
    .all<{ frequency: DigestFrequency; zone: string }>()
  const due = zones
    .map((z) => ({ ...z, date: dueDigestDate(z.zone, z.frequency, slot) }))
    .filter((z): z is typeof z & { date: string } => z.date !== undefined)
  if (due.length === 0) return empty

  const longest = Math.max(...due.map((z) => PERIOD_MS[z.frequency]))
  const upcoming = await listContestsStartingBetween(
    n.db,
    now,
    now + longest,
    CONTESTS_PER_DIGEST_RUN,
  )
  const all = upcoming.map((contest) => ({ contest, tags: contestTags(contest) }))
  let created = 0
  let queued = 0
  for (const z of due) {
    const candidates = all.filter((c) => c.contest.startTime <= now + PERIOD_MS[z.frequency])
    if (candidates.length === 0) continue
    const result = await digestZone(
      n,
      z.frequency,
      z.zone,
      z.date,
      candidates,
      now,
      options.pageSize ?? DEFAULT_PAGE_SIZE,
    )
    created += result.created
    queued += result.queued
  }
  return { digestZones: due.length, digestsCreated: created, digestDeliveriesQueued: queued }
}
