// Announces contests the sync found rescheduled: everyone already reminded of the old time hears
// the new one, and the reminders re-arm because their key is the start time they are for.
import { addToGroup } from '../../lib/group.ts'
import {
  findContestsByIds,
  markReschedulesHandled,
  pendingReschedules,
} from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import { joinUserSql, LIVE_RECIPIENT_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { editReminders } from '../delivery/edits.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { reminderKeyPrefix } from '../kinds/reminder.ts'
import { rescheduleSpecs } from '../kinds/reschedule.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, type PagingOptions } from './paging.ts'

const RESCHEDULES_PER_RUN = 100

// Users holding a reminder of this contest for another start time (its key does not begin with
// the current start time, ?2), still able to receive one, with the shortest of their lead times
// whose moment has passed for the new start (?5 ms away): the reminder the notice stands for.
export const REMINDED_SQL = `SELECT DISTINCT n.user_id AS id,
    (SELECT min(lt.value) FROM json_each(u.lead_times) lt
      WHERE lt.value * ${MINUTE_MS} >= ?5) AS dueLead
  FROM notifications n JOIN notification_contents k ON k.id = n.content_id
    ${joinUserSql('n.user_id')}
  WHERE n.contest_id = ?1 AND n.type = 'CONTEST_REMINDER'
    AND substr(k.dedupe_key, 1, length(?2)) <> ?2
    AND n.user_id > ?3 AND ${LIVE_RECIPIENT_SQL}
  ORDER BY n.user_id LIMIT ?4`

async function announce(n: Notifier, contest: ContestRow, now: number, pageSize: number) {
  const ctx = fanOutContext(n, now)
  const { dueNow, later } = rescheduleSpecs(contest, now)
  const untilStart = contest.startTime - now
  let after = ''
  let created = 0
  let queued = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(REMINDED_SQL)
      .bind(contest.id, reminderKeyPrefix(contest), after, pageSize, untilStart)
      .all<{ id: string; dueLead: number | null }>()
    if (results.length === 0) break
    const dueLeads = new Map<number, string[]>()
    const notYet: string[] = []
    for (const { id, dueLead } of results) {
      if (dueLead === null) notYet.push(id)
      else addToGroup(dueLeads, dueLead, id)
    }
    const page = await createNotifications(ctx, [
      ...[...dueLeads].map(([lead, userIds]) => ({ spec: dueNow(lead), userIds })),
      { spec: later, userIds: notYet },
    ])
    created += page.created
    queued += await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = results[results.length - 1].id
  }
  return { created, queued }
}

export async function announceReschedules(n: Notifier, now: number, options: PagingOptions = {}) {
  const pending = await pendingReschedules(n.db, RESCHEDULES_PER_RUN)
  if (pending.length === 0) {
    return { reschedulesHandled: 0, rescheduleNotices: 0, reminderEditsMade: 0 }
  }
  const contestIds = [...new Set(pending.map((r) => r.contestId))]
  const contests = await findContestsByIds(n.db, contestIds)
  let notices = 0
  let queued = 0
  let edits = 0
  // Several reschedules of one contest are announced once, with the time it has now.
  for (const contest of contests) {
    if (!contest.isActive || contest.startTime <= now) continue
    const result = await announce(n, contest, now, options.pageSize ?? DEFAULT_PAGE_SIZE)
    notices += result.created
    queued += result.queued
    // The reminders already in chats say the new time too.
    edits += await editReminders(n, contest, now)
  }
  await markReschedulesHandled(
    n.db,
    pending.map((r) => r.id),
    now,
  )
  return {
    reschedulesHandled: pending.length,
    rescheduleNotices: notices,
    deliveriesQueued: queued,
    reminderEditsMade: edits,
  }
}
