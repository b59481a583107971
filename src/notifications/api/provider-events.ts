// Receiving a Resend webhook: refused unless configured and signed within the tolerance, then the
// email event recorded on its delivery. Never claims success for an event it could not check.
import {
  checkSignature,
  readEmailEvent,
  resendVerifier,
  type SignedRequest,
} from '../../channels/email/resend-events.ts'
import type { Db } from '../../db/client.ts'
import { ApiError, unauthorized } from '../../lib/errors.ts'
import { recordEmailEvent } from '../delivery/provider-events.ts'

export const NOT_CONFIGURED = 'Resend webhooks are not configured: RESEND_WEBHOOK_SECRET is not set'

const REFUSED = {
  missing: 'Missing svix-id, svix-timestamp or svix-signature header',
  stale: 'The event timestamp is more than 5 minutes away from now',
  mismatch: 'The event signature does not match',
} as const

const ANSWERS = {
  recorded: 'Event recorded',
  unchanged: 'Event already recorded',
  'unknown-email': 'No delivery has that email id; nothing to do',
  ignored: 'Event type not acted on',
} as const

export async function receiveResendEvent(
  db: Db,
  input: { secret: string | undefined; request: SignedRequest },
  now: number,
): Promise<{ message: string }> {
  if (!input.secret) throw new ApiError(503, NOT_CONFIGURED)
  const verifier = resendVerifier(input.secret)
  if (!verifier) throw new ApiError(503, 'RESEND_WEBHOOK_SECRET is not a whsec_ signing secret')
  const check = checkSignature(verifier, input.request)
  if (!check.ok) throw unauthorized(REFUSED[check.reason])
  const event = readEmailEvent(input.request.body)
  if (!event) return { message: ANSWERS.ignored }
  return { message: ANSWERS[await recordEmailEvent(db, event, now)] }
}
