// `npm run bench`: load-tests the catalogue under `wrangler dev` with 20,000 contests and writes the
// figures into docs/performance.md. Each endpoint's throughput is also given as a ratio to
// /contests/health measured in the same run, which makes figures comparable across machines.
import autocannon from 'autocannon'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { startDevServer, wrangler } from './lib/dev-server.mjs'
import { replaceSection } from './lib/performance-doc.mjs'
import { syntheticContests } from './lib/synthetic-contests.mjs'

const CONTESTS = Number(process.env.BENCH_CONTESTS ?? 20_000)
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const PORT = Number(process.env.BENCH_PORT ?? 8790)
const STATE = '.wrangler/bench-state'

function sqlValue(v) {
  if (v === null || v === undefined) return 'NULL'
  if (typeof v === 'number') return String(v)
  return `'${String(v).replace(/'/g, "''")}'`
}

function seedFile(now) {
  const columns = [
    'id',
    'platform_id',
    'name',
    'platform',
    'phase',
    'type',
    'start_time',
    'end_time',
    'duration_minutes',
    'description',
    'difficulty',
    'participant_count',
    'is_active',
    'is_notified',
    'last_synced_at',
    'created_at',
    'updated_at',
  ]
  const lines = []
  for (const c of syntheticContests(CONTESTS, now)) {
    const phase = c.start_time > now ? 'BEFORE' : c.end_time >= now ? 'CODING' : 'FINISHED'
    const row = [
      c.id,
      c.platform_id,
      c.name,
      c.platform,
      phase,
      c.type,
      c.start_time,
      c.end_time,
      c.duration_minutes,
      c.description,
      c.difficulty,
      c.participant_count,
      1,
      0,
      now,
      now,
      now,
    ]
    lines.push(
      `INSERT INTO contests (${columns.join(', ')}) VALUES (${row.map(sqlValue).join(', ')});`,
    )
  }
  mkdirSync('.wrangler', { recursive: true })
  const path = '.wrangler/bench-seed.sql'
  writeFileSync(path, lines.join('\n'))
  return path
}

function run(base, { title, path, bust }) {
  let n = 0
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            method: 'GET',
            // A fresh query parameter per request makes every request a cache miss.
            setupRequest: (req) => ({
              ...req,
              path: bust ? `${path}${path.includes('?') ? '&' : '?'}_=${n++}` : path,
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
          errors: result.non2xx + result.errors,
        })
      },
    )
  })
}

async function main() {
  const now = Date.now()
  rmSync(STATE, { recursive: true, force: true })
  console.log(`Applying migrations and loading ${CONTESTS} contests into ${STATE}...`)
  wrangler(`d1 migrations apply DB --local --persist-to ${STATE}`)
  const seedStarted = Date.now()
  wrangler(`d1 execute DB --local --persist-to ${STATE} --file ${seedFile(now)}`)
  console.log(`Loaded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`)

  const server = await startDevServer({
    port: PORT,
    persistTo: STATE,
    vars: { RATE_LIMIT_DISABLED: 'true' },
  })
  const cases = [
    { title: 'GET /contests/health', path: '/contests/health' },
    { title: 'GET /contests/upcoming (cached)', path: '/contests/upcoming' },
    { title: 'GET /contests/upcoming (uncached)', path: '/contests/upcoming', bust: true },
    {
      title: 'GET /contests/search?q=educational (uncached)',
      path: '/contests/search?q=educational',
      bust: true,
    },
    { title: 'GET /contests?limit=100 (uncached)', path: '/contests?limit=100', bust: true },
    { title: 'GET /contests?limit=100 (cached)', path: '/contests?limit=100' },
  ]
  const results = []
  try {
    // Warm-up: compiles the Worker and fills the caches the cached cases read.
    for (const c of cases) await fetch(`${server.base}${c.path}`)
    for (const c of cases) {
      process.stdout.write(`${c.title}... `)
      const r = await run(server.base, c)
      console.log(`${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`)
      results.push(r)
    }
  } finally {
    server.stop()
  }
  writeResults(results, now)
}

function writeResults(results, now) {
  const health = results[0].rps
  replaceSection('catalogue', [
    `Run of ${new Date(now).toISOString()}: ${CONTESTS} contests, ${CONNECTIONS} connections, ${DURATION} s per case, ` +
      `\`wrangler dev\` (local workerd and D1) on this machine (${process.platform}, Node ${process.version}).`,
    '',
    '| endpoint | req/s | p50 ms | p99 ms | ratio to health | non-2xx + errors |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / health).toFixed(2)} | ${r.errors} |`,
    ),
  ])
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
