// Who may see whose notifications: users their own, admins anyone's.
import { forbidden } from '../../lib/errors.ts'
import type { AccessClaims } from '../../lib/jwt.ts'

/**
 * The user whose notifications a request may touch: the one asked for when the caller is an
 * admin (all users when none is named), else the caller, and a 403 for another user's id.
 */
export function scopeFor(caller: AccessClaims, requested?: string): string | undefined {
  if (caller.role === 'admin') return requested
  if (requested && requested !== caller.sub) throw forbidden()
  return caller.sub
}

/** The owner filter of a lookup by id: none for admins, the caller otherwise. */
export const ownerFilter = (caller: AccessClaims) =>
  caller.role === 'admin' ? undefined : caller.sub
