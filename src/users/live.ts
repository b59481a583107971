// What a live account is, defined once: users' own queries and the conditions other features put
// into their statements (auth's sessions, the admin area) all say it through these, so the rule
// cannot drift between callers.
import { and, eq, exists, isNotNull, isNull, type SQL, type SQLWrapper } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/sqlite-core'
import { users } from '../db/schema.ts'

// Builds the subqueries of the fragments below without a db: they only ever run inside the
// caller's statement, so the callers need not hand a db in to get a condition back.
const qb = new QueryBuilder()

/**
 * Not soft-deleted. A soft-deleted account counts as gone everywhere except the recovery and purge
 * of the account feature and admin hard deletion.
 */
export const notDeleted = (): SQL => isNull(users.deletedAt)

/** The users row with that id (a value, or a column of the caller's statement), while live. */
export const liveUserById = (id: string | SQLWrapper): SQL =>
  and(eq(users.id, id), notDeleted()) as SQL

/**
 * For another feature's statement: the user `userId` names (usually a column of the caller's own
 * table, such as sessions.user_id) exists and is live. One EXISTS, so the caller's query stays
 * one statement.
 */
export const liveUser = (userId: string | SQLWrapper): SQL =>
  exists(qb.select({ id: users.id }).from(users).where(liveUserById(userId)))

/**
 * As liveUser, and the address is proven: whoever signed up with someone else's address holds
 * nothing the owner would inherit, nor hears from the service at it.
 */
export const liveProvenUser = (userId: string | SQLWrapper): SQL =>
  exists(
    qb
      .select({ id: users.id })
      .from(users)
      .where(and(liveUserById(userId), isNotNull(users.emailVerifiedAt))),
  )

/** As liveUser, and the user holds the admin role now. */
export const liveAdmin = (userId: string | SQLWrapper): SQL =>
  exists(
    qb
      .select({ id: users.id })
      .from(users)
      .where(and(liveUserById(userId), eq(users.role, 'admin'))),
  )

/** notDeleted for raw set-based SQL that names the users row `u` (users/recipients.ts). */
export const LIVE_USER_SQL = 'u.deleted_at IS NULL'
