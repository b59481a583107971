// The users side of an account's soft delete, recovery and purge: the account feature decides
// when (the recovery period is its rule), these read and write the row.
import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users, type UserRow } from '../db/schema.ts'
import { liveUserById } from './live.ts'

/** Marks a live account deleted; RETURNING tells whether there was one. To batch. */
export function markDeletedStatement(db: Db, id: string, now: number) {
  return db
    .update(users)
    .set({ deletedAt: now, updatedAt: now })
    .where(liveUserById(id))
    .returning({
      id: users.id,
      email: users.email,
      name: users.name,
      emailVerifiedAt: users.emailVerifiedAt,
    })
}

/**
 * Undoes a soft delete, only while the row is still deleted at `deletedAt` (as read before), so a
 * delete in between is not undone. To batch.
 */
export function restoreStatement(db: Db, id: string, deletedAt: number, now: number) {
  return db
    .update(users)
    .set({ deletedAt: null, updatedAt: now })
    .where(and(eq(users.id, id), eq(users.deletedAt, deletedAt)))
}

/** The account with that email, soft-deleted or not (emails are unique across both). */
export function findAnyUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.email, email)).get()
}

/** Ids of accounts soft-deleted at or before `cutoff`, longest deleted first. */
/**
 * Accounts whose address was never proven, made before `cutoff`, oldest first. Admins are left
 * alone: only accounts made before admins needed a proven address can be unproven admins.
 */
export async function unprovenUserIdsBefore(db: Db, cutoff: number, limit: number) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNull(users.emailVerifiedAt), lte(users.createdAt, cutoff), eq(users.role, 'user')))
    .orderBy(asc(users.createdAt))
    .limit(limit)
  return rows.map((row) => row.id)
}

export async function deletedUserIdsBefore(db: Db, cutoff: number, limit: number) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.deletedAt), lte(users.deletedAt, cutoff)))
    .orderBy(asc(users.deletedAt))
    .limit(limit)
  return rows.map((row) => row.id)
}
