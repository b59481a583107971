// `npm run start:deno`: the whole service on Deno (deno/main.ts) on PORT, with the same .dev.vars
// and intelligence stand-in as `npm start`. The entry migrates its SQLite file (.deno-state/) on
// start and runs the crons on Deno.cron; the scheduled route runs one by hand, as under `npm start`.
import { startDenoServer } from './lib/dev-server.mjs'
import { googleStandIn, intelligenceUrl, parseDevVars, prepareDevVars } from './lib/local-run.mjs'

const port = Number(process.env.PORT ?? 8787)
const devVars = parseDevVars(prepareDevVars())
const intelligence = await intelligenceUrl(devVars)
await googleStandIn(devVars)

const state = process.env.STATE_DIR ?? '.deno-state'
const server = await startDenoServer({
  port,
  state,
  // .dev.vars are the settings, as they are the Worker's under `npm start`.
  vars: { ...devVars, INTELLIGENCE_URL: intelligence.url },
  testScheduled: true,
  manualCrons: false,
  readyTimeoutMs: 120_000,
})
console.log(`[deno] serving on ${server.base} (state in ${state}/, crons on Deno.cron)`)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void server.stop().then(() => process.exit(0)))
}
process.exitCode = Number(await server.exited) || 0
