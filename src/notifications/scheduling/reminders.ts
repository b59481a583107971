// The reminder step of the half-hourly scheduler: contests within the look-ahead window, their
// due recipients matched in SQL page by page, one CONTEST_REMINDER per (user, lead
// time), each held by the consumer until it is due, and the sends enqueued.
import { addToGroup } from '../../lib/group.ts'
import {
  findContestsByIds,
  listContestsToNotify,
  markContestsNotified,
} from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { HOUR_MS, MINUTE_MS } from '../../lib/time.ts'
import { CONTEST_FOLLOWERS_FROM, chose } from '../../users/contest-subscriptions.ts'
import { MIN_LEAD_MINUTES } from '../../users/preferences.ts'
import {
  followerPageEnds,
  LIVE_RECIPIENT_SQL,
  PLATFORM_FOLLOWERS_FROM,
} from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { reminderDueAt, reminderKeyPrefix, reminderSpec } from '../kinds/reminder.ts'
import { contestTags, filtersPassSql, typesAllowSql } from '../../contests/matching.ts'
import {
  enqueueFanOutPages,
  FAN_OUT_PAGE,
  LAST_USER_ID,
  type FanOutContest,
  type FanOutPage,
} from './fan-out-pages.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'
import { resumeFanOutPage } from './page-resume.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './paging.ts'

// A Cron Trigger may run 15 minutes; a run past this leaves the rest to the next one, which
// resumes where it stopped because reminders already made are skipped by their unique key.
export const DEFAULT_BUDGET_MS = 10 * 60_000

/**
 * The scheduler runs every 30 minutes (jobs/cron.ts), so a run makes every reminder falling due
 * before the next one; the consumer holds each until its time, which keeps a 10-minute lead time
 * exact whatever the period.
 */
export const SCHEDULER_PERIOD_MS = 30 * MINUTE_MS
const CONTESTS_PER_RUN = 200

/**
 * The contests of one walk, bound at ?4 as a JSON array of [id, ms until the start, start-time key
 * prefix, tags, duration, lower-cased name] (contestRow) and read once a statement into `c`, so
 * the conditions on each follower read plain columns rather than parse the JSON again.
 */
const CONTESTS_CTE = `WITH c(k, id, until_start, key_prefix, tags, duration, name) AS MATERIALIZED (
  SELECT key, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
  FROM json_each(?4))`

/**
 * SQL over the user `u` and the contest `c`: the lead times (a JSON array of minutes) whose
 * reminder this run makes. A lead time is due once its moment is within a period (minutes * 60000
 * >= untilStart - period, ?3); one whose moment has passed is skipped when a shorter lead time's
 * moment has passed too, since that shorter one is the reminder that counts now (a user who adds
 * a day-ahead reminder an hour before the start gets the hour's, not a stale "in a day"); and none
 * already made is made again.
 */
const DUE_LEADS_SQL = `(SELECT json_group_array(lt.value) FROM json_each(u.lead_times) lt
  WHERE lt.value * ${MINUTE_MS} >= c.until_start - ?3
    AND NOT EXISTS (SELECT 1 FROM json_each(u.lead_times) sl
      WHERE sl.value < lt.value AND sl.value * ${MINUTE_MS} >= c.until_start)
    AND NOT EXISTS (SELECT 1 FROM notification_contents k CROSS JOIN notifications n
      ON n.contest_id = c.id AND n.user_id = u.id AND n.content_id = k.id
      WHERE k.contest_id = c.id AND k.type = 'CONTEST_REMINDER'
        AND k.dedupe_key = c.key_prefix || lt.value))`

/**
 * A walk over followers, keyset-paged by user id `id`: above ?2, up to and including ?6
 * (LAST_USER_ID: to the end), ?5 a page, so a page of the fan-out walks its own stretch of its
 * index. Each follower comes with a JSON array of [k, due lead times] for each contest of the
 * walk that `condition` lets through (k the contest's place in ?4).
 */
const dueWalkSql = (id: string, from: string, where: string, condition: string) => `${CONTESTS_CTE}
SELECT ${id} AS id, (SELECT json_group_array(json_array(c.k, json(${DUE_LEADS_SQL})))
    FROM c WHERE ${condition}) AS due
  FROM ${from}
  WHERE ${where} AND ${id} > ?2 AND ${id} <= ?6
  ORDER BY ${id} LIMIT ?5`

/**
 * Followers of a platform (?1), through the user_platforms (platform, user_id) index, who can be
 * notified and want reminders, each with the contests of the walk (all of that platform) whose
 * type they allow and whose name and duration pass their noise filters, that they did not mute.
 * A follower's row is read once for all the walk's contests: a fan-out page's contests share
 * their followers.
 */
export const PLATFORM_DUE_SQL = dueWalkSql(
  'up.user_id',
  PLATFORM_FOLLOWERS_FROM,
  `up.platform = ?1 AND u.alert_frequency = 'immediate' AND ${LIVE_RECIPIENT_SQL}`,
  `${typesAllowSql('u.contest_types', 'c.tags')} AND ${filtersPassSql('c.duration', 'c.name')}
    AND NOT ${chose('mute', 'c.id')}`,
)

/**
 * Users who follow one contest (?1), through the (contest_id, mode, user_id) index: reminded
 * whatever their platforms, types, filters or alert frequency say. Binds as PLATFORM_DUE_SQL.
 */
export const FOLLOWERS_DUE_SQL = dueWalkSql(
  'cs.user_id',
  CONTEST_FOLLOWERS_FROM,
  `cs.contest_id = ?1 AND cs.mode = 'follow' AND ${LIVE_RECIPIENT_SQL}`,
  'c.id = ?1',
)

/** Who a walk goes through: the platform's followers or the contest's own. */
interface Audience {
  sql: string
  /** What the walk's ?1 is for a contest; contests with the same one are walked together. */
  keyOf: (contest: ContestRow) => string
}

const PLATFORM_FOLLOWERS: Audience = { sql: PLATFORM_DUE_SQL, keyOf: (c) => c.platform }
const CONTEST_FOLLOWERS: Audience = { sql: FOLLOWERS_DUE_SQL, keyOf: (c) => c.id }

interface DueRow {
  id: string
  /** JSON array of [k, lead times due] per contest of the walk (k its place in the walk). */
  due: string
}

/** A contest's row of the walk's contests (CONTESTS_CTE). */
const contestRow = (contest: ContestRow, now: number) => [
  contest.id,
  contest.startTime - now,
  reminderKeyPrefix(contest),
  contestTags(contest),
  contest.durationMinutes,
  contest.name.toLowerCase(),
]

/** A page's users grouped by contest (its place in the walk), then by due lead time. */
function byContestAndLead(rows: readonly DueRow[], contests: number) {
  const groups = Array.from({ length: contests }, () => new Map<number, string[]>())
  for (const row of rows) {
    for (const [k, leads] of JSON.parse(row.due) as [number, number[]][]) {
      for (const lead of leads) addToGroup(groups[k], lead, row.id)
    }
  }
  return groups
}

/** Followers with ids above `after`, up to and including `through` (null: to the end). */
type FollowerRange = Pick<FanOutPage, 'after' | 'through'>

/**
 * Walks one audience of the contests page by page, the contests with the same walk key together
 * and every walk side by side: a step reads the next page of every walk not done, then one D1
 * batch inserts the notifications and deliveries of every due lead time of them all, then each
 * lead time's deliveries are enqueued with the delay until they are due. Contests of one platform
 * share their followers, so a step reads each follower once for all of them, and writes each
 * follower's stretch of the per-user index once for all of them. Memory holds one page per walk.
 * A fan-out range creates its deliveries marked queued (page-resume.ts).
 */
async function remindAudience(
  n: Notifier,
  audience: Audience,
  contests: readonly ContestRow[],
  now: number,
  pageSize: number,
  deadline: number,
  range?: FollowerRange,
) {
  const ctx = fanOutContext(n, now, { queuedOnCreate: range !== undefined })
  const together = new Map<string, ContestRow[]>()
  for (const contest of contests) addToGroup(together, audience.keyOf(contest), contest)
  let walks = [...together].map(([key, walked]) => ({
    contests: walked,
    binds: [
      key,
      range?.after ?? '',
      SCHEDULER_PERIOD_MS,
      JSON.stringify(walked.map((contest) => contestRow(contest, now))),
      pageSize,
      range?.through ?? LAST_USER_ID,
    ],
  }))
  let created = 0
  let queued = 0
  while (walks.length > 0) {
    if (Date.now() > deadline) return { created, queued, complete: false }
    const pages = await n.d1.batch<DueRow>(
      walks.map((w) => n.d1.prepare(audience.sql).bind(...w.binds)),
    )
    const groups = walks.flatMap((w, i) =>
      byContestAndLead(pages[i].results, w.contests.length).flatMap((leads, k) =>
        [...leads].map(([lead, userIds]) => ({
          spec: reminderSpec(w.contests[k], now, lead),
          userIds,
        })),
      ),
    )
    const page = await createNotifications(ctx, groups)
    created += page.created
    for (const [i, { spec }] of groups.entries()) {
      const delayMs = (spec.scheduledAt ?? now) - now
      queued += await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueueByGroup[i], now, {
        delaySeconds: Math.ceil(delayMs / 1000),
        markQueued: !ctx.queuedOnCreate,
      })
    }
    walks = walks.filter((w, i) => {
      const { results } = pages[i]
      const last = results[results.length - 1]?.id
      // A full step that reached the range's end leaves nothing to walk.
      if (results.length < pageSize || last === range?.through) return false
      w.binds[1] = last
      return true
    })
  }
  return { created, queued, complete: true }
}

/**
 * The contest's reminders due this run: platform followers first, then its own followers. A
 * platform with more followers than a page leaves them to queued pages instead (fan-out-pages.ts):
 * `fanOutEnds` are the ends of those pages, for the caller to enqueue with its other contests';
 * its own followers, a few by nature, are reminded here.
 */
export async function remindFollowers(
  n: Notifier,
  contest: ContestRow,
  now: number,
  { pageSize = DEFAULT_PAGE_SIZE, fanOutPage = FAN_OUT_PAGE }: PagingOptions = {},
  deadline = Infinity,
  pageEndsOf = (platform: string) => followerPageEnds(n.d1, platform, fanOutPage),
) {
  const fanOutEnds = await pageEndsOf(contest.platform)
  const platform =
    fanOutEnds.length > 0
      ? { created: 0, queued: 0, complete: true }
      : await remindAudience(n, PLATFORM_FOLLOWERS, [contest], now, pageSize, deadline)
  if (!platform.complete) return { ...platform, fanOutEnds }
  const own = await remindAudience(n, CONTEST_FOLLOWERS, [contest], now, pageSize, deadline)
  return {
    created: platform.created + own.created,
    queued: platform.queued + own.queued,
    complete: own.complete,
    fanOutEnds,
  }
}

/** A queued fan-out page, and whether it first enqueues what an earlier attempt made. */
export interface PageToRemind {
  page: FanOutPage
  /** Set for a page run again (a retry, or a page whose group failed): see page-resume.ts. */
  resume: boolean
}

/**
 * Queued pages of one range of platform followers (the same `after` and `through`), each of its
 * own contest: their due reminders made and enqueued as the run would have, all contests in one
 * walk. Nothing new for a contest gone, moved or started since its page was cut. A page run again
 * first enqueues what an earlier attempt made.
 *
 * The range is walked in one step (FAN_OUT_PAGE followers, cut so when the run queued it), not in
 * steps of DEFAULT_PAGE_SIZE: every step is two D1 batches, and fewer, larger batches wrote the
 * bench's reminders in 9% less time (docs/performance.md). A step's writes then hold D1 for 0.3 to
 * 0.5 s on the bench machine rather than 0.07 to 0.1 s.
 */
export async function remindFanOutPages(
  n: Notifier,
  pages: readonly PageToRemind[],
  now: number,
  { pageSize = FAN_OUT_PAGE } = {},
) {
  if (pages.length === 0) return { created: 0, queued: 0 }
  const range = pages[0].page
  if (pages.some(({ page }) => page.after !== range.after || page.through !== range.through)) {
    throw new Error('The pages of one walk share their range of followers')
  }
  let resumed = 0
  for (const { page, resume } of pages) {
    if (resume) resumed += await resumeFanOutPage(n, page, now)
  }
  const found = await findContestsByIds(n.db, [...new Set(pages.map(({ page }) => page.contestId))])
  const contests = found.filter((contest) =>
    pages.some(
      ({ page }) =>
        page.contestId === contest.id &&
        contest.isActive &&
        contest.startTime === page.startTime &&
        contest.startTime > now,
    ),
  )
  if (contests.length === 0) return { created: 0, queued: resumed }
  const { created, queued } = await remindAudience(
    n,
    PLATFORM_FOLLOWERS,
    contests,
    now,
    pageSize,
    Infinity,
    range,
  )
  return { created, queued: resumed + queued }
}

export async function runReminders(n: Notifier, now: number, options: PagingOptions = {}) {
  const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS)
  // The spec's look-ahead window (NOTIFY_WINDOW_HOURS), plus the period this run makes reminders
  // for: a lead time longer than the window is reminded when the contest enters it.
  const until = now + n.settings.NOTIFY_WINDOW_HOURS * HOUR_MS + SCHEDULER_PERIOD_MS
  const due = await listContestsToNotify(n.db, now, until, CONTESTS_PER_RUN)
  // A platform's pages are cut once a run, whatever the number of its contests due.
  const ends = new Map<string, Promise<string[]>>()
  const pageEndsOf = (platform: string) => {
    if (!ends.has(platform)) {
      ends.set(platform, followerPageEnds(n.d1, platform, options.fanOutPage ?? FAN_OUT_PAGE))
    }
    return ends.get(platform)!
  }
  let remindersCreated = 0
  let deliveriesQueued = 0
  let unfinished = 0
  const done: { id: string; startTime: number }[] = []
  const fanOuts: FanOutContest[] = []
  for (const [index, contest] of due.entries()) {
    const result = await remindFollowers(n, contest, now, options, deadline, pageEndsOf)
    remindersCreated += result.created
    deliveriesQueued += result.queued
    if (result.fanOutEnds.length > 0) fanOuts.push({ contest, ends: result.fanOutEnds })
    if (!result.complete) {
      unfinished = due.length - index
      break
    }
    // Once the shortest lead time a user may choose is within this run's period, every reminder
    // of the contest is made, so it is marked notified and skipped from then on. A constant, not
    // the shortest anyone holds now: a user who signs up or adds a lead time later is still due.
    if (reminderDueAt(contest, MIN_LEAD_MINUTES, now) <= now + SCHEDULER_PERIOD_MS)
      done.push(contest)
  }
  // Queued before the contests are marked: a run that fails here leaves them to the next one.
  const fanOutPages = await enqueueFanOutPages(n.queue, fanOuts)
  await markContestsNotified(n.db, done, now)
  return {
    contestsDue: due.length,
    remindersCreated,
    deliveriesQueued,
    fanOutPagesQueued: fanOutPages,
    contestsMarkedNotified: done.length,
    contestsLeftForNextRun: unfinished,
  }
}
