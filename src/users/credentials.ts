// Writes of the users columns that auth manages: the password hash and the proof of the address.
// Returned as statements, so auth batches them with its own session and code writes.
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users, type UserRow } from '../db/schema.ts'
import type { Role } from '../lib/jwt.ts'

/**
 * The hash of an account whose password was taken away: a proof of the mailbox without the session
 * that signed up (someone else may have chosen that password). It matches no password; the owner
 * chooses one with a reset, or on the web app right after the proof.
 */
export const UNSET_PASSWORD_HASH = 'unset'

export const isPasswordUnset = (user: Pick<UserRow, 'passwordHash'>) =>
  user.passwordHash === UNSET_PASSWORD_HASH

/** A new password the user chose (changed or reset). */
export function setPasswordHashStatement(db: Db, id: string, passwordHash: string, now: number) {
  return db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id))
}

/**
 * The same password hashed again with today's parameters, at a sign-in. Not a change of the
 * account, so updated_at stays.
 */
export function rehashPasswordStatement(db: Db, id: string, passwordHash: string) {
  return db.update(users).set({ passwordHash }).where(eq(users.id, id))
}

/**
 * Marks the address proven (by a mailed code); a repeated proof keeps the first time. With
 * `bootstrapAdmin`, the proof also grants the admin role, decided on the row as written: only
 * while the owner has not yet been settled (the address unproven, or proven without the sign-up's
 * session and no password chosen since), so a concurrent proof cannot grant it twice and an
 * admin's later demotion of the account sticks. Run it before a statement that sets a password.
 */
export function markEmailProvenStatement(db: Db, id: string, bootstrapAdmin: boolean, now: number) {
  const unsettled = sql`(${users.emailVerifiedAt} is null or ${users.passwordHash} = ${UNSET_PASSWORD_HASH})`
  const bootstrap = bootstrapAdmin && {
    role: sql<Role>`case when ${unsettled} then 'admin' else ${users.role} end`,
  }
  return db
    .update(users)
    .set({
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`,
      updatedAt: now,
      ...bootstrap,
    })
    .where(eq(users.id, id))
}
