// `npm run bench [-- --runtime workers|workerd|deno]`: load-tests the catalogue with 20,000
// contests, under `wrangler dev` (workers, the default), in workerd without wrangler's dev proxy
// (workerd), or on the Deno entry (deno/main.ts), and writes that runtime's figures into
// docs/performance.md, keeping the other runtimes'. Each endpoint's throughput is also given as a
// ratio to /contests/health measured in the same run on the same runtime, which makes figures
// comparable across machines and runtimes.
import autocannon from 'autocannon'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { startDenoServer, startDevServer, startWorkerdServer } from './lib/dev-server.mjs'
import { readSection, replaceSection } from './lib/performance-doc.mjs'
import {
  denoVersion,
  seedDenoState,
  seedWorkersState,
  writeCatalogueSql,
} from './lib/synthetic-contests.mjs'

const USAGE = `Usage: npm run bench [-- --runtime workers|workerd|deno] [--no-write]

  --runtime   the runtime to measure (BENCH_RUNTIME; default workers)
  --no-write  print the figures only, leave docs/performance.md alone (BENCH_WRITE=0)

Also BENCH_CONTESTS (20000), BENCH_SECONDS per case (10), BENCH_CONNECTIONS (10), BENCH_PORT (8790),
BENCH_CLIENTS (2000 client addresses).`

const CONTESTS = Number(process.env.BENCH_CONTESTS ?? 20_000)
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const PORT = Number(process.env.BENCH_PORT ?? 8790)

// The same settings on both runtimes, rate limits on as in production: the load comes from
// CLIENTS addresses (CF-Connecting-IP, which Deno reads with TRUST_PROXY_HEADER naming it, as it would
// behind Cloudflare), each well under its 100 requests in 15 minutes. The catalogue reads need no
// JWT_SECRET, but with a valid one nothing measured depends on a local .dev.vars.
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2_000)
const SETTINGS = {
  TRUST_PROXY_HEADER: 'CF-Connecting-IP',
  JWT_SECRET: randomBytes(36).toString('base64url'),
}

/**
 * What differs between the runtimes: how a fresh state is migrated and seeded before the server
 * starts, and how it is described in the doc. Everything else (the cases, the ratios, the doc) is
 * shared. `label` names the runtime's columns in docs/performance.md.
 */
const RUNTIMES = {
  workers: {
    label: 'Workers',
    state: '.wrangler/bench-state',
    describe: () => `\`wrangler dev\` (local workerd and D1), Node ${process.version}`,
    seed: seedWorkersState,
    // The real entry with its KV binding counted (test/bench/kv-counting-worker.ts).
    start: (state) =>
      startDevServer({ port: PORT, persistTo: state, vars: SETTINGS, script: KV_COUNTING_WORKER }),
    countsKv: true,
  },
  // The same Worker, bindings and state without `wrangler dev`'s proxy, which parses every HTML
  // answer (to add its live-reload script): the page as production serves it, with no such step.
  workerd: {
    label: 'workerd',
    state: '.wrangler/bench-workerd-state',
    describe: () =>
      `the Worker in workerd through Miniflare, without \`wrangler dev\`'s proxy ` +
      `(scripts/lib/workerd-serve.mjs), Node ${process.version}`,
    seed: seedWorkersState,
    start: (state) =>
      startWorkerdServer({
        port: PORT,
        persistTo: state,
        vars: SETTINGS,
        script: KV_COUNTING_WORKER,
      }),
  },
  deno: {
    label: 'Deno',
    state: '.wrangler/bench-deno-state',
    describe: () =>
      `deno/main.ts on Deno ${denoVersion()} (SQLite through ` +
      `node:sqlite as D1, Deno KV), load from Node ${process.version}`,
    seed: seedDenoState,
    // No cron fires by itself during the load, as under `wrangler dev`.
    start: (state) => startDenoServer({ port: PORT, state, vars: SETTINGS, manualCrons: true }),
  },
}

// What Chrome and Firefox send.
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd'

const KV_COUNTING_WORKER = 'test/bench/kv-counting-worker.ts'

function seedFile(now) {
  const path = '.wrangler/bench-seed.sql'
  writeCatalogueSql(path, CONTESTS, now)
  return path
}

/**
 * The client of a case's n-th request: CLIENTS addresses in turn, from 10.0.0.0/8, a range of its
 * own per case so no address spends its 100 requests across cases.
 */
const clientAddress = (caseIndex, n) => {
  const i = caseIndex * CLIENTS + (n % CLIENTS)
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
}

/** KV calls the Worker made since the last reset (the counting wrapper's figures). */
async function kvCounts(base, reset = false) {
  const res = await fetch(`${base}/__bench/kv${reset ? '/reset' : ''}`)
  return reset ? undefined : res.json()
}

function run(base, { title, path, bust, headers = {}, connections = CONNECTIONS }, caseIndex) {
  let n = 0
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration: DURATION,
        requests: [
          {
            method: 'GET',
            // A fresh query parameter per request makes every request a cache miss.
            setupRequest: (req) => ({
              ...req,
              headers: {
                ...req.headers,
                ...headers,
                'CF-Connecting-IP': clientAddress(caseIndex, n),
              },
              path: bust ? `${path}${path.includes('?') ? '&' : '?'}_=${n++}` : (n++, path),
            }),
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err)
        const ok = result['2xx']
        resolve({
          title,
          rps: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          ok,
          requests: result.requests.total,
          errors: result.non2xx + result.errors,
        })
      },
    )
  })
}

function usageError(message) {
  console.error(`${message}\n\n${USAGE}`)
  process.exit(2)
}

/** The runtime to measure (--runtime, else BENCH_RUNTIME) and whether to write the doc. */
function options() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        runtime: { type: 'string', default: process.env.BENCH_RUNTIME || 'workers' },
        'no-write': { type: 'boolean', default: ['0', 'false'].includes(process.env.BENCH_WRITE) },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }))
  } catch (err) {
    usageError(err.message)
  }
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  if (!Object.hasOwn(RUNTIMES, values.runtime)) {
    usageError(`Unknown runtime "${values.runtime}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  }
  return { name: values.runtime, runtime: RUNTIMES[values.runtime], write: !values['no-write'] }
}

async function main() {
  const { name, runtime, write } = options()
  const now = Date.now()
  rmSync(runtime.state, { recursive: true, force: true })
  console.log(
    `${runtime.label}: applying migrations and loading ${CONTESTS} contests into ${runtime.state}...`,
  )
  const seedStarted = Date.now()
  runtime.seed(runtime.state, seedFile(now))
  console.log(`Migrated and loaded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`)

  const serverStarted = Date.now()
  const server = await runtime.start(runtime.state)
  console.log(
    `${runtime.label} answered after ${((Date.now() - serverStarted) / 1000).toFixed(1)} s`,
  )
  const cases = [
    { title: 'GET /contests/health', path: '/contests/health' },
    { title: 'GET /contests/upcoming (cached)', path: '/contests/upcoming' },
    { title: 'GET /contests/upcoming (uncached)', path: '/contests/upcoming', bust: true },
    {
      title: 'GET /contests/search?q=educational (uncached)',
      path: '/contests/search?q=educational',
      bust: true,
    },
    // One request at a time: what a search itself takes, without the queue of ten connections.
    {
      title: 'GET /contests/search?q=educational (uncached, one connection)',
      path: '/contests/search?q=educational',
      bust: true,
      connections: 1,
    },
    { title: 'GET /contests?limit=100 (uncached)', path: '/contests?limit=100', bust: true },
    { title: 'GET /contests?limit=100 (cached)', path: '/contests?limit=100' },
    // The web app's home page: the HTML of the next two weeks, out of the same public cache.
    { title: 'GET / (cached)', path: '/' },
    // As a browser asks for it, with Accept-Encoding: the gzip twin kept in memory. Under
    // `wrangler dev` its proxy decodes every HTML answer to rewrite it, and encodes it again.
    {
      title: 'GET / (cached, gzip as browsers ask)',
      path: '/',
      headers: { 'Accept-Encoding': BROWSER_ENCODINGS },
    },
  ]
  // The status page beside health: its shared read (one D1 batch a minute) and, where the
  // counting Worker runs (wrangler dev), that read itself on every request.
  cases.push(
    { title: 'GET /status.json (cached)', path: '/status.json', status: true },
    { title: 'GET /status (cached)', path: '/status', status: true },
  )
  if (runtime.countsKv) {
    cases.push({
      title: 'GET /status.json (uncached: the read on every request)',
      path: '/__bench/status-uncached',
      status: true,
    })
  }
  const results = []
  let weights
  try {
    weights = await pageWeights(server.base)
    // Warm-up: compiles the code and fills the caches the cached cases read.
    for (const c of cases) await fetch(`${server.base}${c.path}`)
    for (const c of cases) {
      process.stdout.write(`${c.title}... `)
      if (runtime.countsKv) await kvCounts(server.base, true)
      const r = await run(server.base, c, results.length)
      if (runtime.countsKv) {
        const kv = await kvCounts(server.base)
        const per = (op) => ((kv[op] ?? 0) / Math.max(1, r.requests)).toFixed(3)
        r.kv = { reads: per('get'), writes: per('put') }
        if (c.status) r.d1 = per('d1.batch')
      }
      const ratio = (r.rps / (results[0] ?? r).rps).toFixed(2)
      console.log(
        `${r.rps} req/s (${ratio} of health), p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors` +
          (r.kv ? `, KV reads / writes a request ${r.kv.reads} / ${r.kv.writes}` : '') +
          (r.d1 !== undefined ? `, D1 batches a request ${r.d1}` : ''),
      )
      results.push(r)
    }
  } finally {
    await server.stop()
  }
  for (const w of weights) console.log(`${w.what}: ${w.bytes} B, ${w.gzip} B gzip`)
  if (write) {
    writeResults(name, results, now)
    replaceSection('page-weights', weightsSection(weights, now))
  } else console.log('Figures not written (--no-write or BENCH_WRITE=0)')
}

/**
 * The home page and every same-origin script and stylesheet it links: bytes as served and
 * gzipped (what a browser downloads; the issue's budget is 50 KB of JavaScript compressed).
 */
async function pageWeights(base) {
  const html = await (await fetch(`${base}/`)).text()
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1])
  const weigh = async (what, path) => {
    const body = Buffer.from(await (await fetch(`${base}${path}`)).arrayBuffer())
    return { what, bytes: body.length, gzip: gzipSync(body).length }
  }
  return [
    await weigh('GET / (HTML)', '/'),
    ...(await Promise.all([...new Set(assets)].map((path) => weigh(path, path)))),
  ]
}

function weightsSection(weights, now) {
  const total = (key, filter = () => true) =>
    weights.filter(filter).reduce((sum, w) => sum + w[key], 0)
  const js = (w) => w.what.endsWith('.js')
  return [
    `Run of ${new Date(now).toISOString()} with ${CONTESTS} contests in the catalogue (the page lists ` +
      'the next 14 days of them).',
    '',
    '| resource | bytes | gzip bytes |',
    '|---|---|---|',
    ...weights.map((w) => `| ${w.what} | ${w.bytes} | ${w.gzip} |`),
    `| all JavaScript | ${total('bytes', js)} | ${total('gzip', js)} |`,
    `| the whole page | ${total('bytes')} | ${total('gzip')} |`,
  ]
}

// Each runtime's columns in the catalogue table of docs/performance.md, by header suffix.
const COLUMNS = ['req/s', 'ratio to health', 'p50 / p99 ms']

/** A Markdown table row's trimmed cells; undefined for other lines and the header rule. */
function tableCells(line) {
  if (!line.startsWith('|')) return undefined
  const cells = line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim())
  return cells.every((c) => /^:?-+:?$/.test(c)) ? undefined : cells
}

/**
 * The catalogue section with runtime `name`'s note and columns from this run and every other
 * runtime's as the doc has them, so one run per runtime fills the table. `figures` are
 * [endpoint, cells] in the order measured; endpoints only the other runtimes have stay below.
 */
function catalogueSection(previous, name, note, figures) {
  const names = Object.keys(RUNTIMES)
  const heads = (key) => COLUMNS.map((c) => `${RUNTIMES[key].label} ${c}`)
  const notes = { [name]: note }
  const kept = new Map()
  let header
  for (const line of previous) {
    for (const key of names) {
      if (key !== name && line.startsWith(`- ${RUNTIMES[key].label}: `)) notes[key] = line
    }
    const cells = tableCells(line)
    if (!cells) continue
    if (!header) {
      header = cells
      continue
    }
    const byRuntime = {}
    for (const key of names.filter((k) => k !== name)) {
      const values = heads(key).map((h) => (header.includes(h) ? cells[header.indexOf(h)] : ''))
      if (values.some(Boolean)) byRuntime[key] = values
    }
    kept.set(cells[0], byRuntime)
  }
  const rows = new Map(figures.map(([endpoint, values]) => [endpoint, { [name]: values }]))
  for (const [endpoint, byRuntime] of kept) {
    if (!rows.has(endpoint) && Object.keys(byRuntime).length === 0) continue
    rows.set(endpoint, { ...byRuntime, ...rows.get(endpoint) })
  }
  const blank = COLUMNS.map(() => '')
  const row = (cells) => `| ${cells.join(' | ')} |`
  return [
    ...names.map(
      (key) =>
        notes[key] ??
        `- ${RUNTIMES[key].label}: not measured yet (\`npm run bench -- --runtime ${key}\`).`,
    ),
    '',
    row(['endpoint', ...names.flatMap(heads)]),
    row(['---', ...names.flatMap(() => COLUMNS.map(() => '---'))]),
    ...[...rows].map(([endpoint, byRuntime]) =>
      row([endpoint, ...names.flatMap((key) => byRuntime[key] ?? blank)]),
    ),
  ]
}

function writeResults(name, results, now) {
  const runtime = RUNTIMES[name]
  const health = results[0].rps
  const failed = results.filter((r) => r.errors > 0)
  const errors = failed.length
    ? `non-2xx responses and errors: ${failed.map((r) => `${r.title} ${r.errors}`).join(', ')}`
    : 'no non-2xx responses or errors'
  const note =
    `- ${runtime.label}: run of ${new Date(now).toISOString()} on this machine (${process.platform}), ` +
    `${runtime.describe()}: ${CONTESTS} contests, ${CONNECTIONS} connections, ${DURATION} s per case, ` +
    `${CLIENTS} client addresses with rate limits on; ${errors}.`
  const figures = results.map((r) => [
    r.title,
    [String(r.rps), (r.rps / health).toFixed(2), `${r.p50} / ${r.p99}`],
  ])
  replaceSection('catalogue', catalogueSection(readSection('catalogue'), name, note, figures))
  if (runtime.countsKv) replaceSection('kv', kvSection(results, now))
}

/**
 * KV calls a request cost, per case, as the counting wrapper saw them, and for the status cases
 * the D1 batches (the status read is one batch: at most one a minute when shared).
 */
function kvSection(results, now) {
  return [
    `Run of ${new Date(now).toISOString()}, \`wrangler dev\`, ${CLIENTS} client addresses, rate ` +
      'limits on; counted by the wrappers around the KV and D1 bindings ' +
      '(test/bench/kv-counting-worker.ts); D1 batches are counted for the status cases only.',
    '',
    '| endpoint | requests | KV reads a request | KV writes a request | D1 batches a request |',
    '|---|---|---|---|---|',
    ...results.map(
      (r) => `| ${r.title} | ${r.requests} | ${r.kv.reads} | ${r.kv.writes} | ${r.d1 ?? ''} |`,
    ),
  ]
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
