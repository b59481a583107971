// Web Push subscriptions of a user: register (an endpoint moves to its latest owner) and remove.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { pushSubscriptions, type PushSubscriptionRow } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'

export interface PushSubscriptionInput {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/**
 * Stores the subscription. An endpoint names one browser profile, so registering it again (after
 * a key rotation, or by another account signed in on that browser) updates the one row.
 */
export async function savePushSubscription(
  db: Db,
  userId: string,
  input: PushSubscriptionInput,
  now: number,
): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  const id = newId(now)
  const [row] = await db
    .insert(pushSubscriptions)
    .values({
      id,
      userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, updatedAt: now },
    })
    .returning()
  return { row, created: row.id === id }
}

/** Removes the caller's subscription at `endpoint`; false when the caller has none there. */
export async function removePushSubscription(db: Db, userId: string, endpoint: string) {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id })
  return rows.length > 0
}

export function listPushSubscriptions(db: Db, userId: string) {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
}
