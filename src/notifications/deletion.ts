// The statements that remove a user's notifications, their deliveries and delivery log, for the account
// deletion batch (the foreign keys cascade too; listing them keeps the deletion explicit).
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { deliveryAttempts, notificationDeliveries, notifications } from '../db/schema.ts'

export function deleteUserNotificationStatements(db: Db, userId: string) {
  const owned = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
  return [
    db.delete(deliveryAttempts).where(inArray(deliveryAttempts.notificationId, owned)),
    db.delete(notificationDeliveries).where(inArray(notificationDeliveries.notificationId, owned)),
    db.delete(notifications).where(eq(notifications.userId, userId)),
  ] as const
}
