// Notification rows rendered as API objects: ISO times, per-channel delivery status, optional
// fields left out.
import type { notificationDeliveries, notifications } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import type { AttemptRow } from './attempt-log.ts'

export type NotificationRow = typeof notifications.$inferSelect
export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect

export function toApiAttempt(row: AttemptRow) {
  return { at: toIso(row.at), outcome: row.outcome, message: row.message }
}

export function toApiNotificationDelivery(
  row: NotificationDeliveryRow,
  attempts: readonly AttemptRow[] = [],
) {
  return {
    channel: row.channel,
    status: row.status,
    ...(row.sentAt != null && { sentAt: toIso(row.sentAt) }),
    ...(row.failedAt != null && { failedAt: toIso(row.failedAt) }),
    ...(row.error != null && { error: row.error }),
    retryCount: row.retryCount,
    attempts: attempts.map(toApiAttempt),
  }
}

export function toApiNotification(
  row: NotificationRow,
  deliveries: readonly NotificationDeliveryRow[],
  attempts: ReadonlyMap<string, readonly AttemptRow[]> = new Map(),
) {
  const order = (channel: string) => row.channels.indexOf(channel)
  return {
    id: row.id,
    userId: row.userId,
    ...(row.contestId != null && { contestId: row.contestId }),
    type: row.type,
    title: row.title,
    message: row.message,
    ...(row.payload != null && { payload: row.payload }),
    channels: row.channels,
    status: row.status,
    deliveryStatus: [...deliveries]
      .sort((a, b) => order(a.channel) - order(b.channel))
      .map((d) => toApiNotificationDelivery(d, attempts.get(d.id))),
    ...(row.scheduledAt != null && { scheduledAt: toIso(row.scheduledAt) }),
    ...(row.sentAt != null && { sentAt: toIso(row.sentAt) }),
    ...(row.failedAt != null && { failedAt: toIso(row.failedAt) }),
    ...(row.readAt != null && { readAt: toIso(row.readAt) }),
    isRead: row.isRead,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

export type ApiNotification = ReturnType<typeof toApiNotification>
