// `npm run bench:sync`: syncs every platform with a source of its own under `wrangler dev`
// (`POST /contests/sync`, all side by side): Codeforces from 20,000 synthetic contests served on
// loopback, the others from their recorded fixtures. Three runs (into an empty catalogue,
// unchanged, 1% changed), then one where a single source answers only after 30 s. Reports time,
// D1 rows written and each platform's durationMs and state; figures go to docs/performance.md.
import { createServer } from 'node:http'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startDevServer, wrangler } from './lib/dev-server.mjs'
import { startFixtureServer } from './lib/fixture-server.mjs'
import { importTypeScript } from './lib/import-typescript.mjs'
import { replaceSection } from './lib/performance-doc.mjs'

const COUNT = Number(process.env.BENCH_SYNC_CONTESTS ?? 20_000)
const PORT = Number(process.env.BENCH_PORT ?? 8792)
const SLOW_PLATFORM = process.env.BENCH_SLOW_PLATFORM ?? 'hackerrank'
// Twice the upstream timeout (UPSTREAM_TIMEOUT_MS, 15 s): the Worker must give up first.
const SLOW_DELAY_MS = 30_000
// More time outside the platforms' own than a sync can spend on its reads and snapshot.
const STALL_MS = 5_000
const STATE = '.wrangler/bench-sync-state'
const ADMIN = 'bench-admin@localhost.test'

/** contest.list in Codeforces' shape; `changed` shifts every hundredth contest's start. */
function contestList(now, changed) {
  const result = []
  for (let i = 0; i < COUNT; i++) {
    // Within the retention window, so every contest is kept: from 80 days ago to 80 days ahead.
    const start = Math.floor(now / 1000) + Math.round(((i / COUNT) * 160 - 80) * 86_400)
    const shift = changed && i % 100 === 0 ? 600 : 0
    result.push({
      id: 100_000 + i,
      name: `Codeforces Round ${1000 + i} (Div. ${(i % 4) + 1})`,
      type: i % 50 === 0 ? 'ICPC' : 'CF',
      phase: start * 1000 > now ? 'BEFORE' : 'FINISHED',
      frozen: false,
      durationSeconds: 7200,
      startTimeSeconds: start + shift,
      relativeTimeSeconds: Math.floor(now / 1000) - start,
    })
  }
  return JSON.stringify({ status: 'OK', result })
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined
}

/** Answers `req` with what the fixture server answers to the same request. */
async function passOn(fixturesUrl, req, res, body) {
  const answer = await fetch(`${fixturesUrl}${req.url}`, {
    method: req.method,
    headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
    body,
  })
  const text = await answer.text()
  if (res.destroyed) return
  const type = answer.headers.get('content-type')
  res.writeHead(answer.status, type ? { 'content-type': type } : {}).end(text)
}

/**
 * The upstream every platform's var points at: Codeforces' contest.list (gym=false) is the
 * synthetic one, the slow platform's path waits SLOW_DELAY_MS while `state.slow` is on, and the
 * rest is passed to the fixture server. Counts requests in flight, since all platforms sync at
 * once; `state.held` records how long each delayed request stayed open.
 */
async function startUpstream(fixturesUrl, slowPath, now, state) {
  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://upstream')
    state.inFlight++
    state.peakInFlight = Math.max(state.peakInFlight, state.inFlight)
    const arrived = performance.now()
    res.once('close', () => state.inFlight--)
    try {
      if (
        url.pathname === '/codeforces-api/contest.list' &&
        url.searchParams.get('gym') !== 'true'
      ) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(contestList(now, state.changed))
        return
      }
      if (state.slow && url.pathname.startsWith(slowPath)) {
        // The Worker aborting its fetch closes the connection before the delay is over.
        const closed = new Promise((resolve) => res.once('close', resolve))
        const waited = new Promise((resolve) => setTimeout(resolve, SLOW_DELAY_MS).unref())
        const first = await Promise.race([closed.then(() => 'closed'), waited.then(() => 'waited')])
        state.held.push({ ms: Math.round(performance.now() - arrived), by: first })
        if (first === 'closed') return
      }
      await passOn(fixturesUrl, req, res, body)
    } catch (err) {
      if (!res.headersSent) res.writeHead(502).end(String(err))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${server.address().port}` }
}

async function postJson(url, body, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`)
  return res.json()
}

/**
 * Signs the bootstrap admin up and verifies the address in the sign-up's session, which is what
 * grants the admin role.
 */
async function signUpAdmin(base) {
  const signup = await postJson(`${base}/auth/signup`, {
    email: ADMIN,
    password: 'bench-password-123',
    name: 'Bench Admin',
  })
  const { messages } = await (await fetch(`${base}/dev/outbox`)).json()
  const mail = messages.find((m) => [m.to].flat().includes(ADMIN))
  const code = mail?.text?.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error('no verification code for the bench admin in the local outbox')
  const verify = `${base}/auth/verify-email`
  const { accessToken, user } = await postJson(verify, { email: ADMIN, code }, signup.accessToken)
  if (user.role !== 'admin') throw new Error(`the bench admin is ${user.role}, not admin`)
  return accessToken
}

/** One `POST /contests/sync`: its wall time and the per-platform results. */
async function syncAll(base, accessToken) {
  const started = performance.now()
  const res = await fetch(`${base}/contests/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const wallMs = Math.round(performance.now() - started)
  const text = await res.text()
  if (!res.ok) throw new Error(`POST /contests/sync answered ${res.status}: ${text}`)
  return { wallMs, results: JSON.parse(text).results }
}

const written = (r) => r.created + r.updated + r.rescheduled
const sum = (results, count) => results.reduce((n, r) => n + count(r), 0)
const slowest = (results) => results.reduce((a, b) => (b.durationMs > a.durationMs ? b : a))
const states = (results) => {
  const counts = {}
  for (const r of results) counts[r.state] = (counts[r.state] ?? 0) + 1
  return Object.entries(counts)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ')
}

async function main() {
  const now = Date.now()
  const { PLATFORM_MODULES } = await importTypeScript('src/platforms/registry.ts')
  const { standInPath } = await importTypeScript('src/platforms/stand-in-routes.ts')
  const sourced = PLATFORM_MODULES.filter((m) => m.source).map((m) => m.id)
  const slowModule = PLATFORM_MODULES.find((m) => m.id === SLOW_PLATFORM && m.source)
  if (!slowModule) throw new Error(`${SLOW_PLATFORM} has no source of its own`)

  const fixtures = await startFixtureServer(now)
  const traffic = { changed: false, slow: false, inFlight: 0, peakInFlight: 0, held: [] }
  const upstream = await startUpstream(
    fixtures.url,
    standInPath(slowModule.source.setting),
    now,
    traffic,
  )
  const upstreams = Object.fromEntries(
    Object.entries(fixtures.upstreams).map(([name, url]) => [
      name,
      url.replace(fixtures.url, upstream.url),
    ]),
  )

  rmSync(STATE, { recursive: true, force: true })
  wrangler(`d1 migrations apply DB --local --persist-to ${STATE}`)
  // Read instead of .dev.vars: a developer's CLIST_API_KEY would turn the long tail on.
  const envFile = join(STATE, 'empty.env')
  writeFileSync(envFile, '')
  const server = await startDevServer({
    port: PORT,
    persistTo: STATE,
    envFile,
    vars: {
      RATE_LIMIT_DISABLED: 'true',
      BOOTSTRAP_ADMIN_EMAILS: ADMIN,
      // The admin role needs a verified address; the code is read back from the local outbox.
      DEV_OUTBOX: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      ...upstreams,
    },
  })
  const runs = []
  try {
    const accessToken = await signUpAdmin(server.base)
    const plan = [
      { label: 'into an empty catalogue', changed: false },
      { label: 'again, nothing changed', changed: false },
      { label: 'again, 1% of start times changed', changed: true },
      // Codeforces as in the run before, so it compares with "nothing changed".
      { label: `${SLOW_PLATFORM} answering after 30 s`, changed: true, slow: true },
    ]
    for (const step of plan) {
      traffic.changed = step.changed
      traffic.slow = step.slow ?? false
      traffic.peakInFlight = 0
      const { wallMs, results } = await syncAll(server.base, accessToken)
      const platforms = results.map((r) => r.platform)
      if (sourced.some((p) => !platforms.includes(p)) || platforms.length !== sourced.length) {
        throw new Error(`synced ${platforms.join(', ')}; expected ${sourced.join(', ')}`)
      }
      const cf = results.find((r) => r.platform === 'codeforces')
      if (cf.error) throw new Error(`codeforces failed: ${JSON.stringify(cf)}`)
      for (const r of results.filter((r) => r.error)) {
        console.log(`  ${r.platform}: ${r.state}, ${r.error}`)
      }
      const top = slowest(results)
      // wrangler dev rebuilds when a source file or node_modules changes and holds the request
      // meanwhile; such a run measures the rebuild, not the sync.
      if (wallMs - top.durationMs > STALL_MS) {
        throw new Error(
          `${step.label}: ${wallMs} ms for a sync whose slowest platform took ${top.durationMs} ms; ` +
            'the dev server stalled (a rebuild?), figures not written',
        )
      }
      console.log(
        `${step.label}: ${wallMs} ms, codeforces ${cf.durationMs} ms (created ${cf.created}, ` +
          `updated ${cf.updated}, unchanged ${cf.unchanged}), all platforms: rows written ` +
          `${sum(results, written)}, slowest ${top.platform} ${top.durationMs} ms, ` +
          `${states(results)}, peak ${traffic.peakInFlight} upstream requests in flight`,
      )
      runs.push({ ...step, wallMs, results, peakInFlight: traffic.peakInFlight })
    }
  } finally {
    await server.stop()
    upstream.server.close()
    fixtures.server.close()
  }
  replaceSection('sync', report(now, runs, sourced, traffic.held))
}

/** The section's lines: Codeforces' share as before, all platforms, each platform, the slow run. */
function report(now, runs, sourced, held) {
  const fast = runs.filter((r) => !r.slow)
  const slow = runs.find((r) => r.slow)
  const baseline = fast[1]
  const of = (run, platform) => run.results.find((r) => r.platform === platform)
  const others = (run) => run.results.filter((r) => r.platform !== SLOW_PLATFORM)
  const cell = (r) => `${r.durationMs}${r.state === 'ok' ? '' : ` (${r.state})`}`
  const lines = [
    `Run of ${new Date(now).toISOString()}: \`POST /contests/sync\` under \`wrangler dev\` (local ` +
      `D1), the ${sourced.length} platforms with a source of their own side by side (clist.by off): ` +
      `Codeforces from ${COUNT} synthetic contests (contest.list on loopback), the other ` +
      `${sourced.length - 1} from their recorded fixtures (scripts/lib/fixture-server.mjs). ` +
      '"job ms" is Codeforces\' `durationMs`; "wall ms" is the whole sync.',
    '',
    '| run | wall ms | job ms | created | updated | unchanged | D1 rows written |',
    '|---|---|---|---|---|---|---|',
    ...fast.map((run) => {
      const cf = of(run, 'codeforces')
      return `| ${run.label} | ${run.wallMs} | ${cf.durationMs} | ${cf.created} | ${cf.updated} | ${cf.unchanged} | ${written(cf)} |`
    }),
    '',
    'All platforms in the same runs (sums over the platforms; "slowest" is the largest `durationMs`):',
    '',
    '| run | wall ms | slowest platform ms | created | updated | unchanged | D1 rows written | states |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const top = slowest(run.results)
      const total = (key) => sum(run.results, (r) => r[key])
      return `| ${run.label} | ${run.wallMs} | ${top.durationMs} (${top.platform}) | ${total('created')} | ${total('updated')} | ${total('unchanged')} | ${sum(run.results, written)} | ${states(run.results)} |`
    }),
    '',
    "Each platform's `durationMs` (its fetch, parse and writes; a state other than ok in brackets):",
    '',
    `| platform | ${runs.map((run) => run.label).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...sourced.map((p) => `| ${p} | ${runs.map((run) => cell(of(run, p))).join(' | ')} |`),
  ]
  if (!slow) return lines
  const slowResult = of(slow, SLOW_PLATFORM)
  const stateAndMs = (r) => `${r.state}, ${r.durationMs}`
  const topOf = (run) => {
    const top = slowest(others(run))
    return `${top.durationMs} (${top.platform})`
  }
  return [
    ...lines,
    '',
    `One slow source: the loopback upstream holds every request to ${SLOW_PLATFORM} for ` +
      `${SLOW_DELAY_MS / 1000} s before answering; the Worker's upstream timeout is 15 s ` +
      '(`UPSTREAM_TIMEOUT_MS`). Compared with the "nothing changed" run, where Codeforces ' +
      'also writes nothing.',
    '',
    `| figure | ${baseline.label} | ${slow.label} |`,
    '|---|---|---|',
    `| wall ms of the whole sync | ${baseline.wallMs} | ${slow.wallMs} |`,
    `| the other ${sourced.length - 1} platforms: largest durationMs | ${topOf(baseline)} | ${topOf(slow)} |`,
    `| the other platforms' states | ${states(others(baseline))} | ${states(others(slow))} |`,
    `| ${SLOW_PLATFORM}: state, durationMs | ${stateAndMs(of(baseline, SLOW_PLATFORM))} | ${stateAndMs(slowResult)} |`,
    `| ${SLOW_PLATFORM}: error | - | ${slowResult.error ?? '-'} |`,
    `| ${SLOW_PLATFORM}: request held open (ms), ended by | - | ${held.map((h) => `${h.ms}, ${h.by === 'closed' ? 'the Worker closing it' : 'our answer'}`).join('; ') || 'no request seen'} |`,
    `| upstream requests in flight at once (peak) | ${baseline.peakInFlight} | ${slow.peakInFlight} |`,
  ]
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
