// `npm start`: applies the D1 migrations locally, serves the Worker with `wrangler dev` on PORT,
// and fires the Cron Triggers on their schedule (wrangler dev does not do that by itself).
import { execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cronMatches, cronsOf } from './lib/cron.mjs'
import { devVarsWithSecret } from './lib/dev-secret.mjs'
import { startLocalIntelligence } from './intelligence-stand-in.mjs'

const port = Number(process.env.PORT ?? 8787)
// Nothing may reach the internet locally: no Request.cf download, no usage metrics.
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const base = `http://127.0.0.1:${port}`

// Never the example's JWT_SECRET: a token forged with a published secret would be accepted here.
const devVars = devVarsWithSecret(
  existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : undefined,
  readFileSync('.dev.vars.example', 'utf8'),
  () => randomBytes(32).toString('base64url'),
)
if (devVars.action === 'refused') {
  console.error(devVars.message)
  process.exit(1)
}
if (devVars.action !== 'kept') writeFileSync('.dev.vars', devVars.text, { mode: 0o600 })
if (devVars.action === 'created') {
  console.log('Created .dev.vars from .dev.vars.example with a random JWT_SECRET (not committed).')
} else if (devVars.action === 'replaced') {
  console.log(
    'Replaced the published example JWT_SECRET in .dev.vars with a random one: sign in again, ' +
      'and rotate the secrets of local webhook endpoints (they were sealed under the old one).',
  )
} else if (devVars.action === 'added') {
  console.log('Added a random JWT_SECRET to .dev.vars.')
}

execSync('npx wrangler d1 migrations apply DB --local', {
  stdio: 'inherit',
  env: { ...env, CI: 'true' },
})

// The intelligence service runs elsewhere; unless INTELLIGENCE_URL is set (environment first,
// then .dev.vars, which wrangler reads itself), a local grpc-web stand-in answers for it.
const varArgs = []
const intelligenceUrl = process.env.INTELLIGENCE_URL || devVar('INTELLIGENCE_URL')
if (!intelligenceUrl) {
  const { url } = await startLocalIntelligence()
  varArgs.push('--var', `INTELLIGENCE_URL:${url}`)
} else if (process.env.INTELLIGENCE_URL) {
  varArgs.push('--var', `INTELLIGENCE_URL:${process.env.INTELLIGENCE_URL}`)
}

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

function devVar(name) {
  const line = readFileSync('.dev.vars', 'utf8')
    .split('\n')
    .find((l) => l.trim().startsWith(`${name}=`))
  return (
    line
      ?.slice(line.indexOf('=') + 1)
      .trim()
      .replace(/^(["'])(.*)\1$/, '$2') || undefined
  )
}

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
