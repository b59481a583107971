// The Google account linked to a user (Google's `sub`), for Sign in with Google: auth decides which
// account a Google identity signs in to, these read and write the column. The row keeps it through
// a soft delete, as it keeps the email, and a purge frees it with the row.
import { and, eq, isNull, or } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { isUniqueViolation } from '../db/unique-violation.ts'
import { users, type UserRow } from '../db/schema.ts'
import { liveUserById } from './live.ts'

/** The account linked to `sub`, soft-deleted or not (a subject is unique across both). */
export function findUserByGoogleSubject(db: Db, sub: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.googleSubject, sub)).get()
}

/**
 * Links `sub` to the live account `id` unless it already holds another one; to batch (with the
 * creation of an account, for one made by Google sign-in). RETURNING tells whether it holds `sub`.
 */
export function linkGoogleSubjectStatement(db: Db, id: string, sub: string, now: number) {
  return db
    .update(users)
    .set({ googleSubject: sub, updatedAt: now })
    .where(and(liveUserById(id), or(isNull(users.googleSubject), eq(users.googleSubject, sub))))
    .returning({ id: users.id })
}

/**
 * Links `sub` to the live account `id`; false when the account holds another subject (linked
 * meanwhile) or is gone. Decided on the row as written, so two Google accounts racing to link the
 * same account cannot both win.
 */
export async function linkGoogleSubject(db: Db, id: string, sub: string, now: number) {
  const rows = await linkGoogleSubjectStatement(db, id, sub, now)
  return rows.length > 0
}

/** Whether a write failed on the unique subject index: another account holds it (a race). */
export const isDuplicateGoogleSubjectError = (error: unknown) =>
  isUniqueViolation(error, 'users.google_subject')
