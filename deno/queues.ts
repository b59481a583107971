// Queues on Deno KV: a producer per queue name over `kv.enqueue`, and one consumer loop that hands
// each message to the queue router as a one-message batch, with Cloudflare's retry and DLQ rules.
import type { QueueBatch, QueueMessage, QueueProducer } from '../src/ports/queue.ts'

/** A consumed queue's settings, as its `[[queues.consumers]]` entry in wrangler.toml. */
export interface QueueSettings {
  /** Retries after the first delivery; then the message goes to `deadLetterQueue`, or is dropped. */
  maxRetries: number
  deadLetterQueue?: string
  /** The delay of a retry that names none (wrangler's `retry_delay`); 0 when unset. */
  retryDelaySeconds?: number
}

export type QueueConfig = Record<string, QueueSettings>

/** wrangler.toml's consumers. */
export const QUEUES: QueueConfig = {
  notifications: { maxRetries: 3, deadLetterQueue: 'notifications-dlq' },
  'notifications-dlq': { maxRetries: 0 },
  webhooks: { maxRetries: 10, deadLetterQueue: 'webhooks-dlq' },
  'webhooks-dlq': { maxRetries: 0 },
  sync: { maxRetries: 0 },
  results: { maxRetries: 3 },
}

/** Cloudflare's `max_retries` when a queue has no consumer settings. */
const DEFAULT_SETTINGS: QueueSettings = { maxRetries: 3 }

/** One Deno KV queue carries every named queue, so each message says which it belongs to. */
interface Envelope {
  queue: string
  id: string
  body: unknown
  attempts: number
}

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Envelope).queue === 'string' &&
  typeof (value as Envelope).id === 'string' &&
  typeof (value as Envelope).attempts === 'number'

/** Where Deno KV keeps a message it could not deliver (the consumer loop itself kept failing). */
export const UNDELIVERED_PREFIX = ['queue-undelivered']

const enqueueOptions = (message: Envelope, delaySeconds = 0) => ({
  delay: Math.max(0, Math.round(delaySeconds * 1000)),
  keysIfUndelivered: [[...UNDELIVERED_PREFIX, message.queue, message.id]],
})

const envelope = (queue: string, body: unknown): Envelope => ({
  queue,
  id: crypto.randomUUID(),
  body,
  attempts: 1,
})

/** Deno KV allows a bounded number of mutations per atomic operation. */
const BATCH_CHUNK = 100

export function queueProducer<Body = unknown>(kv: Deno.Kv, queue: string): QueueProducer<Body> {
  return {
    async send(body, options) {
      const message = envelope(queue, body)
      await kv.enqueue(message, enqueueOptions(message, options?.delaySeconds))
    },

    async sendBatch(messages) {
      const all = [...messages]
      for (let i = 0; i < all.length; i += BATCH_CHUNK) {
        let op = kv.atomic()
        for (const { body, delaySeconds } of all.slice(i, i + BATCH_CHUNK)) {
          const message = envelope(queue, body)
          op = op.enqueue(message, enqueueOptions(message, delaySeconds))
        }
        const { ok } = await op.commit()
        if (!ok) throw new Error(`Could not send a batch to queue "${queue}"`)
      }
    },
  }
}

export type QueueHandler<E> = (batch: QueueBatch, env: E) => Promise<void>

type Outcome = { kind: 'ack' } | { kind: 'retry'; delaySeconds?: number }

/**
 * Delivers every message of `kv`'s queue to `handler` (e.g. consumeQueue) until `kv` is closed;
 * the returned promise settles then. Deno KV allows one listener per database.
 */
export function consumeQueues<E>(
  kv: Deno.Kv,
  config: QueueConfig,
  handler: QueueHandler<E>,
  env: E,
): Promise<void> {
  return kv.listenQueue(async (value: unknown) => {
    if (!isEnvelope(value)) return
    const settings = config[value.queue] ?? DEFAULT_SETTINGS
    let outcome: Outcome | undefined
    const message: QueueMessage = {
      id: value.id,
      body: value.body,
      attempts: value.attempts,
      ack: () => void (outcome ??= { kind: 'ack' }),
      retry: (options) => void (outcome ??= { kind: 'retry', delaySeconds: options?.delaySeconds }),
    }
    try {
      await handler({ queue: value.queue, messages: [message] }, env)
      // A batch whose handler returns is acknowledged, except messages explicitly retried.
      outcome ??= { kind: 'ack' }
    } catch {
      // An unhandled throw retries every message the handler had not settled.
      outcome ??= { kind: 'retry' }
    }
    if (outcome.kind === 'ack') return
    await retry(kv, value, settings, outcome.delaySeconds ?? settings.retryDelaySeconds)
  })
}

/** Enqueues the next attempt, or moves a message out of retries to its dead-letter queue. */
async function retry(kv: Deno.Kv, message: Envelope, settings: QueueSettings, delay?: number) {
  if (message.attempts <= settings.maxRetries) {
    const next = { ...message, attempts: message.attempts + 1 }
    await kv.enqueue(next, enqueueOptions(next, delay))
    return
  }
  if (settings.deadLetterQueue === undefined) return
  const dead = { ...message, queue: settings.deadLetterQueue, attempts: 1 }
  await kv.enqueue(dead, enqueueOptions(dead))
}
