// The runtimes the contract suite can run against. Each starter brings the service up on loopback,
// configured to reach only the stand-in, and answers what the suite needs: the base URL, a way to
// fire a Cron Trigger, and stop(): `workers` (wrangler dev) and `deno` (deno/main.ts).
import { randomBytes } from 'node:crypto'
import { openSync, closeSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, startDenoServer, startDevServer, wrangler } from '../scripts/lib/dev-server.mjs'
import { importTypeScript } from '../scripts/lib/import-typescript.mjs'

const { standInUpstreams } = await importTypeScript('src/platforms/stand-in-routes.ts')

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * Settings every runtime gets: providers and platforms at the stand-in, mail through the Resend
 * stand-in, a fresh secret, the suite's admin address, loopback webhook receivers allowed.
 */
export function contractSettings({ standInUrl, adminEmail, contactEmail }) {
  return {
    // 48 characters, random for each run.
    JWT_SECRET: randomBytes(36).toString('base64url'),
    BOOTSTRAP_ADMIN_EMAILS: adminEmail,
    CONTACT_EMAIL: contactEmail,
    RESEND_API_KEY: 're_contract_suite',
    RESEND_API_URL: `${standInUrl}/resend`,
    WHATSAPP_API_URL: `${standInUrl}/whatsapp`,
    // Every platform's upstream on the stand-in, so nothing a run does can reach a real judge.
    ...standInUpstreams(standInUrl),
    ALLOW_LOCAL_TARGETS: 'true',
    DEV_OUTBOX: 'false',
  }
}

/** Last lines of a log file, for a failure report. */
function tail(path, lines = 150) {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

/**
 * What the suite holds of a running service: both runtimes fire a Cron Trigger through the same
 * test route (`--test-scheduled`), which answers once the job finished.
 */
function running(name, server, logFile, output) {
  return {
    name,
    base: server.base,
    async fireCron(cron) {
      const url = `${server.base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}`
      const res = await fetch(url)
      if (!res.ok) throw new Error(`cron ${cron} answered ${res.status}: ${await res.text()}`)
    },
    log: () => tail(logFile),
    async stop() {
      await server.stop()
      closeSync(output)
    },
  }
}

/** Starts a server with its output in `dir`/`name`.log; a failure to start reports that log. */
async function started(name, dir, start) {
  const logFile = join(dir, `${name}.log`)
  const output = openSync(logFile, 'a')
  try {
    return running(name, await start(output), logFile, output)
  } catch (error) {
    closeSync(output)
    throw new Error(`${error.message}\n--- ${name}.log ---\n${tail(logFile)}`)
  }
}

/** The Worker under `wrangler dev`, with local D1, KV, Queues (consumers run) and the limiter. */
async function startWorkers({ dir, settings, port }) {
  const persistTo = join(dir, 'state')
  wrangler(`d1 migrations apply DB --local --persist-to ${persistTo}`, {
    cwd: ROOT,
    timeout: 60_000,
  })
  // wrangler reads this file instead of .dev.vars, so a developer's own settings stay out.
  const envFile = join(dir, 'empty.env')
  writeFileSync(envFile, '')
  return started('workers', dir, async (output) =>
    startDevServer({
      port: port ?? (await freePort()),
      persistTo,
      vars: settings,
      testScheduled: true,
      envFile,
      output,
      // The Worker's own log lines (jobs, delivery failures) explain a failing flow.
      logLevel: 'info',
      readyTimeoutMs: 60_000,
    }),
  )
}

/** The Deno entry: SQLite and Deno KV files in `dir`, which it migrates itself on start. */
async function startDeno({ dir, settings, port }) {
  return started('deno', dir, async (output) =>
    startDenoServer({
      port: port ?? (await freePort()),
      state: join(dir, 'state'),
      vars: settings,
      testScheduled: true,
      output,
      readyTimeoutMs: 60_000,
    }),
  )
}

export const RUNTIMES = { workers: startWorkers, deno: startDeno }

/**
 * Starts the service on `name`. `dir` is a fresh directory the runtime may fill (state, logs);
 * `settings` come from contractSettings(); `port`, when given, is the loopback port to serve on
 * (a caller whose settings must name the service's own address, such as APP_URL, picks it first).
 */
export async function startRuntime(name, { dir, settings, port }) {
  const start = RUNTIMES[name]
  if (!start) {
    throw new Error(`Unknown runtime "${name}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  }
  return start({ dir, settings, port })
}
