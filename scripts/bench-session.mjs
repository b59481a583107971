// `npm run bench:session`: what a signed-in request costs, so the session check every bearer
// request makes can be measured before and after it changes. The real Worker in workerd
// (Miniflare, no `wrangler dev`) with local D1, KV and the rate-limiter Durable Object, limits on;
// users signed up through the API; D1 statements counted per request. BENCH_SRC names the source
// tree to bundle (default src), so an older commit's tree (`git archive`) runs the same cases.
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Miniflare } from './lib/wrangler-miniflare.mjs'
import { bundleWorker, migrationStatements } from './lib/worker-bundle.mjs'

const SRC = resolve(process.env.BENCH_SRC ?? 'src')
const SEQUENTIAL = Number(process.env.BENCH_ROUNDS ?? 400)
const CONCURRENT = Number(process.env.BENCH_CONCURRENT_REQUESTS ?? 1200)
const IN_FLIGHT = Number(process.env.BENCH_CONNECTIONS ?? 8)
// GET /users/profile allows 100 a user per 15 minutes, PUT 20: enough users that none is refused.
const USERS = Number(process.env.BENCH_USERS ?? 40)
const COMPATIBILITY_DATE = '2026-04-20'

// The entry with its D1 binding wrapped: every prepared statement counted (a batch's too).
const wrapper = (entry) => `
import worker from ${JSON.stringify(entry)}
export { RateLimiter } from ${JSON.stringify(entry)}
let statements = 0
const wrapped = new WeakMap()
function counted(env) {
  let e = wrapped.get(env)
  if (!e) {
    const db = new Proxy(env.DB, {
      get(target, key) {
        if (key === 'prepare') return (sql) => (statements++, target.prepare(sql))
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    e = { ...env, DB: db }
    wrapped.set(env, e)
  }
  return e
}
export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url)
    if (pathname === '/__bench/d1') return Response.json({ statements })
    if (pathname === '/__bench/d1/reset') return (statements = 0), new Response(null, { status: 204 })
    return worker.fetch(request, counted(env), ctx)
  },
}
`

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

/** A client address of its own for each request: the per-address limits never refuse one. */
let addresses = 0
const nextAddress = () => {
  const i = ++addresses
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
}

async function main() {
  const mf = new Miniflare({
    modules: true,
    script: await bundleWorker({ contents: wrapper(`${SRC}/index.ts`) }),
    compatibilityDate: COMPATIBILITY_DATE,
    d1Databases: ['DB'],
    kvNamespaces: ['KV'],
    queueProducers: { NOTIFICATIONS_QUEUE: { queueName: 'notifications' } },
    durableObjects: { RATE_LIMITER: { className: 'RateLimiter', useSQLite: true } },
    bindings: { JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256' },
    // The Worker's own log lines (no email provider at sign-up) would bury the figures.
    handleRuntimeStdio: (stdout, stderr) => (stdout.resume(), stderr.resume()),
  })
  try {
    const db = await mf.getD1Database('DB')
    for (const statement of migrationStatements()) await db.prepare(statement).run()
    const send = (method, path, { token, body } = {}) =>
      mf.dispatchFetch(`http://bench${path}`, {
        method,
        headers: {
          'CF-Connecting-IP': nextAddress(),
          ...(token && { Authorization: `Bearer ${token}` }),
          ...(body && { 'Content-Type': 'application/json' }),
        },
        body: body && JSON.stringify(body),
      })
    const tokens = []
    for (let i = 0; i < USERS; i++) {
      const res = await send('POST', '/auth/signup', {
        body: { email: `bench-${i}@example.test`, password: `password-${i}-long`, name: 'Bench' },
      })
      if (res.status !== 201) throw new Error(`signup: ${res.status} ${await res.text()}`)
      tokens.push((await res.json()).accessToken)
    }
    const cases = [
      { title: 'GET /contests/health (no token)', method: 'GET', path: '/contests/health' },
      { title: 'GET /users/profile', method: 'GET', path: '/users/profile', signed: true },
      {
        title: 'PUT /users/profile',
        method: 'PUT',
        path: '/users/profile',
        signed: true,
        body: { name: 'Bench Person' },
        // 20 a user per 15 minutes: one request at a time only.
        sequentialOnly: true,
      },
    ]
    let n = 0
    const request = async (c) => {
      const token = c.signed ? tokens[n++ % tokens.length] : undefined
      const res = await send(c.method, c.path, { token, body: c.body })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`${c.title}: ${res.status}`)
    }
    const d1 = async (reset) => {
      const res = await mf.dispatchFetch(`http://bench/__bench/d1${reset ? '/reset' : ''}`)
      return reset ? undefined : (await res.json()).statements
    }
    // Warm-up: compiles the code paths each case takes.
    for (const c of cases) for (let i = 0; i < 5; i++) await request(c)
    const results = []
    for (const c of cases) {
      const times = []
      await d1(true)
      for (let i = 0; i < SEQUENTIAL; i++) {
        const start = performance.now()
        await request(c)
        times.push(performance.now() - start)
      }
      const statements = (await d1()) / SEQUENTIAL
      times.sort((a, b) => a - b)
      let rps
      if (!c.sequentialOnly) {
        let left = CONCURRENT
        const start = performance.now()
        const lane = async () => {
          while (left-- > 0) await request(c)
        }
        await Promise.all(Array.from({ length: IN_FLIGHT }, lane))
        rps = Math.round(CONCURRENT / ((performance.now() - start) / 1000))
      }
      const r = {
        title: c.title,
        p50: percentile(times, 0.5).toFixed(2),
        p99: percentile(times, 0.99).toFixed(2),
        rps,
        statements: statements.toFixed(2),
      }
      console.log(
        `${r.title}: p50 ${r.p50} ms, p99 ${r.p99} ms (one at a time, ${SEQUENTIAL} requests)` +
          (rps ? `, ${rps} req/s (${IN_FLIGHT} in flight, ${CONCURRENT} requests)` : '') +
          `, ${r.statements} D1 statements a request`,
      )
      results.push(r)
    }
    console.log(JSON.stringify({ src: SRC, at: new Date().toISOString(), results }))
  } finally {
    await mf.dispose()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
