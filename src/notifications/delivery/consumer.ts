// Queue consumers: the notifications queue attempts every delivery of a batch's messages at once
// and then settles each message (ack, retry, or deliveries handed on to a new message); the
// dead-letter queue records what the queue gave up on as FAILED.
import { addToGroup } from '../../lib/group.ts'
import type { Env } from '../../env.ts'
import { log } from '../../lib/log.ts'
import type { QueueBatch, QueueMessage } from '../../ports/queue.ts'
import { notifier, type Notifier } from '../context.ts'
import { attemptDeliveries, type DeliveryOutcome } from './deliver.ts'
import { recordDeadLetters } from './delivery-store.ts'
import {
  deliveryIdsOf,
  deliveryMessages,
  MAX_DELAY_SECONDS,
  sendDeliveryMessages,
} from './enqueue.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from './status.ts'

/** The wait before a delivery is tried again, or undefined when it is done with. */
function waitOf(outcome: DeliveryOutcome | undefined): number | undefined {
  if (!outcome) return undefined
  if (outcome.kind === 'retry' || outcome.kind === 'busy' || outcome.kind === 'held') {
    return Math.min(outcome.delaySeconds, MAX_DELAY_SECONDS)
  }
  return undefined
}

/**
 * A message whose deliveries are all done is acked. One whose unfinished deliveries are all of
 * it, retrying after the same wait, is retried as it is (a retry costs the queue no new write).
 * Otherwise the unfinished deliveries go on in new messages, one per wait, and the message is
 * acked. A held or busy delivery is always a new message: waiting for its time spends none of
 * the message's retries (nor sends the message to the dead-letter queue, which would record the
 * delivery FAILED while another attempt still has it).
 */
async function settle(
  n: Notifier,
  message: QueueMessage,
  ids: readonly string[],
  outcomes: ReadonlyMap<string, DeliveryOutcome>,
) {
  const byWait = new Map<number, string[]>()
  let held = false
  for (const id of ids) {
    const outcome = outcomes.get(id)
    const wait = waitOf(outcome)
    if (wait === undefined) continue
    // Held for quiet hours, or held by another attempt or a 429's wait (a duplicate, or this
    // message's own retry come early): waiting is no attempt and spends none of the retries.
    held ||= outcome?.kind === 'held' || outcome?.kind === 'busy'
    addToGroup(byWait, wait, id)
  }
  const [only] = byWait
  if (byWait.size === 1 && only[1].length === ids.length && !held) {
    message.retry({ delaySeconds: only[0] })
    return
  }
  for (const [wait, later] of byWait) {
    await sendDeliveryMessages(n.queue, deliveryMessages(later), wait)
  }
  message.ack()
}

function report(
  message: QueueMessage,
  outcomes: ReadonlyMap<string, DeliveryOutcome>,
  ids: string[],
) {
  for (const id of ids) {
    const outcome = outcomes.get(id)
    if (outcome?.kind === 'failed' || outcome?.kind === 'retry') {
      log.warn('notification-delivery-failed', {
        deliveryId: id,
        attempt: message.attempts,
        ...outcome,
      })
    }
  }
}

export async function consumeNotifications(batch: QueueBatch, env: Env) {
  const n = notifier(env)
  const work: { message: QueueMessage; ids: string[] }[] = []
  for (const message of batch.messages) {
    const ids = deliveryIdsOf(message.body)
    if (ids) {
      work.push({ message, ids })
    } else {
      // Nothing can ever be done with it; retrying would only move it to the dead-letter queue.
      log.warn('notification-message-malformed', { messageId: message.id })
      message.ack()
    }
  }
  if (work.length === 0) return
  let outcomes: Map<string, DeliveryOutcome>
  try {
    outcomes = await attemptDeliveries(
      n,
      work.map((w) => w.ids),
      { now: Date.now() },
    )
  } catch (error) {
    // D1 or another binding failed: the queue tries again, and after the last retry the
    // dead-letter consumer records the deliveries as FAILED.
    log.error('notification-delivery-error', {
      deliveries: work.flatMap((w) => w.ids).length,
      error,
    })
    for (const { message } of work) {
      const step = Math.min(message.attempts, NOTIFICATION_RETRY_DELAYS_SECONDS.length) - 1
      message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[Math.max(0, step)] })
    }
    return
  }
  for (const { message, ids } of work) {
    report(message, outcomes, ids)
    try {
      await settle(n, message, ids, outcomes)
    } catch (error) {
      // The new messages could not be sent: retrying this one attempts its deliveries again,
      // and the claims and statuses keep the finished ones from going out twice.
      log.error('notification-message-settle-failed', { messageId: message.id, error })
      message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0] })
    }
  }
}

/** Every dead letter is recorded against its deliveries, then acknowledged. */
export async function consumeDeadLetters(batch: QueueBatch, env: Env) {
  const { d1 } = notifier(env)
  for (const message of batch.messages) {
    const ids = deliveryIdsOf(message.body) ?? []
    const recorded = await recordDeadLetters(d1, ids, Date.now())
    log.error('notification-dead-letter', {
      queue: batch.queue,
      messageId: message.id,
      body: message.body,
      recorded,
    })
    message.ack()
  }
}
