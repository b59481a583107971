// Manual retry of a failed notification: resends the failed channels at once, each retry
// counted, and answers with the spec's {success, notification | error} bodies.
import { and, eq } from 'drizzle-orm'
import { notificationDeliveries, notifications } from '../../db/schema.ts'
import { isId } from '../../lib/ids.ts'
import type { Notifier } from '../context.ts'
import { findNotification } from '../history.ts'
import { withResultWords } from '../kinds/result-words.ts'
import type { ApiNotification } from '../serialize.ts'
import { attemptDeliveries } from './deliver.ts'
import { manualRetryDecision } from './status.ts'

export type RetryAnswer =
  | { status: 200; body: { success: true; notification: ApiNotification } }
  | { status: 400 | 404 | 409 | 502; body: { success: false; error: string } }

const refuse = (status: 400 | 404 | 409 | 502, error: string): RetryAnswer => ({
  status,
  body: { success: false, error },
})

/** `ownerId` limits the retry to that user's notifications (callers who are not admins). */
export async function retryNotification(
  n: Notifier,
  id: string,
  ownerId: string | undefined,
  now: number,
): Promise<RetryAnswer> {
  if (!isId(id)) return refuse(404, 'Notification not found')
  const row = await n.db
    .select({ status: notifications.status })
    .from(notifications)
    .where(and(eq(notifications.id, id), ownerId ? eq(notifications.userId, ownerId) : undefined))
    .get()
  if (!row) return refuse(404, 'Notification not found')
  const deliveries = await n.db
    .select({
      id: notificationDeliveries.id,
      status: notificationDeliveries.status,
      retryCount: notificationDeliveries.retryCount,
    })
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.notificationId, id))
  const decision = manualRetryDecision(row.status, deliveries)
  if (!decision.ok) return refuse(decision.status, decision.error)

  const attempted = await attemptDeliveries(n, [decision.deliveryIds], { now, manual: true })
  const outcomes = decision.deliveryIds.map((id) => attempted.get(id)!)
  const notification = (await findNotification(n.db, id, undefined, withResultWords))!
  if (outcomes.some((o) => o.kind === 'sent') || notification.status === 'SENT') {
    return { status: 200, body: { success: true, notification } }
  }
  if (outcomes.every((o) => o.kind === 'busy')) {
    return refuse(409, 'Failed to retry notification: a delivery attempt is already in progress')
  }
  const reasons = outcomes.flatMap((o) => (o.kind === 'failed' ? [o.error] : []))
  return refuse(502, `Failed to retry notification: ${reasons.join('; ') || 'nothing was sent'}`)
}
