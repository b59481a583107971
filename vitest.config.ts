// Tests run inside workerd with the bindings of wrangler.toml and the real D1 migrations.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

// Nothing may reach the internet in tests: no Request.cf download, no usage metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'
process.env.WRANGLER_SEND_METRICS = 'false'

export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // Pinned here so that a developer's own .dev.vars cannot change what the tests see.
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
          JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
          BOOTSTRAP_ADMIN_EMAILS: 'admin@example.test',
          DEV_OUTBOX: 'false',
        },
      },
    }),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/helpers/setup.ts'],
  },
}))
