// One send attempt of many deliveries at once: claim them, hold those inside quiet hours, render
// and send the rest (each message's emails as one provider call, other channels a few at a time),
// record every result and the notifications' status. Used by the queue consumer and by manual
// retries; its D1 statements do not grow with the number of deliveries.
import { answerInWords } from '../../channels/answer-words.ts'
import { notSent, type Outgoing, type SendResult } from '../../channels/define.ts'
import { channelModule } from '../../channels/registry.ts'
import { findContestsByIds } from '../../contests/notified.ts'
import type { ContestRow } from '../../db/schema.ts'
import { pushSubscriptionsOf } from '../../users/push-subscriptions.ts'
import type { Notifier } from '../context.ts'
import { contestIdsOf, type StoredNotification } from '../kinds/rendering.ts'
import {
  claimDeliveries,
  recordDeliveries,
  releaseClaims,
  type ClaimedDelivery,
  type DeliveryRecord,
  type SendRecipient,
  type Unclaimed,
} from './delivery-store.ts'
import { MAX_DELAY_SECONDS } from './enqueue.ts'
import { sendableAt } from './hold.ts'
import { outgoingOf, sendOverChannel, settle } from './send-channel.ts'
import type { SendRequest } from './send-request.ts'
import { notificationsSent } from './sent.ts'
import { automaticRetryDelay } from './status.ts'

export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; delaySeconds: number; error: string }
  | { kind: 'failed'; error: string }
  /** Inside the recipient's quiet hours: send it again when they end. */
  | { kind: 'held'; delaySeconds: number }
  /** Already settled, gone, or held by another attempt right now (delivery-store.ts). */
  | Unclaimed

export interface AttemptOptions {
  now: number
  /** A manual retry: a FAILED delivery may be taken, failures are final, and it counts a retry. */
  manual?: boolean
}

// Provider calls in flight at once: Workers open six connections at a time.
const PARALLEL_SENDS = 6

type Ready = ClaimedDelivery & { recipient: SendRecipient }

/** Runs `work` over `items`, `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++])
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** Why a claimed delivery must not be sent at all, checked before any provider call. */
function refusal(delivery: ClaimedDelivery): SendResult | undefined {
  const { recipient, channel } = delivery
  if (!recipient || recipient.deletedAt !== null) {
    return notSent('permanent', 'The account was deleted')
  }
  // Consent is read at send time: an unsubscribe, a bounce or a switch turned off after the
  // delivery was made (it may have waited in the queue) stops it.
  if (!recipient.channelsOn[channel]) {
    return notSent('permanent', `Not sent: ${channel} is turned off`)
  }
  return undefined
}

/**
 * The deliveries of one channel with a batch send (email), as one provider call: those that have
 * nowhere to go are refused on their own, the rest sent together in id order, so the same
 * deliveries make the same call (its idempotency key) when the message comes again.
 */
async function sendBatchOf(requests: readonly SendRequest[]): Promise<SendResult[]> {
  const m = channelModule(requests[0].channel)
  const provider = requests[0].providers[requests[0].channel]
  if (provider === undefined || !m.sendBatch) {
    return Promise.all(requests.map(sendOverChannel))
  }
  const results: SendResult[] = []
  const ready: { index: number; req: SendRequest; outgoing: Outgoing<unknown, unknown> }[] = []
  // Rendered side by side: each email signs its own links.
  const built = await Promise.all(requests.map(outgoingOf))
  for (const [index, one] of built.entries()) {
    if ('refused' in one) results[index] = one.refused
    else ready.push({ index, req: requests[index], outgoing: one.outgoing })
  }
  const answers =
    ready.length > 0
      ? await m.sendBatch(
          provider,
          ready.map((r) => r.outgoing),
        )
      : []
  for (const [i, { index, req, outgoing }] of ready.entries()) {
    results[index] = answers[i]
    await settle(req, outgoing, answers[i])
  }
  return results
}

/** Everything the sends of the batch read besides the claim: digests' contests, push keys. */
async function sendContext(n: Notifier, ready: readonly Ready[]) {
  const contests = new Map<string, ContestRow>()
  for (const d of ready) if (d.contest) contests.set(d.contest.id, d.contest)
  // Digests name their contests in the payload; those are read now, as they are today.
  const listed = [
    ...new Set(ready.flatMap((d) => contestIdsOf(d.notification as StoredNotification))),
  ].filter((id) => !contests.has(id))
  for (const c of await findContestsByIds(n.db, listed)) contests.set(c.id, c)
  const pushUsers = ready.filter((d) => d.channel === 'push').map((d) => d.notification.userId)
  const subscriptions = await pushSubscriptionsOf(n.db, [...new Set(pushUsers)])
  return { contests, subscriptions }
}

async function sendAll(
  n: Notifier,
  groups: readonly (readonly string[])[],
  ready: readonly Ready[],
  now: number,
): Promise<Map<string, SendResult>> {
  const { contests, subscriptions } = await sendContext(n, ready)
  const request = (d: Ready): SendRequest => ({
    env: n.env,
    db: n.db,
    providers: n.providers,
    channel: d.channel,
    notification: d.notification as StoredNotification,
    userId: d.notification.userId,
    recipient: d.recipient,
    content: { appUrl: n.settings.APP_URL, now, contests },
    deliveryId: d.id,
    pushSubscriptions: subscriptions.get(d.notification.userId),
  })
  const byId = new Map(ready.map((d) => [d.id, d]))
  // A batch channel's deliveries of one message are one call; a delivery named by two messages is
  // sent with the first.
  const calls: { ids: string[]; run: () => Promise<SendResult[]> }[] = []
  const seen = new Set<string>()
  for (const group of groups) {
    const batched: Ready[] = []
    for (const id of group) {
      const d = byId.get(id)
      if (!d || seen.has(id)) continue
      seen.add(id)
      if (channelModule(d.channel).sendBatch) batched.push(d)
      else calls.push({ ids: [d.id], run: async () => [await sendOverChannel(request(d))] })
    }
    // A message carries one channel (enqueue.ts), so its batched deliveries share a module.
    if (batched.length === 0) continue
    batched.sort((a, b) => (a.id < b.id ? -1 : 1))
    calls.push({ ids: batched.map((d) => d.id), run: () => sendBatchOf(batched.map(request)) })
  }
  const results = new Map<string, SendResult>()
  await inParallel(calls, PARALLEL_SENDS, async ({ ids, run }) => {
    // A bug or an outage inside a provider call must not leave the claims hanging.
    const answers = await run().catch((error: unknown) =>
      ids.map(() => notSent('transient', `Send failed: ${error}`)),
    )
    ids.forEach((id, i) => results.set(id, answers[i]))
  })
  return results
}

/** `answeredAt`: when the provider's answer came, from which a wait it named counts. */
function decide(
  delivery: ClaimedDelivery,
  result: SendResult,
  options: AttemptOptions,
  answeredAt = options.now,
): { record: DeliveryRecord; outcome: DeliveryOutcome } {
  const increment = options.manual ? 1 : 0
  const module = channelModule(delivery.channel)
  const logged = answerInWords(module.label, result, module.acceptedMeans)
  const base = { id: delivery.id, notificationId: delivery.notificationId, logged }
  if (result.ok) {
    return {
      record: {
        ...base,
        status: 'SENT',
        providerMessageId: result.id,
        retryIncrement: increment,
      },
      outcome: { kind: 'sent' },
    }
  }
  const error = result.error
  const policy =
    result.failure === 'transient' && !options.manual
      ? automaticRetryDelay(delivery.retryCount)
      : undefined
  if (policy !== undefined) {
    // The provider's own wait, when it named one, wins over a shorter policy delay.
    const delaySeconds = Math.min(
      Math.max(policy, result.retryAfterSeconds ?? 0),
      MAX_DELAY_SECONDS,
    )
    // A provider that named its wait bans a sender that comes sooner (Telegram, for every chat of
    // the bot): the row is held until then, so a duplicate message cannot send it early.
    const heldUntil =
      result.retryAfterSeconds === undefined ? undefined : answeredAt + delaySeconds * 1000
    return {
      record: { ...base, status: 'RETRYING', error, retryIncrement: 1, heldUntil },
      outcome: { kind: 'retry', delaySeconds, error },
    }
  }
  return {
    record: { ...base, status: 'FAILED', error, retryIncrement: increment },
    outcome: { kind: 'failed', error },
  }
}

/**
 * Attempts the deliveries of `groups` (each a queue message's ids) once, and says for each
 * delivery id what became of it. Throws only when D1 fails; the caller retries the messages.
 */
export async function attemptDeliveries(
  n: Notifier,
  groups: readonly (readonly string[])[],
  options: AttemptOptions,
): Promise<Map<string, DeliveryOutcome>> {
  const { now } = options
  const statuses = options.manual
    ? (['FAILED', 'RETRYING'] as const)
    : (['PENDING', 'RETRYING'] as const)
  const ids = [...new Set(groups.flat())]
  const { claimed, unclaimed } = await claimDeliveries(n.db, ids, statuses, now)
  const outcomes = new Map<string, DeliveryOutcome>(unclaimed)
  const records: DeliveryRecord[] = []
  const ready: Ready[] = []
  const held: string[] = []
  for (const d of claimed) {
    const refused = refusal(d)
    if (refused || !d.recipient) {
      const { record, outcome } = decide(d, refused!, options)
      records.push(record)
      outcomes.set(d.id, outcome)
      continue
    }
    // A manual retry is an operator's "now"; a queued reminder waits out the quiet hours.
    const at = options.manual
      ? now
      : sendableAt(
          {
            type: d.notification.type,
            contestStart: d.contest?.startTime,
            recipient: d.recipient,
          },
          now,
        )
    // Within a second is now: a queue delay is whole seconds.
    if (at - now >= 1000) {
      held.push(d.id)
      outcomes.set(d.id, { kind: 'held', delaySeconds: Math.ceil((at - now) / 1000) })
    } else {
      ready.push({ ...d, recipient: d.recipient })
    }
  }
  await releaseClaims(n.d1, held, now)
  const sendingFrom = Date.now()
  const results = await sendAll(n, groups, ready, now)
  // The answers came after `now` by the time the sends took.
  const answeredAt = now + Math.max(0, Date.now() - sendingFrom)
  for (const d of ready) {
    const { record, outcome } = decide(d, results.get(d.id)!, options, answeredAt)
    records.push(record)
    outcomes.set(d.id, outcome)
  }
  const becameSent = await recordDeliveries(n.d1, records, now)
  await notificationsSent(n.env, n.db, becameSent, now)
  return outcomes
}
