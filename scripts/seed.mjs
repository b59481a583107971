// `npm run seed`: fills the local database (the one `npm start` uses) with the recorded payloads of
// all four platforms, through the real adapters and sync job, without any internet access.
import { startDevServer, wrangler } from './lib/dev-server.mjs'
import { startFixtureServer } from './lib/fixture-server.mjs'

const PORT = Number(process.env.SEED_PORT ?? 8791)
const STATE = '.wrangler/state'
const SYNC_CRON = '0 */6 * * *'

const fixtures = await startFixtureServer()
console.log(
  `Serving recorded payloads on ${fixtures.url} (times moved ${fixtures.shiftMs / 86_400_000} days)`,
)
wrangler(`d1 migrations apply DB --local --persist-to ${STATE}`)

const server = await startDevServer({
  port: PORT,
  persistTo: STATE,
  testScheduled: true,
  vars: {
    CODEFORCES_API_URL: `${fixtures.url}/codeforces/api`,
    LEETCODE_API_URL: `${fixtures.url}/leetcode`,
    CODECHEF_API_URL: `${fixtures.url}/codechef`,
    ATCODER_URL: `${fixtures.url}/atcoder`,
  },
})
let status = 0
try {
  const res = await fetch(
    `${server.base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(SYNC_CRON)}`,
  )
  if (!res.ok) throw new Error(`sync cron answered ${res.status}`)
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
  server.stop()
  fixtures.server.close()
}
process.exit(status)
