// Types of the bindings the test runtime provides.
import type { D1Migration } from '@cloudflare/vitest-pool-workers'
import type { Env } from '../src/env.ts'

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database
      KV: KVNamespace
      NOTIFICATIONS_QUEUE: Queue
      RATE_LIMITER: DurableObjectNamespace
      TEST_MIGRATIONS: D1Migration[]
      STAND_IN_URL: string
    }
  }
}
export type { Env }
