// The Deno entry's copies of wrangler.toml (queue consumers and producers, crons) agree with it, so
// a queue retries, dead-letters and runs on the same schedule on both runtimes.
import assert from 'node:assert/strict'
import { parse } from 'smol-toml'
import { CRONS } from '../src/jobs/cron.ts'
import { QUEUE_BINDINGS } from './env.ts'
import { QUEUES, type QueueSettings } from './queues.ts'

interface WranglerConfig {
  queues: {
    producers: { binding: string; queue: string }[]
    consumers: {
      queue: string
      max_retries?: number
      dead_letter_queue?: string
      retry_delay?: number
    }[]
  }
  triggers: { crons: string[] }
}

const config = parse(
  await Deno.readTextFile(new URL('../wrangler.toml', import.meta.url)),
) as unknown as WranglerConfig

Deno.test(
  'every consumer of wrangler.toml has the same retries, dead-letter queue and delay',
  () => {
    const fromToml: Record<string, QueueSettings> = {}
    for (const consumer of config.queues.consumers) {
      fromToml[consumer.queue] = {
        // Cloudflare's default when max_retries is unset.
        maxRetries: consumer.max_retries ?? 3,
        ...(consumer.dead_letter_queue ? { deadLetterQueue: consumer.dead_letter_queue } : {}),
        ...(consumer.retry_delay ? { retryDelaySeconds: consumer.retry_delay } : {}),
      }
    }
    assert.deepEqual(QUEUES, fromToml)
  },
)

Deno.test('each producer binding sends to the queue wrangler.toml names', () => {
  const fromToml = Object.fromEntries(config.queues.producers.map((p) => [p.binding, p.queue]))
  assert.deepEqual(QUEUE_BINDINGS, fromToml)
})

Deno.test('Deno.cron runs the crons of wrangler.toml', () => {
  assert.deepEqual(Object.keys(CRONS).sort(), [...config.triggers.crons].sort())
})
