// Types of the bindings the test runtime provides: the Worker's own plus the test-only ones.
import type { D1Migration } from '@cloudflare/vitest-pool-workers'

// `env` from cloudflare:test is Cloudflare.Env, which worker-configuration.d.ts and the secrets of
// src/env.ts already fill; this adds what vitest.config.ts binds on top. Merging is global, so
// under tsc src sees these too; `npm run check:deno` (no test/) is the check that src does not
// use them.
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[]
      STAND_IN_URL: string
      // Always bound in tests (the intelligence stand-in), so not optional here.
      INTELLIGENCE_URL: string
    }
  }
}

// What test/global-setup.ts provides to the tests through inject() (declared there for Node).
declare module 'vitest' {
  export interface ProvidedContext {
    /** FAULT_SEED from the environment ('' when unset): replays a fault-injection run. */
    faultSeed: string
  }
}
