// POST /providers/resend/events: Resend's webhooks about sent email (delivered, bounced,
// complained), signed by Svix in the Standard Webhooks format.
import { createRoute, z } from '@hono/zod-openapi'
import { createDb } from '../../db/client.ts'
import { settings } from '../../env.ts'
import { createRouter } from '../../http/router.ts'
import { errorResponse, json, MessageSchema } from '../../lib/openapi.ts'
import { receiveResendEvent } from './provider-events.ts'

// Optional here, so a missing header is the 401 of an unsigned event rather than a 400.
const SvixHeaders = z.object({
  'svix-id': z.string().optional(),
  'svix-timestamp': z.string().optional().openapi({ description: 'Unix seconds' }),
  'svix-signature': z.string().optional().openapi({ description: 'v1,<base64> (space-separated)' }),
})

// The body is not declared for validation: the signature covers its exact bytes, so it is read
// as text and parsed only once the signature holds.
const resendEvents = createRoute({
  method: 'post',
  path: '/resend/events',
  tags: ['Notifications'],
  summary: 'Resend webhook: records delivered, bounced and complained emails',
  description:
    'A JSON event `{type, created_at, data: {email_id, bounce?}}`. A hard bounce (bounce type ' +
    "'Permanent') or a complaint turns email off for the user and records why (channelStatus). " +
    'Unknown email ids and other event types are acknowledged and change nothing.',
  request: { headers: SvixHeaders },
  responses: {
    200: json(MessageSchema, 'Acknowledged'),
    401: errorResponse('Missing or wrong signature, or a timestamp more than 5 minutes away'),
    429: errorResponse('30 wrongly signed requests from this address in 15 minutes'),
    503: errorResponse('RESEND_WEBHOOK_SECRET is not set'),
  },
})

/** Mounted at /providers. */
export const providerEventRoutes = createRouter().openapi(resendEvents, async (c) => {
  const headers = c.req.valid('header')
  const request = {
    id: headers['svix-id'],
    timestamp: headers['svix-timestamp'],
    signature: headers['svix-signature'],
    body: await c.req.text(),
  }
  const secret = settings(c.env).RESEND_WEBHOOK_SECRET
  const answer = await receiveResendEvent(createDb(c.env.DB), { secret, request }, Date.now())
  return c.json(answer, 200)
})
