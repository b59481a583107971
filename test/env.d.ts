// Types of the bindings the test runtime provides: the Worker's own plus the test-only ones.
import type { D1Migration } from '@cloudflare/vitest-pool-workers'
import type { Env as WorkerEnv } from '../src/env.ts'

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[]
      STAND_IN_URL: string
      INTELLIGENCE_URL: string
    }
  }
}
