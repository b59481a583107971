// The role column of an account. Who may change it and what else a change ends (the sessions of
// a demoted admin) is auth's rule (auth/roles.ts), which batches this write with its own.
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { Role } from '../lib/jwt.ts'
import { liveUserById } from './live.ts'

/** Sets the role of a live user; RETURNING gives the row, none when there is no such user. */
export function setRoleStatement(db: Db, id: string, role: Role, now: number) {
  return db.update(users).set({ role, updatedAt: now }).where(liveUserById(id)).returning()
}
