// The emails of one queue message go out in one provider call (Resend's batch endpoint, up to 100),
// under an idempotency key derived from the deliveries and their retry counts: the same message
// redelivered after a crash makes the same call, which Resend answers without sending again.
import { sendEmail, type EmailMessage } from '../../channels/email.ts'
import { sendEmailBatch } from '../../channels/email-batch.ts'
import type { Env } from '../../env.ts'
import { sha256Hex } from '../../lib/crypto.ts'
import type { ChannelResult } from './send-request.ts'

export interface OutgoingEmail {
  deliveryId: string
  /** Part of the key: a retry after a recorded failure is a new call, not a repeat. */
  retryCount: number
  message: EmailMessage
}

/** `deliveries-<sha256>` of the sorted (delivery, retry count) pairs: order does not matter. */
export async function emailBatchKey(
  emails: readonly Pick<OutgoingEmail, 'deliveryId' | 'retryCount'>[],
): Promise<string> {
  const pairs = emails.map((e) => `${e.deliveryId}.${e.retryCount}`).sort()
  return `deliveries-${await sha256Hex(pairs.join(','))}`
}

/** One result per email, in order; a single email goes to the plain endpoint. */
export async function sendEmails(
  env: Env,
  emails: readonly OutgoingEmail[],
): Promise<ChannelResult[]> {
  if (emails.length === 0) return []
  const idempotencyKey = await emailBatchKey(emails)
  const results =
    emails.length === 1
      ? [await sendEmail(env, { ...emails[0].message, idempotencyKey })]
      : (
          await sendEmailBatch(
            env,
            emails.map((e) => e.message),
            { idempotencyKey },
          )
        ).results
  return results.map((r) =>
    // The key names these deliveries at these retry counts, and Resend keeps a key only for a call
    // it accepted: a refusal for another payload means this call went out before, and our record
    // of it was lost (the time in the text has moved on since). Sending again is what would be wrong.
    r.code === 'invalid_idempotent_request'
      ? { ok: true }
      : { ok: r.ok, providerMessageId: r.id, error: r.error, transient: r.transient },
  )
}
