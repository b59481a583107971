// Daily and weekly digests: at 09:00 local time, one email per user listing the contests of the
// next day or week that match their platforms, contestTypes and noise filters, or that they
// follow, never one they muted, and the results of their own proven handles stored since the
// last digest (such an account gets no result alert of its own: scheduling/results.ts); nothing
// when there is neither.
import { listContestsStartingBetween } from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { DAY_MS } from '../../lib/time.ts'
import { digestTimeZones, pageDigestAudience, type DigestRecipient } from '../../users/audiences.ts'
import type { Notifier } from '../context.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { digestSpec, type DigestFrequency } from '../kinds/digest.ts'
import { digestResults } from '../../results/digest-results.ts'
import { createPersonalDigests, digestResult } from './digest-results.ts'
import type { NotificationSpec } from '../spec.ts'
import { contestTags, filtersPass, typesAllow } from '../../contests/matching.ts'
import { dueDigestDate, slotStart } from './digest-time.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './paging.ts'

const PERIOD_MS: Record<DigestFrequency, number> = { daily: DAY_MS, weekly: 7 * DAY_MS }
const CONTESTS_PER_DIGEST_RUN = 500

interface Candidate {
  contest: ContestRow
  tags: string[]
}

/** What of a recipient decides which contests their digest lists. */
export type DigestChoices = Pick<
  DigestRecipient,
  'platforms' | 'contestTypes' | 'filters' | 'followed' | 'muted'
>

/**
 * The contests among `candidates` that the user's platforms, contestTypes and filters select, or
 * that they follow; never one they muted.
 */
export function digestContestsFor(user: DigestChoices, candidates: readonly Candidate[]) {
  const selected = ({ contest, tags }: Candidate) =>
    user.followed.includes(contest.id) ||
    (user.platforms.includes(contest.platform) &&
      typesAllow(user.contestTypes, tags) &&
      filtersPass(user.filters, contest))
  return candidates
    .filter((c) => !user.muted.includes(c.contest.id) && selected(c))
    .map((c) => c.contest)
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
  // Results stored since the last digest's slot, up to this one's: a late run keeps its slot, so
  // consecutive digests neither miss nor repeat a result.
  const slot = slotStart(now)
  const resultsFrom = slot - PERIOD_MS[frequency]
  const base = digestSpec(frequency, localDate, [], now, until)
  let after = 0
  let created = 0
  let queued = 0
  for (;;) {
    const users = await pageDigestAudience(n.db, frequency, zone, after, pageSize)
    if (users.length === 0) break
    const results = await digestResults(
      n.db,
      users.map((u) => u.id),
      resultsFrom,
      slot,
    )
    // Users whose preferences select the same contests, and who have no results to be told,
    // share one statement; those with results have words of their own.
    const groups = new Map<string, { spec: NotificationSpec; userIds: string[] }>()
    const personal: { userId: string; spec: NotificationSpec }[] = []
    for (const user of users) {
      const contests = digestContestsFor(user, candidates)
      const own = results.get(user.id)
      if (own) {
        const entries = own.map(digestResult)
        const spec = digestSpec(frequency, localDate, contests, now, until, entries)
        personal.push({ userId: user.id, spec })
        continue
      }
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
    const mine = await createPersonalDigests(ctx, base, personal)
    created += page.created + mine.created
    queued += await enqueueNotificationDeliveries(
      n.queue,
      n.d1,
      [...page.toQueue, ...mine.toQueue],
      now,
    )
    if (users.length < pageSize) break
    after = users[users.length - 1].rid
  }
  return { created, queued }
}

export async function runDigests(n: Notifier, now: number, options: PagingOptions = {}) {
  const empty = { digestZones: 0, digestsCreated: 0, digestDeliveriesQueued: 0 }
  if (!n.enabled.email) return empty
  const slot = slotStart(now)
  const zones = await digestTimeZones(n.db)
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
    // A zone with no contest to list is still walked: its users may have results to be told.
    const candidates = all.filter((c) => c.contest.startTime <= now + PERIOD_MS[z.frequency])
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
