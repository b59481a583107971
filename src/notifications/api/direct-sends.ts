// Admin sends that go straight through a channel's provider, not through the queue: test
// messages on each channel and the custom email, each reported as it went.
import { sendEmail } from '../../channels/email.ts'
import { sendPush } from '../../channels/push.ts'
import { sendWhatsApp } from '../../channels/whatsapp.ts'
import type { Db } from '../../db/client.ts'
import type { Env } from '../../env.ts'
import { ApiError, badRequest, notFound } from '../../lib/errors.ts'
import { listPushSubscriptions, removePushSubscription } from '../../users/push-subscriptions.ts'
import { findUser } from '../../users/queries.ts'
import { testMessage } from '../kinds/test-message.ts'
import { isEmailAddress } from './schemas.ts'

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

/** Pushes to every subscription of the user; 404s when there is no such user. */
export async function sendTestPush(
  env: Env,
  db: Db,
  userId: string,
  now: number,
): Promise<TestSendResult> {
  if (!(await findUser(db, userId))) throw notFound('User not found')
  const subscriptions = await listPushSubscriptions(db, userId)
  const content = testMessage(now).push
  if (subscriptions.length === 0) {
    return {
      success: false,
      message: 'The user has no push subscription',
      payload: { channel: 'push', userId, subscriptions: 0, delivered: 0 },
    }
  }
  let delivered = 0
  const errors: string[] = []
  for (const sub of subscriptions) {
    const result = await sendPush(env, sub, content, { ttl: 60 * 60 })
    if (result.gone) await removePushSubscription(db, userId, sub.endpoint)
    if (result.ok) delivered++
    else if (result.error) errors.push(result.error)
  }
  const payload = {
    channel: 'push',
    userId,
    title: content.title,
    subscriptions: subscriptions.length,
    delivered,
    ...(errors.length && { errors }),
  }
  return delivered > 0
    ? { success: true, message: `Test push sent to ${delivered} subscription(s)`, payload }
    : { success: false, message: `Test push not sent: ${errors.join('; ')}`, payload }
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
