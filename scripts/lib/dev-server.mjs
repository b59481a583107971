// Starts `wrangler dev` on a port with its own local state (benchmarks, seed, the contract suite),
// and stops it again.
import { execSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'

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

/**
 * Resolves once `GET /contests/health` answers, with a `stop()` that ends the server (its whole
 * process group) and resolves when it has exited. Rejects when wrangler exits first or the
 * service is not up within `readyTimeoutMs`.
 *
 * - `envFile`: read instead of `.dev.vars`, so a developer's local settings cannot leak in.
 * - `output`: where wrangler's stdout and stderr go: 'inherit' (default) or a file descriptor.
 * - `logLevel`: wrangler's --log-level (WRANGLER_LOG_LEVEL, else `error`).
 */
export async function startDevServer({
  port,
  persistTo,
  vars = {},
  testScheduled = false,
  envFile,
  output = 'inherit',
  logLevel = process.env.WRANGLER_LOG_LEVEL ?? 'error',
  readyTimeoutMs = 60_000,
}) {
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`])
  const child = spawn(
    'npx',
    [
      'wrangler',
      'dev',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      persistTo,
      '--show-interactive-dev-session=false',
      '--log-level',
      logLevel,
      ...(envFile ? ['--env-file', envFile] : []),
      ...varArgs,
      ...(testScheduled ? ['--test-scheduled'] : []),
    ],
    { env: offlineEnv, stdio: ['ignore', output, output], detached: true },
  )
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  let exitedEarly = false
  void exited.then(() => (exitedEarly = true))

  /** Signals the process group (npx, wrangler, workerd); false once nobody is left in it. */
  const signalGroup = (name) => {
    try {
      process.kill(-child.pid, name)
      return true
    } catch {
      return false
    }
  }

  /** SIGTERM to the group; resolves once all of it is gone, SIGKILL after `timeoutMs`. */
  async function stop(timeoutMs = 10_000) {
    if (!signalGroup('SIGTERM')) return
    const deadline = Date.now() + timeoutMs
    while (signalGroup(0)) {
      if (Date.now() > deadline) {
        signalGroup('SIGKILL')
        break
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    await exited
  }

  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (exitedEarly) throw new Error(`wrangler dev exited before ${base} answered`)
    try {
      if ((await fetch(`${base}/contests/health`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`wrangler dev did not answer on ${base} within ${readyTimeoutMs} ms`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { base, pid: child.pid, stop }
}
