// `node scripts/bench-signin.mjs`: measures the cost of a sign-in inside workerd (Miniflare, no
// network): PBKDF2 password verifications on their own, then whole POST /auth/signin requests
// against the real Worker with local D1, KV and the rate-limiter Durable Object.
import { performance } from 'node:perf_hooks'
import { Miniflare } from './lib/wrangler-miniflare.mjs'
import { bundleWorker, migrationStatements } from './lib/worker-bundle.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const COMPATIBILITY_DATE = '2026-04-20'

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length
  return {
    mean: mean.toFixed(1),
    median: sorted[Math.floor(sorted.length / 2)].toFixed(1),
    min: sorted[0].toFixed(1),
    max: sorted[sorted.length - 1].toFixed(1),
  }
}

/** Wall time of `fn` in milliseconds. */
async function timed(fn) {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

// Part 1: PBKDF2 verifications alone, in a bare Worker, with the empty request as the baseline.
async function benchPbkdf2() {
  const script = await bundleWorker({
    contents: `import { hashPassword, verifyPassword } from './src/lib/crypto.ts'
    let stored
    export default {
      async fetch(request) {
        const url = new URL(request.url)
        if (url.pathname === '/noop') return new Response('ok')
        stored ??= await hashPassword('correct horse battery staple')
        const n = Number(url.searchParams.get('n') ?? 1)
        for (let i = 0; i < n; i++) {
          const { ok } = await verifyPassword('correct horse battery staple', stored)
          if (!ok) throw new Error('verification failed')
        }
        return new Response('ok')
      },
    }`,
  })
  const mf = new Miniflare({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE })
  try {
    await mf.dispatchFetch('http://bench/verify?n=1') // warm-up and the stored hash
    const noop = []
    const one = []
    for (let i = 0; i < ROUNDS; i++) {
      noop.push(await timed(async () => (await mf.dispatchFetch('http://bench/noop')).text()))
      one.push(await timed(async () => (await mf.dispatchFetch('http://bench/verify?n=1')).text()))
    }
    const batch = await timed(async () =>
      (await mf.dispatchFetch(`http://bench/verify?n=${ROUNDS}`)).text(),
    )
    return { noop: stats(noop), one: stats(one), batchPerVerify: (batch / ROUNDS).toFixed(1) }
  } finally {
    await mf.dispose()
  }
}

// Part 2: whole sign-in requests through the real Worker.
async function benchSignin() {
  const script = await bundleWorker({ entry: 'src/index.ts' })
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    d1Databases: ['DB'],
    kvNamespaces: ['KV'],
    queueProducers: { NOTIFICATIONS_QUEUE: { queueName: 'notifications' } },
    durableObjects: { RATE_LIMITER: { className: 'RateLimiter', useSQLite: true } },
    bindings: {
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
      // Every request comes from one address and one email; the limits would stop the run.
      RATE_LIMIT_DISABLED: 'true',
    },
  })
  try {
    const db = await mf.getD1Database('DB')
    for (const statement of migrationStatements()) await db.prepare(statement).run()
    const credentials = { email: 'bench@example.test', password: 'correct horse battery staple' }
    const post = (path, body) =>
      mf.dispatchFetch(`http://bench${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '192.0.2.1' },
        body: JSON.stringify(body),
      })
    const signup = await post('/auth/signup', { ...credentials, name: 'Bench' })
    if (signup.status !== 201)
      throw new Error(`signup failed: ${signup.status} ${await signup.text()}`)
    await signup.text()
    const health = []
    const signin = []
    const wrong = []
    for (let i = 0; i < ROUNDS; i++) {
      health.push(
        await timed(async () => (await mf.dispatchFetch('http://bench/contests/health')).text()),
      )
      signin.push(
        await timed(async () => {
          const res = await post('/auth/signin', credentials)
          if (res.status !== 200) throw new Error(`signin failed: ${res.status}`)
          await res.text()
        }),
      )
      wrong.push(
        await timed(async () =>
          (await post('/auth/signin', { ...credentials, password: 'nope' })).text(),
        ),
      )
    }
    return { health: stats(health), signin: stats(signin), wrongPassword: stats(wrong) }
  } finally {
    await mf.dispose()
  }
}

const pbkdf2 = await benchPbkdf2()
const signin = await benchSignin()
console.log(JSON.stringify({ rounds: ROUNDS, pbkdf2, signin }, null, 2))
console.log(
  `\nOne PBKDF2-SHA256 verification (100,000 iterations) in workerd: ` +
    `~${pbkdf2.batchPerVerify} ms ` +
    `(${ROUNDS} in one request; request overhead ~${pbkdf2.noop.median} ms).\n` +
    `POST /auth/signin end to end: median ${signin.signin.median} ms ` +
    `(health check ${signin.health.median} ms, wrong password ${signin.wrongPassword.median} ms).`,
)
