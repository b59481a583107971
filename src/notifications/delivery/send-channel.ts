// One notification over one channel: where it goes (the channel module's kind of destination, read
// off the recipient), the message (the kind's words rendered by the module), and what a send's
// answer leaves behind: subscriptions gone and dead destinations forgotten, with their block.
import {
  notSent,
  type ChannelModule,
  type Outgoing,
  type SendResult,
} from '../../channels/define.ts'
import { channelModule } from '../../channels/registry.ts'
import { blockDeadDestination, removeExpiredPushSubscription } from '../../users/channel-blocks.ts'
import { moveDestination } from '../../users/destinations.ts'
import { muteLink } from '../../users/mute-link.ts'
import { isPhoneVerified } from '../../users/phone.ts'
import { listUnsubscribeHeaders, unsubscribeLink } from '../../users/unsubscribe-link.ts'
import { notificationKind } from '../kinds/registry.ts'
import { offersSnooze, SNOOZE_BUTTON_TEXT, snoozeLink } from '../snooze-link.ts'
import type { SendRequest } from './send-request.ts'

type Destination = { to: unknown } | { refused: SendResult }

const refused = (error: string): Destination => ({ refused: notSent('permanent', error) })

/** Where the send goes, or why it cannot go anywhere. */
function destinationOf(m: ChannelModule, req: SendRequest): Destination {
  const { recipient } = req
  switch (m.destination.kind) {
    case 'email':
      return { to: recipient.email }
    case 'phone':
      if (!recipient.phoneNumber?.trim()) return refused('The account has no phone number')
      // Checked again at send time: the number may have changed since the delivery was created.
      if (!isPhoneVerified(recipient)) return refused('The phone number is not verified')
      return { to: recipient.phoneNumber }
    case 'push':
      return {
        to: (req.pushSubscriptions ?? []).map(({ endpoint, p256dh, auth }) => ({
          endpoint,
          p256dh,
          auth,
        })),
      }
    case 'linked': {
      const to = recipient[m.destination.field]
      return to ? { to } : refused(`The account has no linked ${m.label} chat`)
    }
    case 'webhook': {
      const to = recipient[m.destination.field]
      return to ? { to } : refused(`The account has no ${m.label} webhook`)
    }
  }
}

/**
 * The email of one delivery, with its links signed here, per recipient (kinds render without
 * keys): the mute link only while the contest exists, and a link that cannot be signed (no usable
 * JWT_SECRET) is left out rather than the email. Every kind sent as a notification is optional
 * mail (reminders, reschedules, digests, announcements, bulk mail), so each carries the one-click
 * unsubscribe (RFC 8058); transactional mail (codes, account mail, the contact form) never comes
 * through here.
 */
async function emailOf(req: SendRequest, snoozeUrl: string | undefined) {
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
    ...notificationKind(notification).email(notification, recipient, {
      ...content,
      muteUrl,
      unsubscribeUrl,
      snoozeUrl,
    }),
    ...(unsubscribeUrl && { headers: listUnsubscribeHeaders(unsubscribeUrl) }),
  }
}

/**
 * The recipient's signed snooze link, for the channels that carry one (a push action, an email's
 * link; Telegram's button needs none); left out, as the mute link, when it cannot be signed.
 */
async function snoozeUrlOf(req: SendRequest, kind: ChannelModule['destination']['kind']) {
  const { env, notification, content, userId } = req
  if ((kind !== 'push' && kind !== 'email') || !notification.contestId) return undefined
  const claim = { userId, contestId: notification.contestId }
  return snoozeLink(env, content.appUrl, claim, content.now).catch(() => undefined)
}

/** The send of one delivery, ready for its module; a refusal when it has nowhere to go. */
export async function outgoingOf(
  req: SendRequest,
): Promise<{ outgoing: Outgoing<unknown, unknown> } | { refused: SendResult }> {
  const m = channelModule(req.channel)
  const destination = destinationOf(m, req)
  if ('refused' in destination) return destination
  const { notification, recipient, content } = req
  const text = notificationKind(notification).text(notification, recipient, content)
  if (offersSnooze(text.type, text.startTime, content.now)) {
    const url = await snoozeUrlOf(req, m.destination.kind)
    text.snooze = { label: SNOOZE_BUTTON_TEXT, ...(url && { url }) }
  }
  if (m.destination.kind === 'email') text.email = await emailOf(req, text.snooze?.url)
  return { outgoing: { to: destination.to, message: m.render(text), reference: req.deliveryId } }
}

/**
 * What an answer leaves to clean up: push subscriptions gone, a chat or webhook that is dead, a
 * chat that moved (the retry goes to its new address).
 */
export async function settle(
  req: SendRequest,
  outgoing: Outgoing<unknown, unknown>,
  result: SendResult,
) {
  const { db, userId, channel, content } = req
  for (const endpoint of result.gone ?? []) {
    await removeExpiredPushSubscription(db, userId, endpoint, content.now)
  }
  if (result.ok || typeof outgoing.to !== 'string') return
  if (result.failure === 'dead') {
    await blockDeadDestination(db, userId, channel, outgoing.to, content.now)
  }
  const { destination } = channelModule(channel)
  if (result.movedTo && 'field' in destination) {
    const move = { from: outgoing.to, to: result.movedTo }
    await moveDestination(db, userId, destination.field, move, content.now)
  }
}

/** Sends one delivery over its channel (the batch path is deliver.ts). */
export async function sendOverChannel(req: SendRequest): Promise<SendResult> {
  const m = channelModule(req.channel)
  const provider = req.providers[req.channel]
  if (provider === undefined)
    return notSent('permanent', `${m.label} is not available on this server`)
  const ready = await outgoingOf(req)
  if ('refused' in ready) return ready.refused
  return sendOutgoing(req, provider, ready.outgoing)
}

/** One rendered send through its module, and what its answer leaves behind (settle). */
export async function sendOutgoing(
  req: SendRequest,
  provider: unknown,
  outgoing: Outgoing<unknown, unknown>,
): Promise<SendResult> {
  const result = await channelModule(req.channel).send(provider, outgoing)
  await settle(req, outgoing, result)
  return result
}
