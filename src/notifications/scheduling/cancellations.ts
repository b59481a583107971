// Announces contests the sync found cancelled: everyone who follows the contest or was already
// reminded of it hears once that it is off.
import {
  findContestsByIds,
  markCancellationsHandled,
  pendingCancellations,
} from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { CONTEST_FOLLOWERS_FROM } from '../../users/contest-subscriptions.ts'
import { joinUserSql, LIVE_RECIPIENT_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { editReminders } from '../delivery/edits.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { cancellationSpec } from '../kinds/cancellation.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './paging.ts'

const CANCELLATIONS_PER_RUN = 100

// The contest's followers and the users already reminded of it (?1), still able to receive a
// notice, in id order after ?2, ?3 a page.
export const TOLD_SQL = `SELECT id FROM (
    SELECT u.id AS id FROM ${CONTEST_FOLLOWERS_FROM}
      WHERE cs.contest_id = ?1 AND cs.mode = 'follow' AND ${LIVE_RECIPIENT_SQL}
    UNION
    SELECT n.user_id AS id FROM notifications n ${joinUserSql('n.user_id')}
      WHERE n.contest_id = ?1 AND n.type = 'CONTEST_REMINDER' AND ${LIVE_RECIPIENT_SQL}
  )
  WHERE id > ?2 ORDER BY id LIMIT ?3`

async function announce(
  n: Notifier,
  contest: ContestRow,
  startTime: number,
  now: number,
  pageSize: number,
) {
  const ctx = fanOutContext(n, now)
  const spec = cancellationSpec(contest, startTime, now)
  let after = ''
  let created = 0
  let queued = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(TOLD_SQL)
      .bind(contest.id, after, pageSize)
      .all<{ id: string }>()
    if (results.length === 0) break
    const page = await createNotifications(ctx, [{ spec, userIds: results.map((r) => r.id) }])
    created += page.created
    queued += await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = results[results.length - 1].id
  }
  return { created, queued }
}

export async function announceCancellations(n: Notifier, now: number, options: PagingOptions = {}) {
  const pending = await pendingCancellations(n.db, CANCELLATIONS_PER_RUN)
  if (pending.length === 0) {
    return {
      cancellationsHandled: 0,
      cancellationNotices: 0,
      cancellationDeliveries: 0,
      cancellationEditsMade: 0,
    }
  }
  const contests = new Map(
    (await findContestsByIds(n.db, [...new Set(pending.map((c) => c.contestId))])).map((c) => [
      c.id,
      c,
    ]),
  )
  let notices = 0
  let queued = 0
  let edits = 0
  for (const cancellation of pending) {
    const contest = contests.get(cancellation.contestId)
    // Listed again since (active once more): nothing to tell.
    if (!contest || contest.isActive) continue
    const result = await announce(
      n,
      contest,
      cancellation.startTime,
      now,
      options.pageSize ?? DEFAULT_PAGE_SIZE,
    )
    notices += result.created
    queued += result.queued
    // The reminders already in chats say it is cancelled.
    edits += await editReminders(n, contest, now)
  }
  await markCancellationsHandled(
    n.db,
    pending.map((c) => c.id),
    now,
  )
  return {
    cancellationsHandled: pending.length,
    cancellationNotices: notices,
    cancellationDeliveries: queued,
    cancellationEditsMade: edits,
  }
}
