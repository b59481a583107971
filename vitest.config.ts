// Tests run inside workerd with the bindings of wrangler.toml and the real D1 migrations.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import { standInUpstreams } from './src/platforms/stand-in-routes.ts'

// Nothing may reach the internet in tests: no Request.cf download, no usage metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'
process.env.WRANGLER_SEND_METRICS = 'false'

const migrations = await readD1Migrations('./migrations')

// Each vitest worker starts its own workerd (with its own D1, KV, queues and Durable Objects) and
// calls the stand-in through its own space of it (`/w/<n>`, test/stand-ins/providers.ts), so
// files running at once share no state.
let workers = 0

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => {
      const standInUrl = `${inject('standInUrl')}/w/${++workers}`
      return {
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // Pinned here so that a developer's own .dev.vars cannot change what the tests see.
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
            BOOTSTRAP_ADMIN_EMAILS: 'admin@example.test',
            DEV_OUTBOX: 'false',
            // Off as deployed; tests that use the loopback stand-ins as receivers turn it on.
            ALLOW_LOCAL_TARGETS: 'false',
            // Every upstream and provider points at the loopback stand-in (test/stand-ins).
            STAND_IN_URL: standInUrl,
            RESEND_API_URL: `${standInUrl}/resend`,
            WHATSAPP_API_URL: `${standInUrl}/whatsapp`,
            ...standInUpstreams(standInUrl),
            // The intelligence stand-in speaks grpc-web, so it is a server of its own.
            INTELLIGENCE_URL: inject('intelligenceUrl'),
            // Google sign-in is off unless a test turns it on (`npm start` writes a stand-in's
            // client into .dev.vars, which must not reach the tests).
            GOOGLE_CLIENT_ID: '',
            GOOGLE_CLIENT_SECRET: '',
            GOOGLE_CLIENT_REDIRECTS: '',
            GOOGLE_AUTH_URL: `${standInUrl}/google/auth`,
            GOOGLE_TOKEN_URL: `${standInUrl}/google/token`,
            GOOGLE_JWKS_URL: `${standInUrl}/google/jwks`,
          },
        },
      }
    }),
  ],
  test: {
    // Each platform's tests live in its folder (src/platforms/<id>), beside its fixtures.
    include: ['test/**/*.test.ts', 'src/platforms/**/*.test.ts'],
    setupFiles: ['./test/helpers/setup.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // A worker's files share its workerd, so the Worker's modules are loaded once per worker, not
    // once per file (five to ten seconds a file); test/helpers/setup.ts empties D1 and KV and the
    // worker's stand-in space before each file. Two workers: the machine CI runs on has 2 cores.
    isolate: false,
    maxWorkers: 2,
    // A timeout only stops a hang: speed is measured by the benchmarks, never by a test's clock.
    // On a quiet 2-core machine the slowest test on this default takes under 1 s; with both cores
    // busy, 2 to 4 s, which vitest's 5 s default failed. Inherently heavy tests (the fault tests)
    // give their own, with their quiet and loaded times beside it.
    testTimeout: 20_000,
  },
})
