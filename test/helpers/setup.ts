// Runs before each test file: applies the real D1 migrations, and clears the provider stand-in,
// so what one file scripted (a Resend outage, 30% failures) never answers the next file's calls.
import { applyD1Migrations, env } from 'cloudflare:test'
import { standIn } from './stand-in.ts'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
await standIn.reset()
