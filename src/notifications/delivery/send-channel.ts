// One notification over one channel, in the words its kind module writes (kinds/): the email to
// send (send-emails.ts sends a message's emails in one call), or the send itself over WhatsApp,
// push, Telegram or Discord, reported the same way for every channel: delivered, worth retrying,
// or not.
import type { EmailMessage } from '../../channels/email.ts'
import { sendPush, type PushResult } from '../../channels/push.ts'
import { sendWhatsApp } from '../../channels/whatsapp.ts'
import { removeExpiredPushSubscription } from '../../users/channel-blocks.ts'
import { muteLink } from '../../users/mute-link.ts'
import { isPhoneVerified } from '../../users/phone.ts'
import { listUnsubscribeHeaders, unsubscribeLink } from '../../users/unsubscribe-link.ts'
import { notificationKind } from '../kinds/registry.ts'
import { sendDiscordDelivery } from './send-discord.ts'
import type { ChannelResult, SendRequest } from './send-request.ts'
import { sendTelegramDelivery } from './send-telegram.ts'

const MAX_PUSH_TTL_SECONDS = 24 * 60 * 60
const MIN_PUSH_TTL_SECONDS = 60

/** A reminder is worth nothing after the contest starts, so the push service may drop it then. */
function pushTtl(req: SendRequest): number {
  const start = req.notification.contestId
    ? req.content.contests.get(req.notification.contestId)?.startTime
    : undefined
  const expires = notificationKind(req.notification).pushExpiresAtContestStart
  if (start === undefined || !expires) return MAX_PUSH_TTL_SECONDS
  const seconds = Math.floor((start - req.content.now) / 1000)
  return Math.min(MAX_PUSH_TTL_SECONDS, Math.max(MIN_PUSH_TTL_SECONDS, seconds))
}

/**
 * Push goes to every browser the user subscribed. Delivered if any accepted it (the others are
 * not retried, so the browsers that got it never get it twice); subscriptions the push service
 * no longer knows (404/410) are deleted, and push is turned off (with its block) once none is left.
 */
async function sendToSubscriptions(req: SendRequest): Promise<ChannelResult> {
  const subscriptions = req.pushSubscriptions ?? []
  if (subscriptions.length === 0) {
    return { ok: false, transient: false, error: 'The account has no push subscription' }
  }
  const payload = notificationKind(req.notification).push(
    req.notification,
    req.recipient,
    req.content,
  )
  const options = {
    ttl: pushTtl(req),
    urgency: req.notification.type === 'CONTEST_REMINDER' ? ('high' as const) : ('normal' as const),
    // Topics replace an undelivered message with a newer one of the same notification.
    topic: req.notification.id,
  }
  const results: PushResult[] = []
  for (const sub of subscriptions) {
    const result = await sendPush(req.env, sub, payload, options)
    if (result.gone) {
      await removeExpiredPushSubscription(req.db, req.userId, sub.endpoint, req.content.now)
    }
    results.push(result)
  }
  const delivered = results.filter((r) => r.ok)
  if (delivered.length > 0) {
    return { ok: true, providerMessageId: delivered[0].id ?? `${delivered.length} subscription(s)` }
  }
  const errors = results.map((r) => r.error).filter(Boolean)
  if (results.every((r) => r.gone)) {
    return { ok: false, transient: false, error: 'Every push subscription has expired' }
  }
  return { ok: false, transient: results.some((r) => r.transient), error: errors.join('; ') }
}

/**
 * The email of one delivery, with its links signed here, per recipient (kinds render without
 * keys): the mute link only while the contest exists, and a link that cannot be signed (no usable
 * JWT_SECRET) is left out rather than the email. Every kind sent as a notification is optional
 * mail (reminders, reschedules, digests, announcements, bulk mail), so each carries the one-click
 * unsubscribe (RFC 8058); transactional mail (codes, account mail, the contact form) never comes
 * through here.
 */
export async function emailOf(req: SendRequest): Promise<EmailMessage> {
  const { env, notification, recipient, content } = req
  const contestId = notification.contestId
  const muteUrl =
    contestId && content.contests.has(contestId)
      ? await muteLink(env, content.appUrl, { userId: req.userId, contestId }).catch(
          () => undefined,
        )
      : undefined
  const unsubscribeUrl = await unsubscribeLink(env, content.appUrl, req.userId).catch(
    () => undefined,
  )
  return {
    to: recipient.email,
    ...notificationKind(notification).email(notification, recipient, {
      ...content,
      muteUrl,
      unsubscribeUrl,
    }),
    ...(unsubscribeUrl && { headers: listUnsubscribeHeaders(unsubscribeUrl) }),
  }
}

/** Sends over every channel but email, which goes out in batches (delivery/send-emails.ts). */
export async function sendOverChannel(req: SendRequest): Promise<ChannelResult> {
  const { env, notification, recipient, content } = req
  const kind = notificationKind(notification)
  if (req.channel === 'whatsapp') {
    if (!recipient.phoneNumber?.trim()) {
      return { ok: false, transient: false, error: 'The account has no phone number' }
    }
    // Checked again at send time: the number may have changed since the delivery was created.
    if (!isPhoneVerified(recipient)) {
      return { ok: false, transient: false, error: 'The phone number is not verified' }
    }
    const result = await sendWhatsApp(env, {
      to: recipient.phoneNumber,
      params: kind.whatsapp(notification, recipient, content),
      reference: req.deliveryId,
    })
    return {
      ok: result.ok,
      providerMessageId: result.id,
      error: result.error,
      transient: result.transient,
    }
  }
  if (req.channel === 'telegram') return sendTelegramDelivery(req)
  if (req.channel === 'discord') return sendDiscordDelivery(req)
  if (req.channel === 'push') return sendToSubscriptions(req)
  throw new Error(`sendOverChannel does not send ${req.channel}`)
}
