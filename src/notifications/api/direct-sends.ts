// Admin sends that go straight through a channel's provider, not through the queue: test
// messages on each channel and the custom email, each reported as it went.
import { sendEmail } from '../../channels/email/resend.ts'
import { sendWhatsApp } from '../../channels/whatsapp/cloud-api.ts'
import type { Db } from '../../db/client.ts'
import type { Env } from '../../env.ts'
import { ApiError, badRequest, notFound } from '../../lib/errors.ts'
import { findUser } from '../../users/queries.ts'
import { testMessage } from '../kinds/test-message.ts'
import { isEmailAddress } from './schemas.ts'
import { sendTestPush, type TestPushResult } from './test-push.ts'

export interface TestSendResult {
  success: boolean
  message: string
  payload: Record<string, unknown>
}

export async function sendTestEmail(env: Env, to: string, now: number): Promise<TestSendResult> {
  const email = testMessage(now).email
  const result = await sendEmail(env, { to, ...email })
  const payload = {
    channel: 'email',
    to,
    subject: email.subject,
    provider: result.provider,
    ...(result.id && { messageId: result.id }),
    ...(result.error && { error: result.error }),
  }
  return result.ok
    ? { success: true, message: `Test email sent to ${to}`, payload }
    : { success: false, message: `Test email not sent: ${result.error}`, payload }
}

export async function sendTestWhatsApp(
  env: Env,
  phoneNumber: string,
  now: number,
): Promise<TestSendResult> {
  const params = testMessage(now).whatsapp
  const result = await sendWhatsApp(env, { to: phoneNumber, params })
  const payload = {
    channel: 'whatsapp',
    to: phoneNumber,
    params,
    provider: result.provider,
    ...(result.id && { messageId: result.id }),
    ...(result.error && { error: result.error }),
  }
  return result.ok
    ? { success: true, message: `Test WhatsApp message sent to ${phoneNumber}`, payload }
    : { success: false, message: `Test WhatsApp message not sent: ${result.error}`, payload }
}

const whyNot = (result: TestPushResult) =>
  result.errors.length > 0 ? result.errors.join('; ') : 'every push subscription had expired'

/**
 * The admin's test push to a user: the user's own test push (test-push.ts), reported in the shape
 * of the other test sends; 404s when there is no such user.
 */
export async function sendAdminTestPush(
  env: Env,
  db: Db,
  userId: string,
  now: number,
): Promise<TestSendResult> {
  if (!(await findUser(db, userId))) throw notFound('User not found')
  const result = await sendTestPush(env, db, userId, now)
  const payload = {
    channel: 'push',
    userId,
    title: testMessage(now).push.title,
    subscriptions: result.subscriptions,
    delivered: result.accepted,
    ...(result.errors.length && { errors: result.errors }),
  }
  if (result.subscriptions === 0) {
    return { success: false, message: 'The user has no push subscription', payload }
  }
  if (!result.enabled) {
    const message = 'Test push not sent: VAPID_PUBLIC_KEY or VAPID_PRIVATE_KEY is not set'
    return { success: false, message, payload }
  }
  return result.accepted > 0
    ? { success: true, message: `Test push sent to ${result.accepted} subscription(s)`, payload }
    : { success: false, message: `Test push not sent: ${whyNot(result)}`, payload }
}

export interface CustomEmail {
  to: string
  subject: string
  html: string
  text?: string
  replyTo?: string
}

/**
 * Sends an admin's email at once, as written. An unusable address is a 400; a disabled channel
 * a 503 and a provider failure a 502, so a success is never claimed that did not happen.
 */
export async function sendCustomEmail(env: Env, email: CustomEmail) {
  const to = email.to.trim()
  if (!isEmailAddress(to)) throw badRequest('Invalid email address')
  const replyTo = email.replyTo?.trim()
  if (replyTo && !isEmailAddress(replyTo)) throw badRequest('Invalid reply-to address')
  const result = await sendEmail(env, { ...email, to, ...(replyTo && { replyTo }) })
  if (!result.ok) {
    if (result.provider === 'none') throw new ApiError(503, result.error ?? 'Email is disabled')
    throw new ApiError(502, `Failed to send email: ${result.error}`)
  }
  return {
    success: true,
    messageId: result.id ?? '',
    to,
    subject: email.subject,
    provider: result.provider,
  }
}
