// Bearer-token guards of both API areas: requireUser, requireSession and requireAdmin. A token is
// honoured only while its session is live, and an admin claim only while its user is an admin.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, SessionChecks } from '../app-env.ts'
import { forbidden, notFound, unauthorized } from '../lib/errors.ts'
import { jwtConfig } from '../lib/jwt-config.ts'
import { verifyAccessToken, type AccessClaims } from '../lib/jwt.ts'

// One verification per request, shared by the rate limiter (which runs first) and the guards.
const verified = new WeakMap<Request, Promise<AccessClaims | undefined>>()
// One session read per request, however many guards ask.
const confirmed = new WeakMap<Request, Promise<boolean>>()

function sessionChecks(c: Context<AppEnv>): SessionChecks {
  const checks = c.get('sessionChecks')
  // A guard that cannot ask must refuse: an app built without the checks is a wiring mistake.
  if (!checks) throw new Error('sessionChecks is not set: createApp installs it')
  return checks
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i)
  return match?.[1]
}

/**
 * The claims of the request's access token, or undefined when it has none or a bad one. Signature
 * and expiry only: an admin claim must still pass `authorize` before it grants anything.
 */
export function authenticate(c: Context<AppEnv>): Promise<AccessClaims | undefined> {
  let claims = verified.get(c.req.raw)
  if (!claims) {
    const token = bearerToken(c.req.header('Authorization'))
    claims = token
      ? verifyAccessToken(jwtConfig(c.env), token, Date.now())
      : Promise.resolve(undefined)
    verified.set(c.req.raw, claims)
  }
  return claims
}

/** Whether the claims' session is live (and, for an admin claim, its user still an admin). */
function claimHolds(c: Context<AppEnv>, claims: AccessClaims): Promise<boolean> {
  let holds = confirmed.get(c.req.raw)
  if (!holds) {
    const checks = sessionChecks(c)
    const check = claims.role === 'admin' ? checks.isAdminLive : checks.isLive
    holds = check(c.env, claims, Date.now())
    confirmed.set(c.req.raw, holds)
  }
  return holds
}

/**
 * The claims the request may count as, for the general rate limit, or undefined. A user's claims
 * are taken as signed here (no database read: a non-admin's 403 on an admin route must cost none);
 * an admin's only while the session is live and the user still an admin, so a revoked or demoted
 * admin's token counts as an anonymous caller. Acting on an account takes `requireUser`.
 */
export async function authorize(c: Context<AppEnv>): Promise<AccessClaims | undefined> {
  const claims = await authenticate(c)
  if (!claims || claims.role !== 'admin') return claims
  return (await claimHolds(c, claims)) ? claims : undefined
}

/** The claims of a token whose session is live, or a 401. */
async function liveClaims(c: Context<AppEnv>): Promise<AccessClaims> {
  const claims = await authenticate(c)
  if (!claims) throw unauthorized()
  if (await claimHolds(c, claims)) return claims
  // A user deleted for good took the sessions along: the spec answers 404 for a user that no
  // longer exists. The extra read is made only for a refused token.
  if (claims.role === 'user' && (await sessionChecks(c).isUserGone(c.env, claims.sub))) {
    throw notFound('User not found')
  }
  throw unauthorized()
}

/**
 * Needs a valid access token of a live session, whatever the role (the contest API); the claims
 * are then at `c.get('auth')`. Signing out, signing out everywhere, a password reset, a bare proof
 * of the address, an account deletion or an admin's revocation take effect at once, not when the
 * token's 15 minutes are over: one read of the session row by its primary key per request.
 */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('auth', await liveClaims(c))
  await next()
}

/** As requireUser, for the second API area, where any ended session is a 401. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authenticate(c)
  if (!claims || !(await claimHolds(c, claims))) throw unauthorized()
  c.set('auth', claims)
  await next()
}

/**
 * The guard of every admin route, in both areas. The role claim is checked first, so a non-admin
 * gets 403 with no database read (spec); then the admin's session and role are confirmed.
 * `message` is the 403 wording of endpoints that have their own (the custom email's).
 */
export function adminGuard(message?: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const claims = await authenticate(c)
    if (!claims) throw unauthorized()
    if (claims.role !== 'admin') throw forbidden(message)
    if (!(await claimHolds(c, claims))) throw unauthorized()
    c.set('auth', claims)
    await next()
  }
}

export const requireAdmin = adminGuard()

/** The caller's claims inside a route guarded by requireUser, requireSession or requireAdmin. */
export function currentUser(c: Context<AppEnv>): AccessClaims {
  const claims = c.get('auth')
  if (!claims) throw unauthorized()
  return claims
}
