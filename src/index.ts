// Worker entry: HTTP, Cron Triggers and Queue consumers, plus the Durable Object export.
import { createApp } from './app'
import type { Env } from './env'
import { runCron } from './jobs/cron'
import { consumeQueue } from './jobs/queues'

export { RateLimiter } from './rate-limit/rate-limiter'

const app = createApp()

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(controller.cron, env, controller.scheduledTime))
  },
  async queue(batch, env) {
    await consumeQueue(batch, env)
  },
} satisfies ExportedHandler<Env>
