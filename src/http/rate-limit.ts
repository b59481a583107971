// Rate limits: the rule table (the spec's endpoint table, the general limits, strict limits on
// sign-in and codes) and the middleware that applies it. Anonymous general windows live in KV
// (approximate, cheap); per-user and strict windows in the RateLimiter Durable Object (exact).
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { settings, type Env } from '../env.ts'
import { ApiError, tooManyRequests } from '../lib/errors.ts'
import { HOUR_MS, MINUTE_MS } from '../lib/time.ts'
import { hitKvWindow } from '../rate-limit/kv-window.ts'
import type { WindowResult } from '../rate-limit/window.ts'
import { authenticate } from './auth.ts'

type Subject = 'ip' | 'user' | 'email'

export interface RateRule {
  /** Part of every counter key; two routes sharing a rule share its counters. */
  name: string
  windowMs: number
  /** One counter per subject, each with its own limit; all must allow the request. */
  limits: Partial<Record<Subject, number>>
}

const rule = (name: string, windowMs: number, limits: RateRule['limits']): RateRule => ({
  name,
  windowMs,
  limits,
})

/** A token bucket per IP: `capacity` requests at once, then one more every `refillMs`. */
export interface BucketRule {
  name: string
  capacity: number
  refillMs: number
}

const bucket = (name: string, capacity: number, refillMs: number): BucketRule => ({
  name,
  capacity,
  refillMs,
})

// General limits (spec): anonymous per IP, authenticated per user; admins are not limited.
const GENERAL_WINDOW_MS = 15 * MINUTE_MS
const ANONYMOUS_LIMIT = 100
const AUTHENTICATED_LIMIT = 1000

export const RULES = {
  anonymous: rule('anonymous', GENERAL_WINDOW_MS, { ip: ANONYMOUS_LIMIT }),
  authenticated: rule('authenticated', GENERAL_WINDOW_MS, { user: AUTHENTICATED_LIMIT }),
  // The spec's endpoint table.
  getProfile: rule('get-profile', 15 * MINUTE_MS, { user: 100 }),
  updateProfile: rule('update-profile', 15 * MINUTE_MS, { ip: 20, user: 20 }),
  getUser: rule('get-user', 15 * MINUTE_MS, { user: 100 }),
  listUsers: rule('list-users', 15 * MINUTE_MS, { ip: 1000 }),
  deactivate: rule('deactivate', HOUR_MS, { user: 5 }),
  activate: rule('activate', HOUR_MS, { user: 10 }),
  // Strict limits where a password or a 6-digit code could be guessed, per email and per IP.
  // 10 code checks an hour leave a guesser a 1-in-100,000 chance per hour per account.
  signin: rule('signin', 15 * MINUTE_MS, { email: 5, ip: 30 }),
  codeCheck: rule('code-check', HOUR_MS, { email: 10, ip: 30 }),
  codeSend: rule('code-send', HOUR_MS, { email: 5, ip: 20 }),
  signup: rule('signup', HOUR_MS, { ip: 10 }),
  refresh: rule('refresh', 15 * MINUTE_MS, { ip: 60 }),
  changePassword: rule('change-password', 15 * MINUTE_MS, { user: 5 }),
  pushSubscriptions: rule('push-subscriptions', 15 * MINUTE_MS, { user: 30 }),
  // Second API area. The contact form sends mail to the operators: burst 3, then one per 20 s.
  contact: bucket('contact', 3, 20_000),
  deleteAccount: rule('delete-account', HOUR_MS, { user: 5 }),
  submitResource: rule('submit-resource', HOUR_MS, { user: 20 }),
  // Notifications: these reach providers (and people's inboxes) at once, admins included.
  notificationRetry: rule('notification-retry', 15 * MINUTE_MS, { user: 30 }),
  notificationCleanup: rule('notification-cleanup', HOUR_MS, { user: 10 }),
  notificationTestSend: rule('notification-test-send', 15 * MINUTE_MS, { user: 30 }),
  adminEmail: rule('admin-email', 15 * MINUTE_MS, { user: 60 }),
} satisfies Record<string, RateRule | BucketRule>

// Liveness checks stay answerable under any load.
const EXEMPT_PATHS = new Set(['/contests/health'])

interface LimiterStub {
  hit(limit: number, windowMs: number): Promise<WindowResult>
  take(capacity: number, refillMs: number): Promise<WindowResult>
}

function disabled(env: Env): boolean {
  return settings(env).RATE_LIMIT_DISABLED
}

/**
 * The client's address as a counter key. An IPv6 client usually holds a whole /64, so its
 * addresses count as one; a missing header (not behind Cloudflare) shares one bucket.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown'
  // IPv4, also when written IPv4-mapped (::ffff:192.0.2.1).
  if (ip.includes('.')) return ip.slice(ip.lastIndexOf(':') + 1)
  if (!ip.includes(':')) return ip
  const [head, tail = ''] = ip.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

const clientIp = (c: Context<AppEnv>) => clientKey(c.req.header('CF-Connecting-IP'))

async function bodyEmail(c: Context<AppEnv>): Promise<string | undefined> {
  // Hono caches the body, so the validator that runs later reads the same text again.
  const body = await c.req.json<Record<string, unknown>>().catch(() => undefined)
  const email = body && typeof body === 'object' ? body.email : undefined
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined
}

function limiterFor(env: Env, key: string): LimiterStub {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)) as unknown as LimiterStub
}

function hitObject(env: Env, key: string, limit: number, windowMs: number) {
  return limiterFor(env, key).hit(limit, windowMs)
}

/** The result the headers report: the one closest to refusing. */
function tightest(results: WindowResult[]): WindowResult {
  return results.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.reset > a.reset) ? b : a,
  )
}

function setHeaders(headers: Headers, result: WindowResult) {
  headers.set('X-RateLimit-Limit', String(result.limit))
  headers.set('X-RateLimit-Remaining', String(result.remaining))
  headers.set('X-RateLimit-Reset', String(result.reset))
}

/** Adds the headers to the response unless an inner limiter already reported a tighter one. */
function report(c: Context<AppEnv>, result: WindowResult) {
  const current = c.res.headers.get('X-RateLimit-Remaining')
  if (current !== null && Number(current) <= result.remaining) return
  try {
    setHeaders(c.res.headers, result)
  } catch {
    // Headers of a response taken from elsewhere can be immutable; copy it once.
    c.res = new Response(c.res.body, c.res)
    setHeaders(c.res.headers, result)
  }
}

function refuse(c: Context<AppEnv>, results: WindowResult[]): Response {
  // The client must wait for every refusing window, so the latest reset is the one to report.
  const refused = results.filter((r) => !r.allowed).reduce((a, b) => (b.reset > a.reset ? b : a))
  // Through c.json, so the CORS and request-id headers set earlier are kept: a browser must be
  // able to read the 429 and its Retry-After.
  c.header('X-RateLimit-Limit', String(refused.limit))
  c.header('X-RateLimit-Remaining', String(refused.remaining))
  c.header('X-RateLimit-Reset', String(refused.reset))
  // A token bucket lets the next request through before it is full again (its reset).
  const retryAt = refused.retryAt ?? refused.reset
  c.header('Retry-After', String(Math.max(1, Math.ceil(retryAt - Date.now() / 1000))))
  return c.json(tooManyRequests().toBody(), 429)
}

async function enforce(
  c: Context<AppEnv>,
  results: WindowResult[],
  next: () => Promise<void>,
): Promise<Response | void> {
  if (results.length === 0) return next()
  if (results.some((r) => !r.allowed)) return refuse(c, results)
  await next()
  report(c, tightest(results))
}

/** Applies `rule` to a route; put it after requireUser when the rule counts per user. */
export function rateLimit(rule: RateRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (disabled(c.env)) return next()
    const keys: [string, number][] = []
    const { ip, user, email } = rule.limits
    if (ip !== undefined) keys.push([`${rule.name}:ip:${clientIp(c)}`, ip])
    if (user !== undefined) {
      const claims = c.get('auth') ?? (await authenticate(c))
      if (claims) keys.push([`${rule.name}:user:${claims.sub}`, user])
    }
    if (email !== undefined) {
      const address = await bodyEmail(c)
      if (address) keys.push([`${rule.name}:email:${address}`, email])
    }
    let results: WindowResult[]
    try {
      results = await Promise.all(
        keys.map(([key, limit]) => hitObject(c.env, key, limit, rule.windowMs)),
      )
    } catch (error) {
      // Strict limits guard passwords and codes: without the counter, refuse rather than allow.
      console.error(
        JSON.stringify({ level: 'error', event: 'rate-limiter-failed', error: String(error) }),
      )
      throw new ApiError(503, 'Service temporarily unavailable')
    }
    return enforce(c, results, next)
  }
}

/** Applies a token bucket per client address (the Durable Object keeps it exact). */
export function tokenBucket(rule: BucketRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (disabled(c.env)) return next()
    let result: WindowResult
    try {
      const key = `${rule.name}:ip:${clientIp(c)}`
      result = await limiterFor(c.env, key).take(rule.capacity, rule.refillMs)
    } catch (error) {
      // Buckets guard endpoints that cost something per request (mail): refuse without one.
      console.error(
        JSON.stringify({ level: 'error', event: 'rate-limiter-failed', error: String(error) }),
      )
      throw new ApiError(503, 'Service temporarily unavailable')
    }
    return enforce(c, [result], next)
  }
}

/** The KV counter name of an anonymous caller's general window. */
export const anonymousKey = (ip: string | undefined) => `${RULES.anonymous.name}:${clientKey(ip)}`

function defer(c: Context<AppEnv>, work: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(work)
  } catch {
    // No execution context (a runtime other than Workers): the work simply runs on its own.
  }
}

/** Public catalogue reads; admin writes under /contests take the authenticated path. */
const isCatalogueRead = (method: string, path: string) =>
  (method === 'GET' || method === 'HEAD') && (path === '/contests' || path.startsWith('/contests/'))

/**
 * The general limits for every request. Public catalogue reads are answered from a cache and
 * must stay cheap, so they only ever touch the KV window of the caller's address.
 */
export const generalRateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (disabled(c.env) || EXEMPT_PATHS.has(c.req.path)) return next()
  const claims = isCatalogueRead(c.req.method, c.req.path) ? undefined : await authenticate(c)
  if (claims?.role === 'admin') return next()
  if (claims) {
    const key = `${RULES.authenticated.name}:user:${claims.sub}`
    let result: WindowResult
    try {
      result = await hitObject(c.env, key, AUTHENTICATED_LIMIT, GENERAL_WINDOW_MS)
    } catch (error) {
      // The general limit protects capacity, not secrets: an outage of it lets requests through.
      console.error(
        JSON.stringify({ level: 'error', event: 'rate-limiter-failed', error: String(error) }),
      )
      return next()
    }
    return enforce(c, [result], next)
  }
  const result = await hitKvWindow(
    c.env.KV,
    anonymousKey(c.req.header('CF-Connecting-IP')),
    ANONYMOUS_LIMIT,
    GENERAL_WINDOW_MS,
    Date.now(),
    (work) => defer(c, work),
  )
  return enforce(c, [result], next)
}
