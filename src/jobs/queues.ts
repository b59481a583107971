// Queue router: each consumed queue of wrangler.toml is handed to its consumer.
import type { Env } from '../env.ts'
import { consumeWebhookDeliveries, failDeadWebhookDeliveries } from '../webhooks/consumer.ts'

export type Consumer = (batch: MessageBatch, env: Env) => Promise<void>

/** Dead letters are logged in full so none vanishes unseen. */
const logDeadLetters: Consumer = async (batch) => {
  for (const message of batch.messages) {
    console.error(JSON.stringify({ queue: batch.queue, deadLetter: message.id, body: message.body }))
    message.ack()
  }
}

const CONSUMERS: Record<string, Consumer> = {
  'notifications-dlq': logDeadLetters,
  webhooks: consumeWebhookDeliveries,
  'webhooks-dlq': failDeadWebhookDeliveries,
}

export async function consumeQueue(batch: MessageBatch, env: Env): Promise<void> {
  const consumer = CONSUMERS[batch.queue]
  if (!consumer) throw new Error(`No consumer for queue "${batch.queue}"`)
  await consumer(batch, env)
}
