// Consumer of the webhooks queue: one signed attempt per message, recorded on the delivery, then
// acknowledged or retried after the schedule's delay. Also the dead-letter consumer.
import { createDb, type Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { attemptDelivery, type WebhookFetchFn } from './attempt.ts'
import { webhookConfig, type WebhookConfig } from './config.ts'
import { loadDelivery, markDeliveryFailed, recordAttempt } from './deliveries.ts'
import type { WebhookMessage } from './emit.ts'
import { decideAfterAttempt, type AttemptResult } from './retry-schedule.ts'
import type { DeliveryRow, EndpointRow } from './rows.ts'
import { openSecret } from './secret.ts'
import { webhookHeaders } from './signing.ts'
import { webhookTargetProblem } from './target.ts'
import type { QueueBatch, QueueMessage } from '../ports/queue.ts'

export interface ConsumerOptions {
  fetchFn?: WebhookFetchFn
  /** The time of each attempt; the clock unless a test moves it. */
  clock?: () => number
}

interface Deps {
  db: Db
  config: WebhookConfig
  fetchFn: WebhookFetchFn
  clock: () => number
}

// A consumer that fails unexpectedly (D1 unavailable) tries the message again after this.
const ERROR_RETRY_SECONDS = 60

export async function consumeWebhookDeliveries(
  batch: QueueBatch,
  env: Env,
  options: ConsumerOptions = {},
): Promise<void> {
  const deps: Deps = {
    db: createDb(env.DB),
    config: webhookConfig(env),
    fetchFn: options.fetchFn ?? ((url, init) => fetch(url, init)),
    clock: options.clock ?? Date.now,
  }
  await Promise.all(
    (batch.messages as readonly QueueMessage<WebhookMessage>[]).map(async (message) => {
      try {
        await handle(deps, message)
      } catch (err) {
        log.error('webhook-consumer-failed', { error: err })
        message.retry({ delaySeconds: ERROR_RETRY_SECONDS })
      }
    }),
  )
}

async function handle(deps: Deps, message: QueueMessage<WebhookMessage>): Promise<void> {
  const id = message.body?.deliveryId
  const loaded = typeof id === 'string' ? await loadDelivery(deps.db, id) : undefined
  // The endpoint was deleted (its deliveries with it), or a message of another shape.
  if (!loaded) return message.ack()
  const { delivery, endpoint } = loaded
  if (delivery.status === 'succeeded' || delivery.status === 'failed') return message.ack()
  const now = deps.clock()
  if (!endpoint.enabled) {
    await markDeliveryFailed(deps.db, delivery.id, 'Not sent: the endpoint is disabled', now)
    return message.ack()
  }
  const result = await attempt(deps, delivery, endpoint, now)
  const decision = decideAfterAttempt(result, delivery.attempts + 1, endpoint.failingSince, now)
  await recordAttempt(deps.db, delivery, result, decision, now)
  if (decision.disableReason) {
    log.warn('webhook-endpoint-disabled', {
      endpointId: endpoint.id,
      reason: decision.disableReason,
    })
  }
  if (decision.retryDelaySeconds === undefined) return message.ack()
  message.retry({ delaySeconds: decision.retryDelaySeconds })
}

async function attempt(
  deps: Deps,
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  now: number,
): Promise<AttemptResult> {
  // Checked again at each delivery: the setting may have changed since the endpoint was made.
  const refused = webhookTargetProblem(endpoint.url, deps.config.allowLocalTargets)
  if (refused) return { kind: 'failure', error: `Not sent: ${refused}`, retryable: false }
  const secret = await openSecret(deps.config, endpoint.id, endpoint.secretCiphertext)
  const headers = await webhookHeaders(secret, delivery.eventId, now, delivery.payload)
  return attemptDelivery(deps.fetchFn, endpoint.url, headers, delivery.payload)
}

/** Messages that ran out of queue retries: their deliveries end as failed rather than linger. */
export async function failDeadWebhookDeliveries(batch: QueueBatch, env: Env): Promise<void> {
  const db = createDb(env.DB)
  const now = Date.now()
  for (const message of batch.messages as readonly QueueMessage<WebhookMessage>[]) {
    const id = message.body?.deliveryId
    if (typeof id === 'string') {
      await markDeliveryFailed(db, id, 'Gave up: the queue ran out of retries', now)
    }
    log.error('webhook-dead-letter', {
      queue: batch.queue,
      messageId: message.id,
      body: message.body,
    })
    message.ack()
  }
}
