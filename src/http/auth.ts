// Bearer-token middleware: requireUser (any valid access token) and requireAdmin (role claim).
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { authConfig } from '../auth/config.ts'
import { forbidden, unauthorized } from '../lib/errors.ts'
import { verifyAccessToken, type AccessClaims } from '../lib/jwt.ts'

// One verification per request, shared by the rate limiter (which runs first) and the guards.
const verified = new WeakMap<Request, Promise<AccessClaims | undefined>>()

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i)
  return match?.[1]
}

/** The claims of the request's access token, or undefined when it has none or a bad one. */
export function authenticate(c: Context<AppEnv>): Promise<AccessClaims | undefined> {
  let claims = verified.get(c.req.raw)
  if (!claims) {
    const token = bearerToken(c.req.header('Authorization'))
    claims = token
      ? verifyAccessToken(authConfig(c.env).jwt, token, Date.now())
      : Promise.resolve(undefined)
    verified.set(c.req.raw, claims)
  }
  return claims
}

/** Needs a valid access token; the claims are then at `c.get('auth')`. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authenticate(c)
  if (!claims) throw unauthorized()
  c.set('auth', claims)
  await next()
}

/** The role claim decides, with no database read (spec); a role change lands at next sign-in. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const claims = await authenticate(c)
  if (!claims) throw unauthorized()
  if (claims.role !== 'admin') throw forbidden()
  c.set('auth', claims)
  await next()
}

/** The caller's claims inside a route guarded by requireUser or requireAdmin. */
export function currentUser(c: Context<AppEnv>): AccessClaims {
  const claims = c.get('auth')
  if (!claims) throw unauthorized()
  return claims
}
