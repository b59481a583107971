// Web Push for the web app, under /users/push-subscriptions next to the subscribe and unsubscribe
// routes: the VAPID public key a browser subscribes with, a test push to the caller's browsers,
// and the renewal the service worker asks for when the browser replaces a subscription.
import { createRoute, z } from '@hono/zod-openapi'
import { pushProvider, vapidKeysValid } from '../channels/push/web-push.ts'
import { pushEndpointProblem } from '../channels/push/push-target.ts'
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { currentUser } from '../http/auth.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { sendTestPush, type TestPushResult } from '../notifications/api/test-push.ts'
import { renewPushSubscription } from '../users/push-subscriptions.ts'
import { PushRenewalBody } from '../users/schemas.ts'

const tags = ['Users']

// Browsers may keep the key a while, but not so long that turning push on (or a new key) waits.
const PUBLIC_KEY_MAX_AGE = 300

export const PushPublicKeySchema = z
  .object({
    enabled: z.boolean(),
    publicKey: z.string().optional().openapi({
      description: 'The VAPID public key (base64url P-256 point): applicationServerKey',
    }),
  })
  .openapi('PushPublicKey')

export const TestPushSchema = z
  .object({
    enabled: z.boolean(),
    provider: z.enum(['web-push', 'outbox', 'none']),
    subscriptions: z.number().int(),
    accepted: z.number().int(),
    removed: z.number().int(),
    errors: z.array(z.string()),
    message: z.string(),
  })
  .openapi('TestPushResult')

/**
 * The key browsers subscribe with, when this service can push to them: both VAPID keys set and
 * well formed. The local outbox alone is no push service a browser could subscribe at, so it is
 * `enabled: false` here.
 */
export function pushPublicKey(env: Env): z.infer<typeof PushPublicKeySchema> {
  const s = settings(env)
  if (pushProvider(env) !== 'web-push' || !vapidKeysValid(s)) return { enabled: false }
  return { enabled: true, publicKey: s.VAPID_PUBLIC_KEY! }
}

/** The test push's outcome in words a person reads in the settings page's status line. */
export function describeTestPush(result: TestPushResult): string {
  const { subscriptions, accepted, removed } = result
  if (!result.enabled) return 'Push notifications are not available on this server.'
  if (subscriptions === 0) return 'No browser is subscribed to push notifications yet.'
  const where = result.provider === 'outbox' ? ' (to the local outbox, DEV_OUTBOX)' : ''
  if (accepted === subscriptions) {
    return `Test notification sent to ${accepted} browser${accepted === 1 ? '' : 's'}${where}.`
  }
  const parts = [
    accepted === 0
      ? 'Test notification not sent.'
      : `Test notification sent to ${accepted} of ${subscriptions} browsers${where}.`,
  ]
  if (removed > 0) {
    parts.push(`${removed} subscription(s) had expired and were removed: turn push on again there.`)
  }
  if (result.errors.length > 0) parts.push(`Not sent: ${result.errors.join('; ')}.`)
  return parts.join(' ')
}

const publicKey = createRoute({
  method: 'get',
  path: '/public-key',
  tags,
  summary: 'The VAPID public key browsers subscribe with; enabled is false without push',
  responses: {
    200: json(PushPublicKeySchema, 'Whether push is on, and the key (cacheable, 300 s)'),
  },
})

const testPush = signedInRoute({
  method: 'post',
  path: '/test',
  tags,
  summary: 'Send a test notification to every push subscription of the caller',
  middleware: [rateLimit(RULES.pushTest)] as const,
  responses: {
    200: json(TestPushSchema, 'Sent (see accepted), or enabled false when push is off'),
    400: errorResponse('The caller has no push subscription'),
    429: errorResponse('Too many requests'),
  },
})

const renew = createRoute({
  method: 'post',
  path: '/renew',
  tags,
  summary: 'Put a subscription the browser renewed in the place of the old one',
  description:
    'Sent by the service worker on `pushsubscriptionchange`, which has no session to send: the ' +
    "old subscription's endpoint and keys, which only the browser that made it knows, name the " +
    'account. The new endpoint must belong to a known push service (PUSH_SERVICE_HOSTS).',
  request: jsonBody(PushRenewalBody),
  responses: {
    200: json(MessageSchema, 'Renewed'),
    400: errorResponse('Validation failed, or the new endpoint is no known push service'),
    404: errorResponse('No subscription has that endpoint with those keys'),
    429: errorResponse('Too many requests'),
  },
})

/** Mounted at /users/push-subscriptions. */
export const pushRoutes = createRouter()
  .openapi(publicKey, (c) => {
    c.header('Cache-Control', `public, max-age=${PUBLIC_KEY_MAX_AGE}`)
    return c.json(pushPublicKey(c.env), 200)
  })
  .openapi(testPush, async (c) => {
    const db = createDb(c.env.DB)
    const result = await sendTestPush(c.env, db, currentUser(c).sub, Date.now())
    if (result.enabled && result.subscriptions === 0) {
      throw badRequest('No push subscription: turn push notifications on in a browser first')
    }
    c.header('Cache-Control', 'no-store')
    return c.json({ ...result, message: describeTestPush(result) }, 200)
  })
  .openapi(renew, async (c) => {
    const { old, subscription } = c.req.valid('json')
    const refused = pushEndpointProblem(c.env, subscription.endpoint)
    if (refused) throw badRequest([refused])
    const db = createDb(c.env.DB)
    if (!(await renewPushSubscription(db, old, subscription, Date.now()))) {
      throw notFound('Push subscription not found')
    }
    return c.json({ message: 'Push subscription renewed' }, 200)
  })
