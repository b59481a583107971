// `npm start`: applies the D1 migrations locally, serves the Worker with `wrangler dev` on PORT,
// and fires the Cron Triggers on their schedule (wrangler dev does not do that by itself).
import { readFileSync } from 'node:fs'
import { cronMatches, cronsOf } from './lib/cron.mjs'
import { startDevServer, wrangler } from './lib/dev-server.mjs'
import { googleStandIn, intelligenceUrl, parseDevVars, prepareDevVars } from './lib/local-run.mjs'

const port = Number(process.env.PORT ?? 8787)
const persistTo = '.wrangler/state'

const devVars = parseDevVars(prepareDevVars())
wrangler(`d1 migrations apply DB --local --persist-to ${persistTo}`, { stdio: 'inherit' })

// The intelligence service runs elsewhere; unless INTELLIGENCE_URL is set (environment first,
// then .dev.vars, which wrangler reads itself), a local grpc-web stand-in answers for it.
const intelligence = await intelligenceUrl(devVars)
// Sign in with Google against a loopback stand-in, when .dev.vars points there (it does at first).
await googleStandIn(devVars)
// wrangler (offline: no Request.cf download, no metrics) reads .dev.vars itself.
const server = await startDevServer({
  port,
  persistTo,
  vars: intelligence.fromEnvironment ? { INTELLIGENCE_URL: intelligence.url } : {},
  testScheduled: true,
  logLevel: process.env.WRANGLER_LOG_LEVEL ?? 'log',
  readyTimeoutMs: 120_000,
})
const base = server.base
console.log(`[wrangler] serving on ${base}`)

const crons = cronsOf(readFileSync('wrangler.toml', 'utf8'))

async function fire(cron, time) {
  const url = `${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}&time=${time}`
  try {
    const res = await fetch(url)
    console.log(`[cron] ${cron} -> ${res.status}`)
  } catch (err) {
    console.error(`[cron] ${cron} failed: ${err.message}`)
  }
}

// Wake at each minute boundary and fire every cron expression that matches that minute.
function scheduleNextMinute() {
  const now = Date.now()
  const next = Math.floor(now / 60_000) * 60_000 + 60_000
  setTimeout(() => {
    const at = new Date(next)
    for (const cron of crons) if (cronMatches(cron, at)) void fire(cron, next)
    scheduleNextMinute()
  }, next - now).unref()
}
scheduleNextMinute()
console.log(`[cron] driving ${crons.join(', ')} against ${base}`)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void server.stop().then(() => process.exit(0)))
}
process.exitCode = Number(await server.exited) || 0
