// The contact form's work: store the message, email it to the operators, record the outcome.
import { eq } from 'drizzle-orm'
import type { EmailMessage, SendResult } from '../channels/email/resend.ts'
import type { Db } from '../db/client.ts'
import { contactMessages } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'
import { log } from '../lib/log.ts'
import { contactEmail, replyToOf, type ContactInput } from './contact-email.ts'

export type SendEmail = (message: EmailMessage) => Promise<SendResult>

const MAX_ERROR_LENGTH = 500

/**
 * Stores the message before anything is sent, so it survives a provider outage (status
 * `pending`, then `sent` or `failed` with the provider's error). Resolves to whether the email
 * went out; a failure to record the outcome after a successful send does not turn it into one.
 */
export async function submitContactMessage(
  db: Db,
  send: SendEmail,
  input: ContactInput & { ip?: string; to: string },
  now: number,
): Promise<{ id: string; sent: boolean }> {
  const id = newId(now)
  const { name, email, subject, message } = input
  await db
    .insert(contactMessages)
    .values({ id, name, email, subject, message, ip: input.ip ?? null, createdAt: now })

  let result: SendResult
  try {
    result = await send({
      to: input.to,
      ...contactEmail(input),
      replyTo: replyToOf(email),
      // A retried send of the same stored message is delivered once.
      idempotencyKey: `contact-${id}`,
    })
  } catch (error) {
    result = { ok: false, provider: 'none', error: String(error) }
  }

  try {
    await db
      .update(contactMessages)
      .set(
        result.ok
          ? { emailStatus: 'sent', emailError: null }
          : {
              emailStatus: 'failed',
              emailError: (result.error ?? 'unknown error').slice(0, MAX_ERROR_LENGTH),
            },
      )
      .where(eq(contactMessages.id, id))
  } catch (error) {
    // The row stays `pending`; what the visitor must hear is whether the email went out.
    log.error('contact-status-failed', { id, error })
  }
  if (!result.ok) {
    log.error('contact-email-failed', { id, error: result.error })
  }
  return { id, sent: result.ok }
}
