// Queue router: each consumed queue of wrangler.toml is handed to its consumer.
import type { Env } from '../env.ts'
import type { QueueBatch } from '../ports/queue.ts'
import {
  consumeNotificationDeadLetters,
  consumeNotificationQueue,
} from '../notifications/scheduling/queue-consumer.ts'
import { consumeSyncQueue } from '../sync/queue.ts'
import { consumeWebhookDeliveries, failDeadWebhookDeliveries } from '../webhooks/consumer.ts'

export type Consumer = (batch: QueueBatch, env: Env) => Promise<void>

const CONSUMERS: Record<string, Consumer> = {
  notifications: consumeNotificationQueue,
  'notifications-dlq': consumeNotificationDeadLetters,
  webhooks: consumeWebhookDeliveries,
  'webhooks-dlq': failDeadWebhookDeliveries,
  sync: consumeSyncQueue,
}

export async function consumeQueue(batch: QueueBatch, env: Env): Promise<void> {
  const consumer = CONSUMERS[batch.queue]
  if (!consumer) throw new Error(`No consumer for queue "${batch.queue}"`)
  await consumer(batch, env)
}
