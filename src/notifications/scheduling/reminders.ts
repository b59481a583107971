// The reminder step of the half-hourly scheduler: contests starting inside the look-ahead window,
// their due followers matched in SQL page by page, one CONTEST_REMINDER each, sends enqueued.
import { listContestsToNotify, markContestsNotified } from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { HOUR_MS } from '../../lib/time.ts'
import { LIVE_RECIPIENT_SQL, PLATFORM_FOLLOWERS_FROM } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { reminderSpec } from '../kinds/reminder.ts'
import type { NotificationSpec } from '../spec.ts'
import { contestTags, typesAllowSql } from './contest-match.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './paging.ts'

// A Cron Trigger may run 15 minutes; a run past this leaves the rest to the next one, which
// resumes where it stopped because reminders already made are skipped by their unique key.
export const DEFAULT_BUDGET_MS = 10 * 60_000

// The smallest notifyBefore a user can choose (preferences allow 1 to 168 hours): once a contest
// is this close, every follower's reminder has fallen due and the contest is done.
const MIN_NOTIFY_BEFORE_MS = 1 * HOUR_MS
const CONTESTS_PER_RUN = 200

// Followers of the contest's platform, through the user_platforms (platform, user_id) index, who
// can receive notifications, want them immediately, are inside their notifyBefore, allow the
// contest's type, and do not hold this reminder yet. Keyset-paged by user id.
const DUE_FOLLOWERS_SQL = `SELECT up.user_id AS id FROM ${PLATFORM_FOLLOWERS_FROM}
  WHERE up.platform = ?1 AND up.user_id > ?2
    AND u.alert_frequency = 'immediate' AND ${LIVE_RECIPIENT_SQL}
    AND u.notify_before * ${HOUR_MS} >= ?3
    AND ${typesAllowSql('u.contest_types', '?4')}
    AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = up.user_id
      AND n.contest_id = ?5 AND n.type = 'CONTEST_REMINDER' AND n.dedupe_key = ?6)
  ORDER BY up.user_id LIMIT ?7`

/**
 * Walks the contest's due followers page by page: each page is one D1 batch that inserts the
 * notifications and deliveries, then its deliveries are enqueued. Memory holds one page of ids.
 */
export async function remindFollowers(
  n: Notifier,
  contest: ContestRow,
  spec: NotificationSpec,
  now: number,
  pageSize = DEFAULT_PAGE_SIZE,
  deadline = Infinity,
) {
  const ctx = fanOutContext(n, now)
  const tags = JSON.stringify(contestTags(contest))
  const untilStart = contest.startTime - now
  let after = ''
  let created = 0
  let queued = 0
  for (;;) {
    if (Date.now() > deadline) return { created, queued, complete: false }
    const { results } = await n.d1
      .prepare(DUE_FOLLOWERS_SQL)
      .bind(contest.platform, after, untilStart, tags, contest.id, spec.dedupeKey, pageSize)
      .all<{ id: string }>()
    if (results.length === 0) break
    const userIds = results.map((r) => r.id)
    const page = await createNotifications(ctx, [{ spec, userIds }])
    created += page.created
    queued += await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = userIds[userIds.length - 1]
  }
  return { created, queued, complete: true }
}

export async function runReminders(n: Notifier, now: number, options: PagingOptions = {}) {
  const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS)
  const until = now + n.settings.NOTIFY_WINDOW_HOURS * HOUR_MS
  const due = await listContestsToNotify(n.db, now, until, CONTESTS_PER_RUN)
  let remindersCreated = 0
  let deliveriesQueued = 0
  let unfinished = 0
  const done: { id: string; startTime: number }[] = []
  for (const [index, contest] of due.entries()) {
    const result = await remindFollowers(
      n,
      contest,
      reminderSpec(contest, now),
      now,
      options.pageSize,
      deadline,
    )
    remindersCreated += result.created
    deliveriesQueued += result.queued
    if (!result.complete) {
      unfinished = due.length - index
      break
    }
    // Every reminder due so far is enqueued; none can fall due later once the smallest
    // notifyBefore has been reached, so the contest is then marked notified and skipped.
    if (contest.startTime - now <= MIN_NOTIFY_BEFORE_MS) done.push(contest)
  }
  await markContestsNotified(n.db, done, now)
  return {
    contestsDue: due.length,
    remindersCreated,
    deliveriesQueued,
    contestsMarkedNotified: done.length,
    contestsLeftForNextRun: unfinished,
  }
}
