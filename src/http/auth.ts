// Bearer-token guards of both API areas: requireUser, requireSession and requireAdmin. An admin
// claim is honoured only while its session is live and its user still an admin.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, SessionChecks } from '../app-env.ts'
import { forbidden, unauthorized } from '../lib/errors.ts'
import { jwtConfig } from '../lib/jwt-config.ts'
import { verifyAccessToken, type AccessClaims } from '../lib/jwt.ts'

// One verification per request, shared by the rate limiter (which runs first) and the guards.
const verified = new WeakMap<Request, Promise<AccessClaims | undefined>>()
// One admin-session read per request, however many guards ask.
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

function adminClaimHolds(c: Context<AppEnv>, claims: AccessClaims): Promise<boolean> {
  let holds = confirmed.get(c.req.raw)
  if (!holds) {
    holds = sessionChecks(c).isAdminLive(c.env, claims, Date.now())
    confirmed.set(c.req.raw, holds)
  }
  return holds
}

/**
 * The claims the request may act on, or undefined. A user's claims are taken as signed (no
 * database read, the token lives 15 minutes); an admin's only while the session is live and the
 * user still an admin, so a revocation or demotion removes admin power at once, not 15 minutes
 * later. An admin token that fails is refused outright rather than treated as a user's: its
 * holder refreshes and gets the role the user now has.
 */
export async function authorize(c: Context<AppEnv>): Promise<AccessClaims | undefined> {
  const claims = await authenticate(c)
  if (!claims || claims.role !== 'admin') return claims
  return (await adminClaimHolds(c, claims)) ? claims : undefined
}

/** Needs a valid access token; the claims are then at `c.get('auth')`. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authorize(c)
  if (!claims) throw unauthorized()
  c.set('auth', claims)
  await next()
}

/**
 * Needs a live session whatever the role (the second API area): signing out, a password
 * reset, an account deletion or an admin's revocation take effect at once.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authorize(c)
  if (!claims) throw unauthorized()
  // An admin's session was just read by authorize; only a user's is still unchecked.
  const live =
    claims.role === 'admin' || (await sessionChecks(c).isLive(c.env, claims.sid, Date.now()))
  if (!live) {
    throw unauthorized()
  }
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
    if (!(await adminClaimHolds(c, claims))) throw unauthorized()
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
