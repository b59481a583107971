// Queue router: each consumed queue of wrangler.toml is handed to its consumer.
import { isAnnouncementMessage } from '../communities/announce.ts'
import { isCommunityChangeMessage } from '../communities/changes.ts'
import { consumeAnnouncements, consumeDeadAnnouncements } from '../communities/consumer.ts'
import { isCommunityEventMessage } from '../communities/events.ts'
import { isRankPostMessage } from '../communities/rank-posts.ts'
import type { Env } from '../env.ts'
import type { QueueBatch, QueueMessage } from '../ports/queue.ts'
import {
  consumeNotificationDeadLetters,
  consumeNotificationQueue,
} from '../notifications/scheduling/queue-consumer.ts'
import { consumeSyncQueue } from '../sync/queue.ts'
import { consumeResultsQueue } from './results.ts'
import { consumeWebhookDeliveries, failDeadWebhookDeliveries } from '../webhooks/consumer.ts'

export type Consumer = (batch: QueueBatch, env: Env) => Promise<void>

/**
 * The notifications queue also carries community announcements (communities/): those go to their
 * consumer, the rest (fan-out pages, deliveries) to the notifications'.
 */
function withAnnouncements(
  rest: Consumer,
  announcements: (messages: readonly QueueMessage[], env: Env) => Promise<void>,
): Consumer {
  return async (batch, env) => {
    const ours = (body: unknown) =>
      isAnnouncementMessage(body) ||
      isCommunityEventMessage(body) ||
      isRankPostMessage(body) ||
      isCommunityChangeMessage(body)
    const mine = batch.messages.filter((m) => ours(m.body))
    const others = batch.messages.filter((m) => !ours(m.body))
    if (mine.length > 0) await announcements(mine, env)
    if (others.length > 0) await rest({ queue: batch.queue, messages: others }, env)
  }
}

const CONSUMERS: Record<string, Consumer> = {
  notifications: withAnnouncements(consumeNotificationQueue, consumeAnnouncements),
  'notifications-dlq': withAnnouncements(consumeNotificationDeadLetters, consumeDeadAnnouncements),
  webhooks: consumeWebhookDeliveries,
  'webhooks-dlq': failDeadWebhookDeliveries,
  sync: consumeSyncQueue,
  results: consumeResultsQueue,
}

export async function consumeQueue(batch: QueueBatch, env: Env): Promise<void> {
  const consumer = CONSUMERS[batch.queue]
  if (!consumer) throw new Error(`No consumer for queue "${batch.queue}"`)
  await consumer(batch, env)
}
