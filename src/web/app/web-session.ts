// The signed-in person of a web app request: the session the cookie names, read once per request,
// and requireWebUser, the guard of every signed-in page.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, WebSessionUser } from '../../app-env.ts'
import type { SignedIn } from '../../auth/accounts.ts'
import {
  endWebSession,
  findWebSession,
  webSessionCookie,
  type WebSession,
} from '../../auth/web-sessions.ts'
import { createDb } from '../../db/client.ts'
import { clearSessionCookie, sessionSecret, setSessionCookie } from './cookies.ts'
import { signInPath } from './next-path.ts'

export type { WebSession }

const loaded = new WeakMap<Request, Promise<WebSession | undefined>>()
const guarded = new WeakMap<Request, WebSession>()

/** The live session of the request's cookie, or undefined (none, revoked, expired, deleted user). */
export function webSession(c: Context<AppEnv>): Promise<WebSession | undefined> {
  let session = loaded.get(c.req.raw)
  if (!session) {
    const secret = sessionSecret(c)
    session = secret
      ? findWebSession(createDb(c.env.DB), secret, Date.now())
      : Promise.resolve(undefined)
    loaded.set(c.req.raw, session)
  }
  return session
}

/**
 * The user the session cookie signs in, for the limits in http/ (the app hands it to them): only
 * under /app, where pages read the session anyway (the same read, once per request). Elsewhere
 * the cookie rides along unread: the cached home page and assets stay free of database reads.
 */
export const webSessionUser: WebSessionUser = async (c) => {
  const path = c.req.path
  if (path !== '/app' && !path.startsWith('/app/')) return undefined
  const session = await webSession(c)
  return session && { userId: session.user.id, role: session.role }
}

/** The path and query of this request, the page to come back to after signing in. */
function hereOf(c: Context<AppEnv>): string {
  const url = new URL(c.req.url)
  return c.req.method === 'GET' ? url.pathname + url.search : url.pathname
}

/**
 * Needs a signed-in browser: otherwise 303 to /app/signin?next=<this page>. A cookie that names
 * no live session (signed out elsewhere, a password reset, expired) is cleared on the way.
 */
export const requireWebUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await webSession(c)
  if (!session) {
    if (sessionSecret(c)) clearSessionCookie(c)
    return c.redirect(signInPath(hereOf(c)), 303)
  }
  guarded.set(c.req.raw, session)
  await next()
}

/** The session inside a route behind requireWebUser; anywhere else it is a wiring mistake. */
export function currentWebSession(c: Context<AppEnv>): WebSession {
  const session = guarded.get(c.req.raw)
  if (!session) throw new Error('currentWebSession is only for routes behind requireWebUser')
  return session
}

/**
 * Hands the browser the cookie of a sign-in opened with kind 'web'. A session this browser held
 * before ends: one browser, one session, and no old cookie left that still works.
 */
export async function beginWebSession(c: Context<AppEnv>, signedIn: SignedIn, now: number) {
  const previous = await webSession(c)
  if (previous) await endWebSession(createDb(c.env.DB), previous.id, now)
  const cookie = webSessionCookie(signedIn, now)
  setSessionCookie(c, cookie.secret, cookie.expiresAt, now)
}

/** Signs the browser out: its session ends (when it had one) and the cookie is cleared. */
export async function endBrowserSession(c: Context<AppEnv>, now: number) {
  const session = await webSession(c)
  if (session) await endWebSession(createDb(c.env.DB), session.id, now)
  clearSessionCookie(c)
}
