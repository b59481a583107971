// Worker entry: HTTP, Cron Triggers and Queue consumers, plus the Durable Object export.
import { createApp } from './app.ts'
import type { Env } from './env.ts'
import { cloudflareClientAddress } from './http/client-address.ts'
import { runCron } from './jobs/cron.ts'
import { consumeQueue } from './jobs/queues.ts'

export { RateLimiter } from './rate-limit/rate-limiter.ts'

// On Cloudflare the edge sets CF-Connecting-IP itself, so the header is the client.
const app = createApp({ clientAddress: cloudflareClientAddress })

export default {
  fetch: app.fetch,
  // Awaited, not handed to waitUntil: the invocation then fails when its job fails, which is what
  // the dashboard's Cron Events record (docs/operations.md).
  async scheduled(controller, env, _ctx) {
    await runCron(controller.cron, env, controller.scheduledTime)
  },
  async queue(batch, env) {
    await consumeQueue(batch, env)
  },
} satisfies ExportedHandler<Env>
