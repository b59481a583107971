// Announces contests the sync found rescheduled: everyone already reminded of the old time hears
// the new one, and the reminders re-arm because their key is the start time they are for.
import {
  findContestsByIds,
  markReschedulesHandled,
  pendingReschedules,
} from '../contests/notified.ts'
import type { ContestRow } from '../db/schema.ts'
import { HOUR_MS, toIso } from '../lib/time.ts'
import { ALL_CHANNELS, fanOutContext, type Notifier } from './context.ts'
import { enqueueDeliveries } from './enqueue.ts'
import { createNotifications, type NotificationSpec } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, reminderKey, reminderSpec, type PagingOptions } from './reminders.ts'
import { formatTime, formatUntil, platformName } from './wording.ts'

const RESCHEDULES_PER_RUN = 100

// Users holding a reminder of this contest for another start time, still able to receive one.
const REMINDED_SQL = `SELECT DISTINCT n.user_id AS id, u.notify_before AS notifyBefore
  FROM notifications n JOIN users u ON u.id = n.user_id
  WHERE n.contest_id = ?1 AND n.type = 'CONTEST_REMINDER' AND n.dedupe_key <> ?2
    AND n.user_id > ?3 AND u.is_active = 1 AND u.deleted_at IS NULL
    AND u.email_verified_at IS NOT NULL
  ORDER BY n.user_id LIMIT ?4`

/**
 * For a user whose reminder for the new time is due already, the notice is that reminder (same
 * key, so the regular run adds no second one); for the others it is a SYSTEM_ALERT, and their
 * reminder comes when it falls due.
 */
export function rescheduleSpecs(contest: ContestRow, now: number) {
  const platform = platformName(contest.platform)
  const message =
    `${contest.name} on ${platform} has been rescheduled. ` +
    `It now starts at ${formatTime(contest.startTime)}.`
  const base = reminderSpec(contest, now)
  const payload = { ...base.payload, kind: 'reschedule' }
  const dueNow: NotificationSpec = {
    ...base,
    title: `Rescheduled: ${contest.name} now starts ${formatUntil(contest.startTime - now)}`,
    message,
    payload,
  }
  const later: NotificationSpec = {
    contestId: contest.id,
    type: 'SYSTEM_ALERT',
    dedupeKey: `rescheduled:${reminderKey(contest)}`,
    title: `Rescheduled: ${contest.name}`,
    message,
    payload: { ...payload, startTime: toIso(contest.startTime) },
    channels: ALL_CHANNELS,
    scheduledAt: now,
  }
  return { dueNow, later }
}

async function announce(n: Notifier, contest: ContestRow, now: number, pageSize: number) {
  const ctx = fanOutContext(n, now)
  const { dueNow, later } = rescheduleSpecs(contest, now)
  const untilStart = contest.startTime - now
  const inWindow = untilStart <= n.settings.NOTIFY_WINDOW_HOURS * HOUR_MS
  let after = ''
  let created = 0
  let queued = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(REMINDED_SQL)
      .bind(contest.id, reminderKey(contest), after, pageSize)
      .all<{ id: string; notifyBefore: number }>()
    if (results.length === 0) break
    const isDue = (r: { notifyBefore: number }) =>
      inWindow && r.notifyBefore * HOUR_MS >= untilStart
    const page = await createNotifications(ctx, [
      { spec: dueNow, userIds: results.filter(isDue).map((r) => r.id) },
      { spec: later, userIds: results.filter((r) => !isDue(r)).map((r) => r.id) },
    ])
    created += page.created
    queued += await enqueueDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = results[results.length - 1].id
  }
  return { created, queued }
}

export async function announceReschedules(n: Notifier, now: number, options: PagingOptions = {}) {
  const pending = await pendingReschedules(n.db, RESCHEDULES_PER_RUN)
  if (pending.length === 0) return { reschedulesHandled: 0, rescheduleNotices: 0 }
  const contestIds = [...new Set(pending.map((r) => r.contestId))]
  const contests = await findContestsByIds(n.db, contestIds)
  let notices = 0
  let queued = 0
  // Several reschedules of one contest are announced once, with the time it has now.
  for (const contest of contests) {
    if (!contest.isActive || contest.startTime <= now) continue
    const result = await announce(n, contest, now, options.pageSize ?? DEFAULT_PAGE_SIZE)
    notices += result.created
    queued += result.queued
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
  }
}
