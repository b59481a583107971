// Session middleware of the second API area: the bearer access token of the contest API, whose
// session row must also still be live; the admin check then reads the role claim alone.
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { isSessionLive } from '../auth/sessions.ts'
import { createDb } from '../db/client.ts'
import { authenticate } from '../http/auth.ts'
import { forbidden, unauthorized } from '../lib/errors.ts'

/**
 * A valid access token of a session that is neither revoked nor expired. Signing out, a password
 * reset, an account deletion or an admin's revocation therefore take effect at once here, not
 * only when the 15-minute token runs out.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authenticate(c)
  if (!claims) throw unauthorized()
  if (!(await isSessionLive(createDb(c.env.DB), claims.sid, Date.now()))) throw unauthorized()
  c.set('auth', claims)
  await next()
}

/**
 * After requireSession: the role claim decides, with no database read (spec). The claim is the
 * role the session began with, so a role change reaches a user at their next sign-in.
 */
export const requireAdminRole: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = c.get('auth')
  if (!claims) throw unauthorized()
  if (claims.role !== 'admin') throw forbidden()
  await next()
}

/** Both, in order: the guard of every admin route of the second area. */
export const adminSession: MiddlewareHandler<AppEnv>[] = [requireSession, requireAdminRole]
