// The email channel: Resend (one call for a queue message's emails, under an idempotency key made
// of the deliveries), or the local outbox. The kind writes the email itself (kinds/), with the
// recipient's signed links; bounces and complaints come back as events (resend-events.ts).
import { sha256Hex } from '../../lib/crypto.ts'
import { defineChannel, resultOf, type EmailContent, type Outgoing } from '../define.ts'
import { sendEmail, emailProvider, type EmailMessage, type SendResult } from './resend.ts'
import { sendEmailBatch } from './resend-batch.ts'

/** `deliveries-<sha256 of the sorted delivery ids>`: the same deliveries, the same key. */
export async function emailBatchKey(deliveryIds: readonly string[]): Promise<string> {
  return `deliveries-${await sha256Hex([...deliveryIds].sort().join(','))}`
}

/**
 * The key names these deliveries, and Resend keeps a key only for a call it accepted: a refusal
 * for another payload means they went out before and we did not learn it (a lost record, a
 * timeout), while the time in the text moved on. Sending again is what would be wrong.
 */
const emailResult = (r: SendResult) =>
  r.code === 'invalid_idempotent_request' ? resultOf({ ok: true }) : resultOf(r)

const messageOf = (o: Outgoing<EmailContent>, idempotencyKey?: string): EmailMessage => ({
  to: o.to,
  ...o.message,
  ...(idempotencyKey && { idempotencyKey }),
})

export const email = defineChannel({
  id: 'email',
  label: 'Email',
  // Resend answers once it took the email; the mailbox's own answer (delivered, bounced) comes
  // later as a webhook event, which the delivery log shows as an attempt of its own.
  acceptedMeans: 'accepted by Resend for delivery',
  defaultOn: true,
  switchField: 'notifyEmail',
  destination: { kind: 'email' },
  blockable: true,
  // Resend's batch endpoint takes 100 emails a call.
  batchSize: 100,
  provider: (env) => {
    const kind = emailProvider(env)
    return kind === 'none' ? undefined : { env, kind }
  },
  render: (t): EmailContent =>
    t.email ?? { subject: t.headline, html: `<p>${t.summary}</p>`, text: t.summary },
  send: async (p, outgoing) => {
    const key = await emailBatchKey([outgoing.reference])
    return emailResult(await sendEmail(p.env, messageOf(outgoing, key)))
  },
  /** One result per email, in order; a single email goes to the plain endpoint. */
  sendBatch: async (p, outgoing) => {
    if (outgoing.length === 0) return []
    const idempotencyKey = await emailBatchKey(outgoing.map((o) => o.reference))
    if (outgoing.length === 1) {
      return [emailResult(await sendEmail(p.env, messageOf(outgoing[0], idempotencyKey)))]
    }
    const { results } = await sendEmailBatch(
      p.env,
      outgoing.map((o) => messageOf(o)),
      { idempotencyKey },
    )
    return results.map(emailResult)
  },
})
