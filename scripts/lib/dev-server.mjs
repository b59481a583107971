// Starts `wrangler dev` on a port with its own local state for benchmarks, and stops it again.
import { execSync, spawn } from 'node:child_process'

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

/** Resolves once `GET /contests/health` answers, with a `stop()` that ends the server. */
export async function startDevServer({ port, persistTo, vars = {}, testScheduled = false }) {
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
      process.env.WRANGLER_LOG_LEVEL ?? 'error',
      ...varArgs,
      ...(testScheduled ? ['--test-scheduled'] : []),
    ],
    { env: offlineEnv, stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  )
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/contests/health`)).ok) break
    } catch {}
    await new Promise((r) => setTimeout(r, 500))
  }
  return {
    base,
    pid: child.pid,
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
    },
  }
}
