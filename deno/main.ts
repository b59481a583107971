// Deno entry: serves the app over Deno.serve, runs the Cron Triggers on Deno.cron and the queue
// consumers on Deno KV, with SQLite (node:sqlite) as D1. `npm run start:deno` starts it.
import type { ExecutionContext } from 'hono'
import { parseArgs } from 'node:util'
import { createApp } from '../src/app.ts'
import { proxyHeaderSetting } from '../src/env.ts'
import { bumpCatalogueVersion } from '../src/contests/catalogue-version.ts'
import { socketClientAddress } from '../src/http/client-address.ts'
import { CRONS, runCron } from '../src/jobs/cron.ts'
import { consumeQueue } from '../src/jobs/queues.ts'
import { log } from '../src/lib/log.ts'
import { denoEnv } from './env.ts'
import { applyMigrations } from './migrations.ts'
import { consumeQueues, QUEUES } from './queues.ts'
import { openSqliteD1 } from './sqlite-d1.ts'

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    port: { type: 'string', default: Deno.env.get('PORT') ?? '8787' },
    hostname: { type: 'string', default: Deno.env.get('HOSTNAME') ?? '127.0.0.1' },
    // The SQLite database lives here, and the Deno KV file unless `kv` names another.
    state: { type: 'string', default: Deno.env.get('STATE_DIR') ?? '.deno-state' },
    // A KV file path, or `default` for the runtime's own database (Deno Deploy's managed KV).
    kv: { type: 'string', default: Deno.env.get('KV_PATH') },
    migrations: { type: 'string', default: new URL('../migrations', import.meta.url).pathname },
    // As `wrangler dev --test-scheduled`: GET /cdn-cgi/handler/scheduled?cron=<expression> runs
    // that cron's job and answers when it finished (local runs and tests only).
    'test-scheduled': { type: 'boolean', default: false },
    // No cron fires by itself (as under `wrangler dev`): tests fire them through the route above.
    'manual-crons': { type: 'boolean', default: false },
  },
})

// A proxy header that cannot be trusted as asked (the old `true` among them) stops the start:
// serving on would count every client as the proxy, or let clients choose their address.
const { refused } = proxyHeaderSetting(Deno.env.get('TRUST_PROXY_HEADER') ?? '')
if (refused) {
  console.error(refused)
  Deno.exit(1)
}

await Deno.mkdir(args.state, { recursive: true })
const db = openSqliteD1(`${args.state}/db.sqlite`)
const migrated = await applyMigrations(db, args.migrations)
const kv = await Deno.openKv(
  args.kv === 'default' ? undefined : (args.kv ?? `${args.state}/kv.sqlite`),
)
const env = denoEnv(Deno.env.toObject(), db, kv)

// The Cache API persists on disk across processes and databases: a version no earlier run used
// keeps this run from answering out of an old run's public cache.
await bumpCatalogueVersion(env.KV)

// Deno.serve tells the handler the socket's peer; the app asks through the ClientAddress port.
const peers = new WeakMap<Request, string>()
const app = createApp({ clientAddress: socketClientAddress((c) => peers.get(c.req.raw)) })

// Deferred work (defer() in src/http) runs on after the answer, as under waitUntil; a failure is
// logged rather than left unhandled, which would end a Deno process.
const executionCtx: ExecutionContext = {
  waitUntil: (work) => void work.catch((error) => log.error('deferred-work-failed', { error })),
  passThroughOnException: () => {},
  props: {},
}

// Workers log an unhandled rejection and go on serving; Deno would end the process.
globalThis.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
  event.preventDefault()
  log.error('unhandled-rejection', { error: event.reason })
})

async function testScheduled(url: URL): Promise<Response> {
  const cron = url.searchParams.get('cron') ?? ''
  if (!(cron in CRONS))
    return new Response(`No job is scheduled for cron "${cron}"`, { status: 404 })
  try {
    await runCron(cron, env, Date.now())
  } catch {
    // runCron logged job-failed; the caller learns of the failure as a Cron Trigger's would.
    return new Response('Scheduled event failed', { status: 500 })
  }
  return new Response('Ran scheduled event')
}

// Registered unconditionally at the top level, before the server starts: Deno Deploy finds crons
// only there. With --manual-crons a tick does nothing (tests fire them through the route).
// A failing job rejects (after runCron's job-failed line), so Deno records the run as failed, as
// Cron Events do on Workers; no backoffSchedule is given, so the next tick is the retry.
for (const [cron, job] of Object.entries(CRONS)) {
  Deno.cron(job.name, cron, () =>
    args['manual-crons'] ? undefined : runCron(cron, env, Date.now()),
  )
}

const server = Deno.serve(
  { port: Number(args.port), hostname: args.hostname, onListen: () => {} },
  (request, info) => {
    const url = new URL(request.url)
    if (args['test-scheduled'] && url.pathname === '/cdn-cgi/handler/scheduled') {
      return testScheduled(url)
    }
    if (info.remoteAddr.transport === 'tcp') peers.set(request, info.remoteAddr.hostname)
    return app.fetch(request, env, executionCtx)
  },
)

const consuming = consumeQueues(kv, QUEUES, consumeQueue, env)

log.info('runtime-started', {
  runtime: 'deno',
  url: `http://${args.hostname}:${args.port}`,
  state: args.state,
  migrationsApplied: migrated.length,
  crons: args['manual-crons'] ? 'on request' : Object.keys(CRONS),
})

async function shutdown() {
  await server.shutdown()
  kv.close()
  await consuming.catch(() => {})
  db.close()
  Deno.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) Deno.addSignalListener(signal, shutdown)
