// Rate limits: the rule table (the spec's endpoint table, the general limits, strict limits on
// sign-in and codes) and the middleware that applies it. Anonymous general windows live in KV
// (approximate, cheap); per-user and strict windows in the RateLimiter Durable Object (exact).
// Wrong passwords and codes are counted by the failure budgets (failure-budget.ts); budgets of
// sends count only the requests that were not refused.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { HOUR_MS, MINUTE_MS } from '../lib/time.ts'
import { hitKvWindow, peekKvWindow } from '../rate-limit/kv-window.ts'
import type { LimiterStub, WindowResult } from '../ports/rate-limiter.ts'
import { authenticate, authorize } from './auth.ts'
import { defer } from './defer.ts'
import { clientAddress, clientIp, clientKey } from './client-address.ts'
import { limiterFor, limitsDisabled, limiterUnavailable, logLimiterFailure } from './limiter.ts'
import { enforce, refuse, report } from './rate-limit-response.ts'
import { isRefused, withReservedPlaces } from './reserved-places.ts'

export { clientKey }

type Subject = 'ip' | 'user' | 'email'

/**
 * What a rule counts. 'requests': every request it lets through. 'sends': messages the route
 * sends (mail, WhatsApp, push), a budget of what they cost: a request answered with a 4xx
 * (invalid input, nothing to send to, another limit's 429) sent nothing and gets its place back,
 * so a run of bad requests never spends the budget; the general limits bound those instead. A
 * 5xx keeps its place, since the provider may have been reached.
 */
export type Counts = 'requests' | 'sends'

export interface RateRule {
  /** Part of every counter key; two routes sharing a rule share its counters. */
  name: string
  windowMs: number
  /** One counter per subject, each with its own limit; all must allow the request. */
  limits: Partial<Record<Subject, number>>
  counts: Counts
  /**
   * Counters apart per value this reads from the request (the channel of a test send): one user's
   * three test emails leave their three test Telegram messages alone.
   */
  partOf?: (c: Context<AppEnv>) => Promise<string | undefined>
}

const rule = (
  name: string,
  windowMs: number,
  limits: RateRule['limits'],
  counts: Counts = 'requests',
  partOf?: RateRule['partOf'],
): RateRule => ({ name, windowMs, limits, counts, ...(partOf && { partOf }) })

/**
 * The channel a request names: the path's (the web app's form) or the JSON body's `channel` (the
 * API; Hono caches the body for the validator after).
 */
async function channelOf(c: Context<AppEnv>) {
  const inPath = c.req.param('channel')
  const body = inPath
    ? undefined
    : await c.req.json<Record<string, unknown>>().catch(() => undefined)
  const value = inPath ?? (body && typeof body === 'object' ? body.channel : undefined)
  // A value no route accepts shares one counter: its 4xx gives the place back anyway.
  return typeof value === 'string' && /^[a-z]{1,20}$/.test(value) ? value : undefined
}

/** A token bucket per IP: `capacity` requests at once, then one more every `refillMs`. */
export interface BucketRule {
  name: string
  capacity: number
  refillMs: number
  counts: Counts
}

const bucket = (
  name: string,
  capacity: number,
  refillMs: number,
  counts: Counts = 'requests',
): BucketRule => ({ name, capacity, refillMs, counts })

// General limits (spec): anonymous per IP, authenticated per user; admins are not limited.
const GENERAL_WINDOW_MS = 15 * MINUTE_MS
const ANONYMOUS_LIMIT = 100
const AUTHENTICATED_LIMIT = 1000
const WEBHOOK_REFUSAL_LIMIT = 30

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
  // Every attempt to guess a password or a 6-digit code, per client address; the failures per
  // account are counted by FAILURE_BUDGETS (failure-budget.ts).
  signin: rule('signin', 15 * MINUTE_MS, { ip: 30 }),
  codeCheck: rule('code-check', HOUR_MS, { ip: 30 }),
  codeSend: rule('code-send', HOUR_MS, { email: 5, ip: 20 }, 'sends'),
  signup: rule('signup', HOUR_MS, { ip: 10 }),
  refresh: rule('refresh', 15 * MINUTE_MS, { ip: 60 }),
  // Sign in with Google, per client address as for sign-in; each step has its own counter, so a
  // flow costs one of each and none of the password attempts.
  googleStart: rule('google-start', 15 * MINUTE_MS, { ip: 30 }),
  googleCallback: rule('google-callback', 15 * MINUTE_MS, { ip: 30 }),
  googleToken: rule('google-token', 15 * MINUTE_MS, { ip: 30 }),
  changePassword: rule('change-password', 15 * MINUTE_MS, { user: 5 }),
  pushSubscriptions: rule('push-subscriptions', 15 * MINUTE_MS, { user: 30 }),
  // A test push is a request to every push service the user subscribed at (up to 10): a few tries.
  pushTest: rule('push-test', 15 * MINUTE_MS, { user: 5 }, 'sends'),
  // Phone codes are WhatsApp messages the operator pays for: 3 an hour and 5 a day per user (and
  // per number, users/phone-send-limits.ts); checks as strict as for emailed codes.
  phoneCodeSend: rule('phone-code-send', HOUR_MS, { user: 3 }, 'sends'),
  phoneCodeSendDaily: rule('phone-code-send-daily', 24 * HOUR_MS, { user: 5 }, 'sends'),
  phoneCodeCheck: rule('phone-code-check', HOUR_MS, { user: 10 }),
  // Second API area. The contact form sends mail to the operators: burst 3, then one per 20 s.
  contact: bucket('contact', 3, 20_000, 'sends'),
  deleteAccount: rule('delete-account', HOUR_MS, { user: 5 }),
  submitResource: rule('submit-resource', HOUR_MS, { user: 20 }),
  // Notifications: these reach providers (and people's inboxes) at once, admins included.
  notificationRetry: rule('notification-retry', 15 * MINUTE_MS, { user: 30 }, 'sends'),
  notificationCleanup: rule('notification-cleanup', HOUR_MS, { user: 10 }),
  notificationTestSend: rule('notification-test-send', 15 * MINUTE_MS, { user: 30 }, 'sends'),
  // A user's own test send reaches a real person's inbox or chat: 3 an hour for each channel.
  testNotification: rule('test-notification', HOUR_MS, { user: 3 }, 'sends', channelOf),
  adminEmail: rule('admin-email', 15 * MINUTE_MS, { user: 60 }, 'sends'),
  // Requests to a provider webhook that fail its signature check, per address (signedWebhookLimit).
  webhookRefusals: rule('webhook-refusals', 15 * MINUTE_MS, { ip: WEBHOOK_REFUSAL_LIMIT }),
} satisfies Record<string, RateRule | BucketRule>

// Liveness checks stay answerable under any load.
const EXEMPT_PATHS = new Set(['/contests/health'])

// Webhooks our providers send, each checked against a secret before anything else is read:
// Resend's (Svix-signed) events, Telegram's updates and Discord's (Ed25519-signed) interactions.
// They come as fast as our own sends make
// events, from a few addresses, so the anonymous window (100 per 15 minutes per address) would
// refuse most of a large send's deliveries and bounces.
const SIGNED_WEBHOOK_PATHS = new Set([
  '/providers/resend/events',
  '/telegram/webhook',
  '/discord/interactions',
])

/** The email of a JSON body, normalised, as the counter of an account. */
export async function bodyEmail(c: Context<AppEnv>): Promise<string | undefined> {
  // Hono caches the body, so the validator that runs later reads the same text again.
  const body = await c.req.json<Record<string, unknown>>().catch(() => undefined)
  const email = body && typeof body === 'object' ? body.email : undefined
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined
}

function hitObject(c: Context<AppEnv>, key: string, limit: number, windowMs: number) {
  return limiterFor(c.env, key).hit(limit, windowMs)
}

/**
 * A rule that counts sends: each counter holds a place while the route runs and keeps it unless
 * the answer says nothing was sent (failure-budget.ts keeps the other way round).
 */
function countSends(
  c: Context<AppEnv>,
  keys: [string, number][],
  windowMs: number,
  next: () => Promise<void>,
): Promise<Response | void> {
  if (keys.length === 0) return next()
  const counters = keys.map(([key, limit]) => ({ key, limit, windowMs }))
  return withReservedPlaces(c, counters, (status) => !isRefused(status), next)
}

/**
 * The user the request's web app session cookie signs in: the app hands the lookup in (web/ reads
 * the cookie, auth/ the session), as it hands the guards their session checks.
 */
export function webSessionUser(c: Context<AppEnv>) {
  const lookup = c.get('webSessionUser')
  return lookup ? lookup(c) : Promise.resolve(undefined)
}

/** The address a request names, as the counter of an account (a JSON body's, or a form's). */
export type EmailOf = (c: Context<AppEnv>) => Promise<string | undefined>

/**
 * Applies `rule` to a route; put it after requireUser when the rule counts per user. `emailOf`
 * finds the address its email counter keys on (the web app's forms are not JSON).
 */
export function rateLimit(rule: RateRule, emailOf: EmailOf = bodyEmail): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (limitsDisabled(c.env)) return next()
    const keys: [string, number][] = []
    const { ip, user, email } = rule.limits
    const name = rule.partOf ? `${rule.name}:${(await rule.partOf(c)) ?? '-'}` : rule.name
    if (ip !== undefined) keys.push([`${name}:ip:${clientIp(c)}`, ip])
    if (user !== undefined) {
      const claims = c.get('auth') ?? (await authenticate(c))
      // A web app page counts its session's user, on the same counter as the API's route.
      const userId = claims?.sub ?? (await webSessionUser(c))?.userId
      if (userId) keys.push([`${name}:user:${userId}`, user])
    }
    if (email !== undefined) {
      const address = await emailOf(c)
      if (address) keys.push([`${name}:email:${address}`, email])
    }
    if (rule.counts === 'sends') return countSends(c, keys, rule.windowMs, next)
    let results: WindowResult[]
    try {
      results = await Promise.all(
        keys.map(([key, limit]) => hitObject(c, key, limit, rule.windowMs)),
      )
    } catch (error) {
      // Strict limits guard passwords and codes: without the counter, refuse rather than allow.
      throw limiterUnavailable(error)
    }
    return enforce(c, results, next)
  }
}

/** Puts back the token of a request that sent nothing; a lost refund costs one token. */
async function refund(stub: LimiterStub, rule: BucketRule) {
  try {
    await stub.refund(rule.capacity, rule.refillMs)
    return true
  } catch (error) {
    logLimiterFailure(error)
    return false
  }
}

/**
 * Applies a token bucket per client address (the Durable Object keeps it exact). A bucket that
 * counts sends gets the token back when the answer is a 4xx.
 */
export function tokenBucket(rule: BucketRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (limitsDisabled(c.env)) return next()
    const stub = limiterFor(c.env, `${rule.name}:ip:${clientIp(c)}`)
    let result: WindowResult
    try {
      result = await stub.take(rule.capacity, rule.refillMs)
    } catch (error) {
      // Buckets guard endpoints that cost something per request (mail): refuse without one.
      throw limiterUnavailable(error)
    }
    if (rule.counts !== 'sends') return enforce(c, [result], next)
    if (!result.allowed) return refuse(c, [result])
    await next()
    if (isRefused(c.res.status) && (await refund(stub, rule))) {
      result = { ...result, remaining: Math.min(rule.capacity, result.remaining + 1) }
    }
    report(c, result)
  }
}

/** The KV counter name of an address's refused webhook requests. */
const webhookRefusalsKey = (ip: string | undefined) =>
  `${RULES.webhookRefusals.name}:${clientKey(ip)}`

/**
 * A provider webhook's signature is its limit: a request that passes it is never counted, and an
 * address whose requests keep failing it (401) is refused before the check once it has failed
 * RULES.webhookRefusals' 30 in 15 minutes. Only refusals write to KV.
 */
const signedWebhookLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { windowMs } = RULES.webhookRefusals
  const key = webhookRefusalsKey(clientAddress(c))
  const seen = await peekKvWindow(c.env.KV, key, WEBHOOK_REFUSAL_LIMIT, windowMs, Date.now())
  if (!seen.allowed) return refuse(c, [seen])
  await next()
  if (c.res.status !== 401) return
  const counted = await hitKvWindow(
    c.env.KV,
    key,
    WEBHOOK_REFUSAL_LIMIT,
    windowMs,
    Date.now(),
    (work) => defer(c, () => work.then(() => undefined)),
  )
  report(c, counted)
}

/** The KV counter name of an anonymous caller's general window. */
export const anonymousKey = (ip: string | undefined) => `${RULES.anonymous.name}:${clientKey(ip)}`

/** Public catalogue reads; admin writes under /contests take the authenticated path. */
const isCatalogueRead = (method: string, path: string) =>
  (method === 'GET' || method === 'HEAD') && (path === '/contests' || path.startsWith('/contests/'))

/**
 * The general limits for every request. Public catalogue reads are answered from a cache and
 * must stay cheap, so they only ever touch the KV window of the caller's address.
 */
export const generalRateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (limitsDisabled(c.env) || EXEMPT_PATHS.has(c.req.path)) return next()
  if (c.req.method === 'POST' && SIGNED_WEBHOOK_PATHS.has(c.req.path)) {
    return signedWebhookLimit(c, next)
  }
  const catalogue = isCatalogueRead(c.req.method, c.req.path)
  // authorize, not authenticate: a revoked or demoted admin's token counts as an anonymous caller.
  const claims = catalogue ? undefined : await authorize(c)
  // A browser signed in to the web app is its session's user too, not its address: people behind
  // one address (an office, a campus) would otherwise share 100 requests. When the session cannot
  // be read (the database), the browser counts by its address; the page then answers the failure.
  const user = claims
    ? { userId: claims.sub, role: claims.role }
    : catalogue
      ? undefined
      : await webSessionUser(c).catch(() => undefined)
  if (user?.role === 'admin') return next()
  if (user) {
    const key = `${RULES.authenticated.name}:user:${user.userId}`
    let result: WindowResult
    try {
      result = await hitObject(c, key, AUTHENTICATED_LIMIT, GENERAL_WINDOW_MS)
    } catch (error) {
      // The general limit protects capacity, not secrets: an outage of it lets requests through.
      logLimiterFailure(error)
      return next()
    }
    return enforce(c, [result], next)
  }
  const result = await hitKvWindow(
    c.env.KV,
    anonymousKey(clientAddress(c)),
    ANONYMOUS_LIMIT,
    GENERAL_WINDOW_MS,
    Date.now(),
    (work) => void defer(c, () => work.then(() => undefined)),
  )
  return enforce(c, [result], next)
}
