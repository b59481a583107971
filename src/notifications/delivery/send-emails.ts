// The emails of one queue message go out in one provider call (Resend's batch endpoint, up to 100),
// under an idempotency key derived from the deliveries: the same message redelivered after a crash,
// or retried after a timeout Resend had in fact served, makes the same call, which Resend answers
// without sending again.
import { sendEmail, type EmailMessage } from '../../channels/email.ts'
import { sendEmailBatch } from '../../channels/email-batch.ts'
import type { Env } from '../../env.ts'
import { sha256Hex } from '../../lib/crypto.ts'
import type { ChannelResult } from './send-request.ts'

export interface OutgoingEmail {
  deliveryId: string
  message: EmailMessage
}

/** `deliveries-<sha256 of the sorted delivery ids>`: the same deliveries, the same key. */
export async function emailBatchKey(deliveryIds: readonly string[]): Promise<string> {
  return `deliveries-${await sha256Hex([...deliveryIds].sort().join(','))}`
}

/** One result per email, in order; a single email goes to the plain endpoint. */
export async function sendEmails(
  env: Env,
  emails: readonly OutgoingEmail[],
): Promise<ChannelResult[]> {
  if (emails.length === 0) return []
  const idempotencyKey = await emailBatchKey(emails.map((e) => e.deliveryId))
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
    // The key names these deliveries, and Resend keeps a key only for a call it accepted: a refusal
    // for another payload means they went out before and we did not learn it (a lost record, a
    // timeout), while the time in the text moved on. Sending again is what would be wrong.
    r.code === 'invalid_idempotent_request'
      ? { ok: true }
      : { ok: r.ok, providerMessageId: r.id, error: r.error, transient: r.transient },
  )
}
