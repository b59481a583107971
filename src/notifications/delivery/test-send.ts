// A user's test send over one channel (POST /users/test-notification, the settings page's
// buttons): the test message rendered and sent by the channel's module exactly as a delivery is
// (send-channel.ts: the destination read off the recipient, the module's render and send, and
// what the answer leaves behind, a dead webhook forgotten with its block), at once and without a
// stored notification, answered with the provider's answer in words.
import { answerInWords, type AnswerWords } from '../../channels/answer-words.ts'
import { notSent } from '../../channels/define.ts'
import { channelModule, type Channel } from '../../channels/registry.ts'
import { idList } from '../../db/id-list.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { toIso } from '../../lib/time.ts'
import { recipientsQuery } from '../../users/audiences.ts'
import { pushSubscriptionsOf } from '../../users/push-subscriptions.ts'
import type { Notifier } from '../context.ts'
import { testMessage } from '../kinds/test-message.ts'
import { outgoingOf, sendOutgoing } from './send-channel.ts'
import type { SendRequest } from './send-request.ts'

export interface TestSendAnswer extends AnswerWords {
  channel: Channel
  at: string
}

/**
 * Sends the test message to `userId`'s own destination on `channel`. Refuses (4xx, nothing sent)
 * when the channel is off on this server (409) or the user has nowhere on it to send to (400);
 * otherwise answers what the provider said, delivered or not. The channel's switch does not
 * matter: a test before turning a channel on is the point.
 */
export async function sendTestNotification(
  n: Notifier,
  userId: string,
  channel: Channel,
  now: number,
): Promise<TestSendAnswer> {
  const m = channelModule(channel)
  const provider = n.providers[channel]
  if (provider === undefined) throw conflict(`${m.label} is not available on this server`)
  const [recipient] = await recipientsQuery(n.db, idList([userId]))
  if (!recipient || recipient.deletedAt !== null) throw notFound('User not found')
  const pushSubscriptions =
    channel === 'push' ? ((await pushSubscriptionsOf(n.db, [userId])).get(userId) ?? []) : undefined
  if (pushSubscriptions?.length === 0) {
    throw badRequest('No browser is subscribed to push notifications: turn push on in one first')
  }
  const { email } = testMessage(now)
  const req: SendRequest = {
    env: n.env,
    db: n.db,
    providers: n.providers,
    channel,
    notification: {
      id: newId(now),
      type: 'SYSTEM_ALERT',
      title: email.subject,
      message: email.text,
      contestId: null,
      payload: null,
    },
    userId,
    recipient,
    content: { appUrl: n.settings.APP_URL, now, contests: new Map() },
    // A reference of its own: a test never shares an email idempotency key with another send.
    deliveryId: `test-${newId(now)}`,
    pushSubscriptions,
  }
  const ready = await outgoingOf(req)
  // Nowhere to send: the refusal's words ("The account has no linked Telegram chat").
  if ('refused' in ready) {
    throw badRequest(ready.refused.ok ? 'Nothing to send to' : ready.refused.error)
  }
  const result = await sendOutgoing(req, provider, ready.outgoing).catch((error: unknown) =>
    notSent('transient', `Send failed: ${error instanceof Error ? error.name : 'Error'}`),
  )
  return { channel, ...answerInWords(m.label, result, m.acceptedMeans), at: toIso(now) }
}
