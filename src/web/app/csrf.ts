// CSRF defence of the web app: every state-changing request under /app must come from our own
// pages (Origin and Sec-Fetch-Site) and carry a synchronizer token, in the form's hidden field or
// the X-CSRF-Token header. Signed in, the token is an HMAC of the session id; before sign-in, an
// HMAC of the browser's own __Host-csrf secret (so a login form cannot be posted from elsewhere).
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { settings } from '../../env.ts'
import { fromBase64Url, randomBytes, toBase64Url } from '../../lib/crypto.ts'
import { linkSigner } from '../../users/signed-link.ts'
import { browserSecret, knownBrowserSecret } from './cookies.ts'
import { CSRF_FIELD, formFields } from './form-body.ts'
import { csrfRefused } from './page-answers.tsx'
import { webSession } from './web-session.ts'

export { CSRF_FIELD }
/** The header a page's script sends the token in (read it from `<meta name="csrf-token">`). */
export const CSRF_HEADER = 'X-CSRF-Token'

// Keys derived from JWT_SECRET under their own label (never the token-signing key itself), and
// a purpose for each binding, so a browser's token is never a session's and neither is a link's.
const sessionTokens = linkSigner('web-csrf-token', 'session')
const browserTokens = linkSigner('web-csrf-token', 'browser')

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

const HMAC_BYTES = 32
const MASKED = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((HMAC_BYTES * 2 * 4) / 3)}}$`)

/**
 * The HMAC under a fresh random pad (pad, then HMAC xor pad), so the token's bytes differ in every
 * answer: a page compressed with reflected text beside a constant secret (BREACH) leaks nothing.
 */
function mask(signature: string): string {
  const raw = fromBase64Url(signature)
  const pad = randomBytes(HMAC_BYTES)
  const out = new Uint8Array(HMAC_BYTES * 2)
  out.set(pad)
  for (let i = 0; i < HMAC_BYTES; i++) out[HMAC_BYTES + i] = raw[i] ^ pad[i]
  return toBase64Url(out)
}

/** The HMAC a masked token carries, or undefined for anything that is not one. */
function unmask(token: string): string | undefined {
  if (!MASKED.test(token)) return undefined
  const bytes = fromBase64Url(token)
  const raw = new Uint8Array(HMAC_BYTES)
  for (let i = 0; i < HMAC_BYTES; i++) raw[i] = bytes[HMAC_BYTES + i] ^ bytes[i]
  return toBase64Url(raw)
}

/**
 * The token for the forms of this answer: the session's when signed in, else the browser's (whose
 * secret is set on this answer when the browser has none yet). Masked anew for every answer.
 */
export async function csrfToken(c: Context<AppEnv>): Promise<string> {
  const session = await webSession(c)
  if (session) return mask(await sessionTokens.sign(c.env, [session.id]))
  return mask(await browserTokens.sign(c.env, [browserSecret(c)]))
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * Whether the browser says the request came from one of our pages. Sec-Fetch-Site, when sent,
 * must be same-origin; Origin, when sent, this request's own or APP_URL's (behind a proxy that
 * rewrites the host). Under a no-referrer policy a browser sends `Origin: null` even for its own
 * forms, so null counts only beside Sec-Fetch-Site: same-origin. Neither header (an old browser,
 * curl): the token alone decides.
 */
export function fromOurPages(c: Context<AppEnv>): boolean {
  const site = c.req.header('Sec-Fetch-Site')
  if (site !== undefined && site !== 'same-origin') return false
  const origin = c.req.header('Origin')
  if (origin === undefined) return true
  if (origin === 'null') return site === 'same-origin'
  return [originOf(c.req.url), originOf(settings(c.env).APP_URL)].includes(origin)
}

async function submittedToken(c: Context<AppEnv>): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER)
  if (header) return header
  const field = (await formFields(c))?.[CSRF_FIELD]
  return typeof field === 'string' && field ? field : undefined
}

/** A token is good for the live session of this browser, or for its browser secret. */
async function tokenHolds(c: Context<AppEnv>, masked: string): Promise<boolean> {
  const token = unmask(masked)
  if (!token) return false
  const session = await webSession(c)
  if (session && (await sessionTokens.verify(c.env, [session.id], token))) return true
  const browser = knownBrowserSecret(c)
  return browser !== undefined && browserTokens.verify(c.env, [browser], token)
}

/** Whether a state-changing request passes the checks; safe methods always do. */
export async function csrfPasses(c: Context<AppEnv>): Promise<boolean> {
  if (SAFE_METHODS.has(c.req.method)) return true
  if (!fromOurPages(c)) return false
  const token = await submittedToken(c)
  return token !== undefined && (await tokenHolds(c, token))
}

/**
 * The CSRF check of every POST (and PUT, PATCH, DELETE) under /app: a request that fails it gets
 * the 403 page and reaches nothing else, not even the rate limits. Put it first on a route.
 */
export const requireCsrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await csrfPasses(c))) return csrfRefused(c)
  await next()
}
