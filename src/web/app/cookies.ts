// The web app's two cookies: the session's secret and the browser's CSRF secret, both `__Host-`
// (Secure, Path=/, no Domain: no sibling host can set or read them), HttpOnly and SameSite=Lax.
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppEnv } from '../../app-env.ts'
import { randomToken } from '../../lib/crypto.ts'

/** `__Host-session`: the secret of a web session (auth/web-sessions.ts). */
export const SESSION_COOKIE = 'session'
/** `__Host-csrf`: a random value per browser that binds forms and Google flows made before sign-in. */
export const BROWSER_COOKIE = 'csrf'

// Lax, not Strict: the return from Google is a cross-site navigation that must carry them.
const ATTRIBUTES = { prefix: 'host', httpOnly: true, secure: true, sameSite: 'Lax' } as const

// Our secrets are 32 random bytes in base64url; anything else was not written by us.
const SECRET = /^[A-Za-z0-9_-]{43}$/

function read(c: Context<AppEnv>, name: string): string | undefined {
  const value = getCookie(c, name, 'host')
  return value && SECRET.test(value) ? value : undefined
}

export const sessionSecret = (c: Context<AppEnv>) => read(c, SESSION_COOKIE)

/** Keeps the session's cookie until the session itself ends (7 days after sign-in). */
export function setSessionCookie(
  c: Context<AppEnv>,
  secret: string,
  expiresAt: number,
  now: number,
) {
  const maxAge = Math.max(0, Math.floor((expiresAt - now) / 1000))
  setCookie(c, SESSION_COOKIE, secret, { ...ATTRIBUTES, maxAge })
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, ATTRIBUTES)
}

// A secret made during this request, so a second ask neither makes nor sets another.
const issued = new WeakMap<Request, string>()

/**
 * The browser's CSRF secret, made and set on this answer when the browser has none yet. It lives
 * as long as the browser session: a form older than that asks to be loaded again.
 */
export function browserSecret(c: Context<AppEnv>): string {
  const known = read(c, BROWSER_COOKIE) ?? issued.get(c.req.raw)
  if (known) return known
  const fresh = randomToken()
  setCookie(c, BROWSER_COOKIE, fresh, ATTRIBUTES)
  issued.set(c.req.raw, fresh)
  return fresh
}

export const knownBrowserSecret = (c: Context<AppEnv>) => read(c, BROWSER_COOKIE)
