// Resend's webhooks (delivered, bounced, complained): checked as Svix signs them, which is the
// Standard Webhooks format (svix-id, svix-timestamp, svix-signature; a `whsec_` base64 secret),
// and read into the little the service acts on.
import { z } from 'zod'
import { hmacKey, hmacSha256, timingSafeEqualText } from '../lib/crypto.ts'

/** Older (or later) than this and a signed event is refused: a captured one cannot be replayed. */
export const EVENT_TOLERANCE_SECONDS = 5 * 60

const SECRET_PREFIX = 'whsec_'

export type SignatureCheck =
  { ok: true; id: string } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' }

export interface SignedRequest {
  id: string | undefined
  timestamp: string | undefined
  signature: string | undefined
  body: string
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/** The key bytes of a `whsec_` secret; undefined when it is not one. */
export function secretBytes(secret: string): Uint8Array | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined
  try {
    const bytes = Uint8Array.from(atob(secret.slice(SECRET_PREFIX.length)), (c) => c.charCodeAt(0))
    return bytes.length > 0 ? bytes : undefined
  } catch {
    return undefined
  }
}

/**
 * Checks the signature over `id.timestamp.body` against every `v1,<base64>` the header lists (a
 * secret being rotated signs twice), and that the timestamp is within the tolerance of `now`.
 */
export async function checkSignature(
  key: Uint8Array,
  req: SignedRequest,
  now: number,
): Promise<SignatureCheck> {
  const { id, timestamp, signature, body } = req
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing' }
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN
  if (!(Math.abs(now / 1000 - seconds) <= EVENT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale' }
  }
  const mac = await hmacSha256(await hmacKey(key), `${id}.${timestamp}.${body}`)
  const expected = toBase64(mac)
  const offered = signature.split(' ').flatMap((part) => {
    const [version, value] = part.split(',', 2)
    return version === 'v1' && value ? [value] : []
  })
  const matches = offered.filter((value) => timingSafeEqualText(expected, value))
  return matches.length > 0 ? { ok: true, id } : { ok: false, reason: 'mismatch' }
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
