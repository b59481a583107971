// A fan-out page's deliveries are created already marked queued, so the sweep of unqueued ones
// never sees them: until its message is acked, the page itself stands for them. A page run again
// (a retry after a failure, or its dead letter) first enqueues every delivery of its stretch of
// followers that no attempt has touched yet; one enqueued twice is still claimed once.
import type { Notifier } from '../context.ts'
import { enqueueWhenDue, type ScheduledDelivery } from '../delivery/enqueue.ts'
import { reminderKeyPrefix } from '../kinds/reminder.ts'
import { LAST_USER_ID, type FanOutPage } from './fan-out-pages.ts'

// The page's reminders through the contest-first dedupe key (contest, user id range), their
// contents by id, each delivery by its (notification_id, channel) key; +status keeps SQLite off
// the status index.
export const PAGE_UNTOUCHED_SQL = `SELECT d.id AS id, d.channel AS channel,
    n.scheduled_at AS scheduledAt
  FROM notifications n CROSS JOIN notification_contents k ON k.id = n.content_id
    CROSS JOIN notification_deliveries d ON d.notification_id = n.id
  WHERE n.contest_id = ?1 AND n.type = 'CONTEST_REMINDER' AND n.user_id > ?2 AND n.user_id <= ?3
    AND substr(k.dedupe_key, 1, length(?4)) = ?4
    AND +d.status = 'PENDING' AND d.attempts = 0`

/** Enqueues the page's reminders still untouched, for the start it was cut for; returns how many. */
export async function resumeFanOutPage(n: Notifier, page: FanOutPage, now: number) {
  const { results } = await n.d1
    .prepare(PAGE_UNTOUCHED_SQL)
    .bind(page.contestId, page.after, page.through ?? LAST_USER_ID, reminderKeyPrefix(page))
    .all<ScheduledDelivery>()
  return enqueueWhenDue(n.queue, n.d1, results, now, { markQueued: false })
}
