// `npm run seed [-- --runtime deno]`: fills the local database (the one `npm start`, or with
// `--runtime deno` the one `npm run start:deno`, uses) with the recorded payloads of all four
// platforms, through the real adapters and sync job, without any internet access.
import { parseArgs } from 'node:util'
import { startDenoServer, startDevServer, wrangler } from './lib/dev-server.mjs'
import { awaitPlatformSyncs } from './lib/await-sync.mjs'
import { startFixtureServer } from './lib/fixture-server.mjs'

const PORT = Number(process.env.SEED_PORT ?? 8791)
const SYNC_CRON = '0 */6 * * *'
const { values } = parseArgs({ options: { runtime: { type: 'string', default: 'workers' } } })
if (!['workers', 'deno'].includes(values.runtime)) {
  console.error(`Unknown runtime "${values.runtime}"; known: workers, deno`)
  process.exit(2)
}

const fixtures = await startFixtureServer()
console.log(
  `Serving recorded payloads on ${fixtures.url} (times moved ${fixtures.shiftMs / 86_400_000} days)`,
)
const vars = {
  ...fixtures.upstreams,
}

let server
if (values.runtime === 'deno') {
  // The Deno entry migrates its own database on start.
  const state = process.env.STATE_DIR ?? '.deno-state'
  server = await startDenoServer({ port: PORT, state, testScheduled: true, vars })
} else {
  const persistTo = '.wrangler/state'
  wrangler(`d1 migrations apply DB --local --persist-to ${persistTo}`)
  server = await startDevServer({ port: PORT, persistTo, testScheduled: true, vars })
}
let status = 0
try {
  const since = Date.now() - 1000
  const res = await fetch(
    `${server.base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(SYNC_CRON)}`,
  )
  if (!res.ok) throw new Error(`sync cron answered ${res.status}`)
  const platforms = await awaitPlatformSyncs(server.base, since)
  for (const p of platforms.filter((p) => p.enabled)) {
    console.log(`  ${p.name.padEnd(16)} ${p.state.padEnd(8)} ${p.upcoming} upcoming`)
  }
  const upcoming = await (await fetch(`${server.base}/contests/upcoming`)).json()
  const stats = await (await fetch(`${server.base}/contests/stats`)).json()
  console.log(`Catalogue: ${stats.totalContests} contests`, stats.platformBreakdown)
  console.log(
    `Upcoming: ${upcoming.length}, platforms ${[...new Set(upcoming.map((c) => c.platform))].join(', ')}`,
  )
} catch (err) {
  console.error(`Seed failed: ${err.message}`)
  status = 1
} finally {
  await server.stop()
  fixtures.server.close()
}
process.exit(status)
