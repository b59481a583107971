// Queue consumers: the notifications queue sends one delivery per message and acks or retries
// each message on its own; the dead-letter queue records what the queue gave up on as FAILED.
import type { Env } from '../../env.ts'
import { log } from '../../lib/log.ts'
import type { QueueBatch, QueueMessage } from '../../ports/queue.ts'
import { notifier, type Notifier } from '../context.ts'
import { attemptNotificationDelivery } from './deliver.ts'
import { recordDeadLetter } from './delivery-store.ts'
import { MAX_DELAY_SECONDS, type DeliveryMessage } from './enqueue.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from './status.ts'

// Messages of a batch sent at once; Workers run six outgoing connections at a time anyway.
const PARALLEL_MESSAGES = 6

function deliveryIdOf(body: unknown): string | undefined {
  const id = (body as Partial<DeliveryMessage> | null)?.deliveryId
  return typeof id === 'string' && /^[0-9a-f]{24}$/.test(id) ? id : undefined
}

async function handle(n: Notifier, message: QueueMessage): Promise<void> {
  const deliveryId = deliveryIdOf(message.body)
  if (!deliveryId) {
    // Nothing can ever be done with it; retrying would only move it to the dead-letter queue.
    log.warn('notification-message-malformed', { messageId: message.id })
    message.ack()
    return
  }
  try {
    const outcome = await attemptNotificationDelivery(n, deliveryId, {
      now: Date.now(),
      attempt: message.attempts,
    })
    if (outcome.kind === 'held') {
      // A new message, not a retry: waiting for its time spends none of the delivery's retries.
      // A wait longer than the queue allows is held again when the message comes back.
      const delaySeconds = Math.min(outcome.delaySeconds, MAX_DELAY_SECONDS)
      await n.queue.send({ deliveryId } satisfies DeliveryMessage, { delaySeconds })
      message.ack()
    } else if (outcome.kind === 'retry' || outcome.kind === 'busy') {
      message.retry({ delaySeconds: outcome.delaySeconds })
    } else {
      message.ack()
    }
    if (outcome.kind === 'failed' || outcome.kind === 'retry') {
      log.warn('notification-delivery-failed', {
        deliveryId,
        attempt: message.attempts,
        ...outcome,
      })
    }
  } catch (error) {
    // D1 or another binding failed: the queue tries again, and after the last retry the
    // dead-letter consumer records the delivery as FAILED.
    const step = Math.min(message.attempts, NOTIFICATION_RETRY_DELAYS_SECONDS.length) - 1
    log.error('notification-delivery-error', { deliveryId, error })
    message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[Math.max(0, step)] })
  }
}

export async function consumeNotifications(batch: QueueBatch, env: Env) {
  const n = notifier(env)
  const messages = [...batch.messages]
  for (let i = 0; i < messages.length; i += PARALLEL_MESSAGES) {
    await Promise.all(messages.slice(i, i + PARALLEL_MESSAGES).map((m) => handle(n, m)))
  }
}

/** Every dead letter is recorded against its delivery, then acknowledged. */
export async function consumeDeadLetters(batch: QueueBatch, env: Env) {
  const { d1 } = notifier(env)
  for (const message of batch.messages) {
    const deliveryId = deliveryIdOf(message.body)
    const recorded = deliveryId ? await recordDeadLetter(d1, deliveryId, Date.now()) : false
    log.error('notification-dead-letter', {
      queue: batch.queue,
      messageId: message.id,
      body: message.body,
      recorded,
    })
    message.ack()
  }
}
