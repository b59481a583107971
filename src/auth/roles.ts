// Role changes, shared by PATCH /users/{id}/role and PATCH /admin/users/{id}/role: here, not in
// users/, because a demotion also ends sessions, which auth owns.
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sessions, type UserRow } from '../db/schema.ts'
import { badRequest } from '../lib/errors.ts'
import type { Role } from '../lib/jwt.ts'
import { liveAdmin } from '../users/live.ts'
import { setRoleStatement } from '../users/roles.ts'

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
  const write = setRoleStatement(db, input.id, input.role, now)
  if (input.role === 'admin') return (await write)[0]
  const [, rows] = await db.batch([
    // Runs before the role write, so liveAdmin still sees whether this is a demotion.
    db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(eq(sessions.userId, input.id), isNull(sessions.revokedAt), liveAdmin(sessions.userId)),
      ),
    write,
  ])
  return rows[0]
}
