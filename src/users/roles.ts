// Role changes, shared by PATCH /users/{id}/role and PATCH /admin/users/{id}/role.
import { and, eq, exists, isNull } from 'drizzle-orm'
import { sessions, users, type UserRow } from '../db/schema.ts'
import type { Db } from '../db/client.ts'
import { badRequest } from '../lib/errors.ts'
import type { Role } from '../lib/jwt.ts'

export const OWN_ROLE = 'You cannot change your own role'

/**
 * Sets a user's role; undefined when no live user has that id. Nobody changes their own role: an
 * admin could otherwise demote the last admin, and a demoted admin whose token still said admin
 * could promote themself back.
 *
 * A demotion ends every session of the user in the same batch as the role write, so the old
 * tokens stop working at once and no refresh can carry the admin role on. A promotion ends
 * nothing: the existing sessions keep the lesser role (which grants nothing new) and the new one
 * arrives at the next sign-in, as the spec says.
 */
export async function changeUserRole(
  db: Db,
  actorId: string,
  input: { id: string; role: Role },
  now: number,
): Promise<UserRow | undefined> {
  if (input.id === actorId) throw badRequest(OWN_ROLE)
  const live = and(eq(users.id, input.id), isNull(users.deletedAt))
  const write = db.update(users).set({ role: input.role, updatedAt: now }).where(live).returning()
  if (input.role === 'admin') return (await write)[0]
  // Runs before the role write, so it still sees whether this is a demotion (user was admin).
  const wasAdmin = exists(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(live, eq(users.role, 'admin'))),
  )
  const [, rows] = await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, input.id), isNull(sessions.revokedAt), wasAdmin)),
    write,
  ])
  return rows[0]
}
