// POST /users/test-notification: the caller's test send over one channel, through the channel's
// own send code (delivery/test-send.ts), limited to 3 an hour per channel, answered with what the
// provider said in words. Mounted with the users routers at /users.
import { currentUser } from '../../http/auth.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter, signedInRoute } from '../../http/router.ts'
import { errorResponse, json, jsonBody } from '../../lib/openapi.ts'
import { notifier } from '../context.ts'
import { sendTestNotification } from '../delivery/test-send.ts'
import { TestNotificationBody, TestNotificationResultSchema } from './schemas.ts'

const testNotification = signedInRoute({
  method: 'post',
  path: '/test-notification',
  tags: ['Users'],
  summary: 'Send a test message to your own destination on one channel',
  description:
    'The test message goes through the channel exactly as a notification would (the same ' +
    'destination, rendering, provider call, and what a dead destination leaves behind), at once ' +
    'and without a stored notification. The answer is what the provider said: `delivered`, or ' +
    'why not, in words. Each channel allows 3 test sends an hour per account (refused requests ' +
    'do not count); the channel switch does not matter, so a channel can be tried before it is ' +
    'turned on.',
  middleware: [rateLimit(RULES.testNotification)] as const,
  request: jsonBody(TestNotificationBody),
  responses: {
    200: json(TestNotificationResultSchema, 'Sent; `outcome` and `message` say what came of it'),
    400: errorResponse(
      'Validation failed, or the account has nowhere on that channel to send to (no linked chat, ' +
        'webhook, verified number or push subscription)',
    ),
    404: errorResponse('The account is gone'),
    409: errorResponse('The channel is not available on this server (enabled: false)'),
    429: errorResponse('Three test sends on this channel in the last hour: see Retry-After'),
  },
})

/** Mounted at /users, ahead of the users router. */
export const testNotificationRoutes = createRouter().openapi(testNotification, async (c) => {
  const { channel } = c.req.valid('json')
  const answer = await sendTestNotification(
    notifier(c.env),
    currentUser(c).sub,
    channel,
    Date.now(),
  )
  c.header('Cache-Control', 'no-store')
  return c.json(answer, 200)
})
