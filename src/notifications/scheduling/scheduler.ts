// The notification scheduler run every 30 minutes: reschedule notices, reminders, digests, and a
// sweep for deliveries a crashed run left unqueued. It only inserts rows and enqueues; the queue
// consumer sends.
import { acquireLock, releaseLock } from '../../db/job-lock.ts'
import type { Env } from '../../env.ts'
import { newId } from '../../lib/ids.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import { notifier } from '../context.ts'
import { requeueStrandedEdits } from '../delivery/edits.ts'
import { requeueStranded } from '../delivery/enqueue.ts'
import { runDigests } from './digests.ts'
import type { PagingOptions } from './paging.ts'
import { runReminders } from './reminders.ts'
import { announceCancellations } from './cancellations.ts'
import { announceReschedules } from './reschedules.ts'

const LOCK = 'notification-scheduler'
// Longer than a run can take (a Cron Trigger gets 15 minutes), shorter than the period, so a
// crashed run's lease is gone by the next one.
const LEASE_MS = 20 * MINUTE_MS

export async function runNotificationScheduler(
  env: Env,
  now: number,
  options: PagingOptions = {},
): Promise<Record<string, number>> {
  const n = notifier(env)
  const holder = newId()
  // Leases follow the wall clock, whatever time the run is for.
  if (!(await acquireLock(n.db, LOCK, holder, Date.now(), LEASE_MS))) {
    return { skippedOverlapping: 1 }
  }
  try {
    // Reschedule notices first: for a user already due, the notice is the reminder itself.
    const reschedules = await announceReschedules(n, now, options)
    const cancellations = await announceCancellations(n, now, options)
    const reminders = await runReminders(n, now, options)
    const digests = await runDigests(n, now, options)
    const requeued = await requeueStranded(n.queue, n.d1, now)
    const editsRequeued = await requeueStrandedEdits(n, now)
    return { ...reschedules, ...cancellations, ...reminders, ...digests, requeued, editsRequeued }
  } finally {
    await releaseLock(n.db, LOCK, holder)
  }
}
