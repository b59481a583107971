// Guards of the second API area: the very guards of the contest API (src/http/auth.ts), so a live
// session and an admin role mean the same thing on every route.
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin } from '../http/auth.ts'

export { requireSession } from '../http/auth.ts'

/**
 * The guard of every admin route of the area: the role claim first (a non-admin gets 403 with no
 * database read, as the spec asks), then the admin's session and role are confirmed live.
 */
export const adminSession: MiddlewareHandler<AppEnv>[] = [requireAdmin]
