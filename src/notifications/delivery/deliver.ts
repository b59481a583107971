// One send attempt of one delivery: claim it, render and send it over its channel, record the
// result and the notification's status. Used by the queue consumer and by manual retries.
import { findContestsByIds } from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import type { Notifier } from '../context.ts'
import { findNotification } from '../history.ts'
import { contestIdsOf, type StoredNotification } from '../kinds/rendering.ts'
import {
  claimDelivery,
  isClaimed,
  recordDelivery,
  releaseClaim,
  type ClaimedDelivery,
  type DeliveryRecord,
} from './delivery-store.ts'
import { MAX_DELAY_SECONDS } from './enqueue.ts'
import { sendableAt } from './hold.ts'
import { sendOverChannel } from './send-channel.ts'
import type { ChannelResult } from './send-request.ts'
import { notificationSent } from './sent.ts'
import { automaticRetryDelay, type NotificationStatus } from './status.ts'

export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; delaySeconds: number; error: string }
  | { kind: 'failed'; error: string }
  /** Already SENT or FAILED (or, for a manual retry, not failed): nothing was sent. */
  | { kind: 'settled'; status: NotificationStatus }
  /** The delivery no longer exists (its notification was deleted). */
  | { kind: 'missing' }
  /** Another attempt holds it right now. */
  | { kind: 'busy'; delaySeconds: number }
  /** Inside the recipient's quiet hours: send it again when they end. */
  | { kind: 'held'; delaySeconds: number }

export interface AttemptOptions {
  now: number
  /** The queue's attempt number of the message (1 on first delivery). */
  attempt: number
  /** A manual retry: a FAILED delivery may be taken, failures are final, and it counts a retry. */
  manual?: boolean
}

async function send(n: Notifier, delivery: ClaimedDelivery, now: number): Promise<ChannelResult> {
  const { notification, recipient } = delivery
  if (recipient.deletedAt !== null) {
    return { ok: false, transient: false, error: 'The account was deleted' }
  }
  // Consent is read at send time: an unsubscribe, a bounce or a switch turned off after the
  // delivery was made (it may have waited in the queue) stops it.
  if (!recipient.channelsOn[delivery.channel]) {
    return { ok: false, transient: false, error: `Not sent: ${delivery.channel} is turned off` }
  }
  const contests = new Map<string, ContestRow>()
  if (delivery.contest) contests.set(delivery.contest.id, delivery.contest)
  // Digests name their contests in the payload; those are read now, as they are today.
  const listed = contestIdsOf(notification).filter((id) => !contests.has(id))
  if (listed.length > 0) {
    for (const c of await findContestsByIds(n.db, listed)) contests.set(c.id, c)
  }
  try {
    return await sendOverChannel({
      env: n.env,
      db: n.db,
      channel: delivery.channel,
      notification: notification as StoredNotification,
      userId: notification.userId,
      recipient,
      content: { appUrl: n.settings.APP_URL, now, contests },
      deliveryId: delivery.id,
    })
  } catch (error) {
    // A bug or an outage inside a provider call must not leave the claim hanging.
    return { ok: false, transient: true, error: `Send failed: ${error}` }
  }
}

function decide(delivery: ClaimedDelivery, result: ChannelResult, options: AttemptOptions) {
  const increment = options.manual ? 1 : 0
  if (result.ok) {
    const record: DeliveryRecord = {
      status: 'SENT',
      providerMessageId: result.providerMessageId,
      retryIncrement: increment,
    }
    return { record, outcome: { kind: 'sent' } as DeliveryOutcome }
  }
  const error = result.error ?? 'Unknown error'
  const policy =
    result.transient && !options.manual
      ? automaticRetryDelay(options.attempt, delivery.retryCount)
      : undefined
  // The provider's own wait, when it named one, wins over a shorter policy delay.
  const delay =
    policy === undefined
      ? undefined
      : Math.min(Math.max(policy, result.retryAfterSeconds ?? 0), MAX_DELAY_SECONDS)
  if (delay !== undefined) {
    const record: DeliveryRecord = { status: 'RETRYING', error, retryIncrement: 1 }
    return { record, outcome: { kind: 'retry', delaySeconds: delay, error } as DeliveryOutcome }
  }
  const record: DeliveryRecord = { status: 'FAILED', error, retryIncrement: increment }
  return { record, outcome: { kind: 'failed', error } as DeliveryOutcome }
}

export async function attemptNotificationDelivery(
  n: Notifier,
  deliveryId: string,
  options: AttemptOptions,
): Promise<DeliveryOutcome> {
  const statuses: NotificationStatus[] = options.manual
    ? ['FAILED', 'RETRYING']
    : ['PENDING', 'RETRYING']
  const claimed = await claimDelivery(n.db, deliveryId, statuses, options.now)
  if (!isClaimed(claimed)) return claimed
  // A manual retry is an operator's "now"; a queued reminder waits out the quiet hours.
  if (!options.manual) {
    const at = sendableAt(
      {
        type: claimed.notification.type,
        contestStart: claimed.contest?.startTime,
        recipient: claimed.recipient,
      },
      options.now,
    )
    // Within a second is now: a queue delay is whole seconds.
    if (at - options.now >= 1000) {
      await releaseClaim(n.d1, claimed.id, options.now)
      return { kind: 'held', delaySeconds: Math.ceil((at - options.now) / 1000) }
    }
  }
  const result = await send(n, claimed, options.now)
  const { record, outcome } = decide(claimed, result, options)
  const becameSent = await recordDelivery(n.d1, claimed, record, options.now)
  if (becameSent) await announceSent(n, claimed, options.now)
  return outcome
}

async function announceSent(n: Notifier, delivery: ClaimedDelivery, now: number) {
  const notification = await findNotification(n.db, delivery.notificationId)
  if (notification) await notificationSent(n.env, notification, now)
}
