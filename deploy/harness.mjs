// What the deploy tests share: a fresh clone of this repository's HEAD, the deploy run in it with
// a clean environment, and a loopback server standing in for the deployed service's checked routes.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('..', import.meta.url))

/**
 * Clones HEAD into `<dir>/repo`; `remove()` deletes it. Nothing is installed: the clone's
 * node_modules is a folder of links to this checkout's packages, one per entry, so removing or
 * reinstalling it in the clone drops links and never empties this checkout's node_modules.
 */
export function freshClone() {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-test-'))
  const root = join(dir, 'repo')
  execFileSync('git', ['clone', '--quiet', REPO, root], { stdio: 'pipe' })
  const packages = join(REPO, 'node_modules')
  mkdirSync(join(root, 'node_modules'))
  for (const entry of readdirSync(packages)) {
    symlinkSync(join(packages, entry), join(root, 'node_modules', entry))
  }
  return { dir, root, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Only what npm and wrangler need, so nothing of the caller's environment leaks in. */
export function cleanEnv(dir, extra) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_LOG_PATH: join(dir, 'wrangler-logs'),
    WRANGLER_CACHE_DIR: join(dir, 'wrangler-cache'),
    ...extra,
  }
}

/**
 * What `npm run deploy [-- args]` runs, in `root`, without the install check of its pre-hook;
 * resolves with the exit code, the output and the time.
 */
export function runDeploy(root, env, args = []) {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/deploy.mjs', ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (t) => (output += t))
    child.stderr.setEncoding('utf8').on('data', (t) => (output += t))
    const timer = setTimeout(() => child.kill('SIGTERM'), 150_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, seconds: (Date.now() - started) / 1000 })
    })
  })
}

/** The routes the deploy checks, answered as the service answers them; `paths` lists the hits. */
export async function startServiceStandIn() {
  const paths = []
  const server = createServer((req, res) => {
    paths.push(req.url)
    if (req.url === '/contests/health') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ status: 'ok', timestamp: new Date().toISOString() }))
    }
    if (req.url === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ openapi: '3.1.0', info: { title: 'stand-in' }, paths: {} }))
    }
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end('<!doctype html><title>Contests</title>')
    }
    res.writeHead(404).end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    paths,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
