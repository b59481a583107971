// Starts the service on a port with its own local state, under `wrangler dev` or on Deno
// (benchmarks, seed, the contract suite), and stops it again.
import { execSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { keepNetworkPanelOff } from './quiet-inspector.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** `--var K:V` for each setting, as `wrangler dev` (and workerd-serve.mjs) take them. */
const varFlags = (vars) => Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`])

export const offlineEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  CI: 'true',
}

export function wrangler(args, options = {}) {
  return execSync(`npx wrangler ${args}`, {
    env: offlineEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
    ...options,
  })
}

/** A loopback port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** The flags the Deno entry needs: Deno KV and Deno.cron, the network, its state and settings. */
export const DENO_RUN_FLAGS = [
  'run',
  '--config',
  'deno.json',
  '--unstable-kv',
  '--unstable-cron',
  '--allow-net',
  '--allow-read',
  '--allow-write',
  '--allow-env',
]

/**
 * Kills the process group `pid` leads if this process ends before stop() (an interrupted run, a
 * crash), since the service runs detached and would outlive it. Returns the undo.
 */
function killOnExit(pid) {
  const kill = () => {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
  }
  const onSignal = (signal) => {
    kill()
    // Alone with this signal, the listener must end the process as the default would have.
    if (process.listenerCount(signal) === 1) process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('exit', kill)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return () => {
    process.off('exit', kill)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/**
 * Spawns `command args` in its own process group and resolves once `GET /contests/health` on
 * `port` answers, with a `stop()` that ends the whole group and resolves when it has exited, and
 * `exited`, which resolves with the exit code (or signal) whenever it exits.
 * Rejects when the process exits first or the service is not up within `readyTimeoutMs`.
 */
async function startService({ name, command, args, env, port, output, readyTimeoutMs }) {
  const stdio = ['ignore', output, output]
  const child = spawn(command, args, { cwd: ROOT, env, stdio, detached: true })
  const release = killOnExit(child.pid)
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  let exitedEarly = false
  void exited.then(() => (exitedEarly = true))

  /** Signals the process group (npx and what it started); false once nobody is left in it. */
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal)
      return true
    } catch {
      return false
    }
  }

  /** SIGTERM to the group; resolves once all of it is gone, SIGKILL after `timeoutMs`. */
  async function stop(timeoutMs = 10_000) {
    if (!signalGroup('SIGTERM')) return release()
    const deadline = Date.now() + timeoutMs
    while (signalGroup(0)) {
      if (Date.now() > deadline) {
        signalGroup('SIGKILL')
        break
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    await exited
    release()
  }

  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (exitedEarly) throw new Error(`${name} exited before ${base} answered`)
    try {
      if ((await fetch(`${base}/contests/health`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${name} did not answer on ${base} within ${readyTimeoutMs} ms`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { base, pid: child.pid, stop, exited }
}

/**
 * `wrangler dev` on `port` with its state under `persistTo`; see startService for what it returns.
 *
 * - `script`: the Worker's entry instead of wrangler.toml's `main` (the bench's counting wrapper).
 * - `envFile`: read instead of `.dev.vars`, so a developer's local settings cannot leak in.
 * - `output`: where wrangler's stdout and stderr go: 'inherit' (default) or a file descriptor.
 * - `logLevel`: wrangler's --log-level (WRANGLER_LOG_LEVEL, else `error`).
 *
 * Its DevTools inspector listens on a free port of its own, with the network panel kept off
 * (quiet-inspector.mjs), so two servers never compete for one port.
 */
export async function startDevServer({
  port,
  persistTo,
  script,
  vars = {},
  testScheduled = false,
  envFile,
  output = 'inherit',
  logLevel = process.env.WRANGLER_LOG_LEVEL ?? 'error',
  readyTimeoutMs = 60_000,
}) {
  const inspectorPort = await freePort()
  const args = [
    'wrangler',
    'dev',
    ...(script ? [script] : []),
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    persistTo,
    '--show-interactive-dev-session=false',
    '--log-level',
    logLevel,
    ...(envFile ? ['--env-file', envFile] : []),
    ...varFlags(vars),
    ...(testScheduled ? ['--test-scheduled'] : []),
  ]
  const server = await startService({
    name: 'wrangler dev',
    command: 'npx',
    args,
    env: offlineEnv,
    port,
    output,
    readyTimeoutMs,
  })
  const stopQuieting = await keepNetworkPanelOff(inspectorPort)
  return {
    ...server,
    inspectorPort,
    stop: (timeoutMs) => {
      stopQuieting()
      return server.stop(timeoutMs)
    },
  }
}

/**
 * The Worker in workerd through Miniflare, without `wrangler dev`'s proxy (workerd-serve.mjs), on
 * `port` with the state `wrangler dev --persist-to persistTo` would use; `script` and `vars` as
 * for startDevServer.
 */
export function startWorkerdServer({ port, persistTo, script, vars = {}, output = 'inherit' }) {
  const args = ['scripts/lib/workerd-serve.mjs', '--port', String(port), '--persist-to', persistTo]
  if (script) args.push('--script', script)
  args.push(...varFlags(vars))
  return startService({
    name: 'workerd',
    command: 'node',
    args,
    env: offlineEnv,
    port,
    output,
    readyTimeoutMs: 120_000,
  })
}

/**
 * The Deno entry (deno/main.ts) on `port` with its SQLite and KV files under `state`. Its settings
 * are `vars` alone: nothing of this process's environment but what Deno itself needs to run.
 * `testScheduled` opens the route that runs a cron's job when asked, as `wrangler dev
 * --test-scheduled` does; `manualCrons` (the default with it) stops them firing by themselves.
 */
export function startDenoServer({
  port,
  state,
  vars = {},
  testScheduled = false,
  manualCrons = testScheduled,
  output = 'inherit',
  readyTimeoutMs = 60_000,
}) {
  const { PATH, HOME, DENO_DIR } = process.env
  const env = { PATH, HOME, ...(DENO_DIR ? { DENO_DIR } : {}), ...vars }
  const args = [
    'deno',
    ...DENO_RUN_FLAGS,
    'deno/main.ts',
    '--port',
    String(port),
    '--state',
    state,
    ...(testScheduled ? ['--test-scheduled'] : []),
    ...(manualCrons ? ['--manual-crons'] : []),
  ]
  return startService({ name: 'deno', command: 'npx', args, env, port, output, readyTimeoutMs })
}
