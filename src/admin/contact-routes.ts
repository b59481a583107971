// POST /contact: the public contact form, with its own response bodies (spec) and a strict token
// bucket per client address (burst 3, then one message every 20 seconds).
import { createRoute } from '@hono/zod-openapi'
import { HTTPException } from 'hono/http-exception'
import { sendEmail } from '../channels/email/resend.ts'
import { createDb } from '../db/client.ts'
import { settings } from '../env.ts'
import { limitBody } from '../http/body-limit.ts'
import { clientAddress } from '../http/client-address.ts'
import { logRequestFailure, renderError } from '../http/errors.ts'
import { RULES, tokenBucket } from '../http/rate-limit.ts'
import { ApiError } from '../lib/errors.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { createRouter } from '../http/router.ts'
import { submitContactMessage } from './contact.ts'
import {
  ALL_FIELDS_REQUIRED,
  ContactBody,
  ContactResultSchema,
  contactProblem,
  MESSAGE_SENT,
  SEND_FAILED,
} from './contact-schemas.ts'

// Four capped fields fit comfortably; anything larger is refused before it is parsed.
export const CONTACT_BODY_LIMIT = 128 * 1024
const MAX_IP_LENGTH = 64

const refused = (message: string) => ({ success: false, message })

const contactRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['Contact'],
  summary: 'Send a message to the operators (public; 3 at once, then one every 20 seconds)',
  middleware: [
    tokenBucket(RULES.contact),
    limitBody(CONTACT_BODY_LIMIT, (c) => c.json(refused('Message is too large.'), 413)),
  ] as const,
  request: {
    ...jsonBody(ContactBody),
  },
  responses: {
    200: json(ContactResultSchema, 'Sent: {success: true, message: "Message sent successfully."}'),
    400: json(ContactResultSchema, 'A field is missing, blank, not a string, too long or unknown'),
    413: json(ContactResultSchema, 'The body is larger than 128 KiB'),
    415: json(ContactResultSchema, 'The body is not JSON'),
    429: errorResponse('Too many messages from this address; see Retry-After'),
    500: json(ContactResultSchema, 'Stored, but the email could not be sent'),
    503: errorResponse('The rate limiter is unavailable'),
  },
})

export const contactRoutes = createRouter()

contactRoutes.openapi(
  contactRoute,
  async (c) => {
    const s = settings(c.env)
    const input = c.req.valid('json')
    const { sent } = await submitContactMessage(
      createDb(c.env.DB),
      (message) => sendEmail(c.env, message),
      {
        ...input,
        to: s.CONTACT_EMAIL ?? s.FROM_EMAIL,
        ip: clientAddress(c)?.slice(0, MAX_IP_LENGTH),
      },
      Date.now(),
    )
    if (!sent) return c.json(refused(SEND_FAILED), 500)
    return c.json({ success: true, message: MESSAGE_SENT }, 200)
  },
  (result, c) => {
    if (!result.success) return c.json(refused(contactProblem(result.error)), 400)
  },
)

// The form keeps its own bodies for a body it cannot read and for failures of its own; limits
// and outages of shared parts (429, 503) answer in the API's usual shape.
contactRoutes.onError((err, c) => {
  if (err instanceof HTTPException && err.status === 400) {
    return c.json(refused(ALL_FIELDS_REQUIRED), 400)
  }
  if (err instanceof HTTPException && err.status === 415) {
    return c.json(refused('Content-Type must be application/json.'), 415)
  }
  if (err instanceof ApiError || err instanceof HTTPException) return renderError(err, c)
  logRequestFailure(c, err)
  return c.json(refused(SEND_FAILED), 500)
})
