// What a checked unsubscribe link does: turn optional email off for the account it names.
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { liveUserById } from './live.ts'
import { findUser } from './queries.ts'

/** Whether the account the link names still exists (a GET changes nothing). */
export async function unsubscribeTarget(db: Db, userId: string): Promise<boolean> {
  return (await findUser(db, userId)) !== undefined
}

/** Sets notify_email off; unsubscribing twice is the same as once. False when the account is gone. */
export async function unsubscribeEmail(db: Db, userId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ notifyEmail: false, updatedAt: now })
    .where(liveUserById(userId))
    .returning({ id: users.id })
  return rows.length > 0
}
