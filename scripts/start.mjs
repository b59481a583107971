// `npm start`: applies the D1 migrations locally, serves the Worker with `wrangler dev` on PORT,
// and fires the Cron Triggers on their schedule (wrangler dev does not do that by itself).
import { execSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cronMatches, cronsOf } from './lib/cron.mjs'
import { intelligenceUrl, parseDevVars, prepareDevVars } from './lib/local-run.mjs'

const port = Number(process.env.PORT ?? 8787)
// Nothing may reach the internet locally: no Request.cf download, no usage metrics.
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const base = `http://127.0.0.1:${port}`

const devVars = parseDevVars(prepareDevVars())

execSync('npx wrangler d1 migrations apply DB --local', {
  stdio: 'inherit',
  env: { ...env, CI: 'true' },
})

// The intelligence service runs elsewhere; unless INTELLIGENCE_URL is set (environment first,
// then .dev.vars, which wrangler reads itself), a local grpc-web stand-in answers for it.
const intelligence = await intelligenceUrl(devVars)
const varArgs = intelligence.fromEnvironment
  ? ['--var', `INTELLIGENCE_URL:${intelligence.url}`]
  : []

const dev = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--test-scheduled',
    '--show-interactive-dev-session=false',
    ...varArgs,
  ],
  { stdio: 'inherit', env },
)

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

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal))
dev.on('exit', (code) => process.exit(code ?? 0))
