// Tests run inside workerd with the bindings of wrangler.toml and the real D1 migrations.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import { standInUpstreams } from './src/platforms/stand-in-routes.ts'

// Nothing may reach the internet in tests: no Request.cf download, no usage metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'
process.env.WRANGLER_SEND_METRICS = 'false'

const migrations = await readD1Migrations('./migrations')

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
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
          STAND_IN_URL: inject('standInUrl'),
          RESEND_API_URL: `${inject('standInUrl')}/resend`,
          WHATSAPP_API_URL: `${inject('standInUrl')}/whatsapp`,
          ...standInUpstreams(inject('standInUrl')),
          // The intelligence stand-in speaks grpc-web, so it is a server of its own.
          INTELLIGENCE_URL: inject('intelligenceUrl'),
          // Google sign-in is off unless a test turns it on (`npm start` writes a stand-in's
          // client into .dev.vars, which must not reach the tests).
          GOOGLE_CLIENT_ID: '',
          GOOGLE_CLIENT_SECRET: '',
          GOOGLE_CLIENT_REDIRECTS: '',
          GOOGLE_AUTH_URL: `${inject('standInUrl')}/google/auth`,
          GOOGLE_TOKEN_URL: `${inject('standInUrl')}/google/token`,
          GOOGLE_JWKS_URL: `${inject('standInUrl')}/google/jwks`,
        },
      },
    })),
  ],
  test: {
    // Each platform's tests live in its folder (src/platforms/<id>), beside its fixtures.
    include: ['test/**/*.test.ts', 'src/platforms/**/*.test.ts'],
    setupFiles: ['./test/helpers/setup.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Test files share the stand-ins, so they run one after another.
    fileParallelism: false,
    // A timeout only stops a hang: speed is measured by the benchmarks, never by a test's clock.
    // On a quiet 2-core machine the slowest test on this default takes under 1 s; with both cores
    // busy, 2 to 4 s, which vitest's 5 s default failed. Inherently heavy tests (the fault tests)
    // give their own, with their quiet and loaded times beside it.
    testTimeout: 20_000,
  },
})
