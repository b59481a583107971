// Runs before each test file: applies the real D1 migrations (once per workerd: later files find
// them applied), empties what an earlier file in the same workerd wrote, clears the worker's space
// of the provider stand-in, so what one file scripted (a Resend outage, 30% failures) never answers
// the next's, and gives the file a client address of its own.
import { applyD1Migrations, env } from 'cloudflare:test'
import { freshState } from './fresh-state.ts'
import { standIn } from './stand-in.ts'
import { nextFileAddress } from './worker.ts'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
await freshState(env)
await standIn.reset()
nextFileAddress()
