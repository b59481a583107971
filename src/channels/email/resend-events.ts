// Resend's webhooks (delivered, bounced, complained): checked as Svix signs them, which is the
// Standard Webhooks format (svix-id, svix-timestamp, svix-signature; a `whsec_` base64 secret),
// and read into the little the service acts on.
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { z } from 'zod'

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' }

export interface SignedRequest {
  id: string | undefined
  timestamp: string | undefined
  signature: string | undefined
  body: string
}

/** The verifier of a `whsec_` signing secret; undefined when the secret is not one. */
export function resendVerifier(secret: string): Webhook | undefined {
  if (!secret.startsWith('whsec_')) return undefined
  try {
    return new Webhook(secret)
  } catch {
    return undefined
  }
}

/**
 * Checks the signature over `id.timestamp.body` against every `v1,<base64>` the header lists (a
 * secret being rotated signs twice), and that the timestamp is within five minutes of now, with
 * the Standard Webhooks library (Svix's headers carry the same values under other names).
 */
export function checkSignature(verifier: Webhook, req: SignedRequest): SignatureCheck {
  const { id, timestamp, signature, body } = req
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing' }
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  }
  try {
    verifier.verify(body, headers, { jsonParse: false })
    return { ok: true }
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    return { ok: false, reason: /timestamp|headers/i.test(error.message) ? 'stale' : 'mismatch' }
  }
}

// Loose on purpose: Resend adds fields to its payloads, and an event the service does not act on
// must still be acknowledged rather than refused.
const EventSchema = z.object({
  type: z.string(),
  data: z.object({
    email_id: z.string().min(1),
    bounce: z.object({ type: z.string().optional(), subType: z.string().optional() }).optional(),
  }),
})

export type EmailOutcome = 'delivered' | 'bounced' | 'complained'

export interface EmailEvent {
  emailId: string
  outcome: EmailOutcome
  /** A hard bounce (Resend's bounce type 'Permanent') or a complaint: stop mailing the address. */
  suppress: boolean
}

/**
 * The event the service acts on; null for a type it ignores (sent, opened, clicked, delayed...)
 * and for a body that is not an email event.
 */
export function readEmailEvent(body: string): EmailEvent | null {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return null
  }
  const parsed = EventSchema.safeParse(json)
  if (!parsed.success) return null
  const { type, data } = parsed.data
  const emailId = data.email_id
  if (type === 'email.delivered') return { emailId, outcome: 'delivered', suppress: false }
  if (type === 'email.complained') return { emailId, outcome: 'complained', suppress: true }
  if (type === 'email.bounced') {
    const hard = data.bounce?.type?.toLowerCase() === 'permanent'
    return { emailId, outcome: 'bounced', suppress: hard }
  }
  return null
}
