// `npm start`: applies the D1 migrations locally, serves the Worker with `wrangler dev` on PORT,
// and fires the Cron Triggers on their schedule (wrangler dev does not do that by itself).
import { execSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { cronMatches, cronsOf } from './lib/cron.mjs'

const port = Number(process.env.PORT ?? 8787)
// Nothing may reach the internet locally: no Request.cf download, no usage metrics.
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const base = `http://127.0.0.1:${port}`

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars')
  console.log('Created .dev.vars from .dev.vars.example (local settings, not committed).')
}

execSync('npx wrangler d1 migrations apply DB --local', {
  stdio: 'inherit',
  env: { ...env, CI: 'true' },
})

const dev = spawn(
  'npx',
  ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--test-scheduled',
    '--show-interactive-dev-session=false'],
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
