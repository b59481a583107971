// `npm run bench:results`: the results pipeline in workerd (Miniflare, no network). Seeds
// BENCH_HANDLES linked Codeforces handles (default 100,000, one account each) set-based in local
// D1, then runs the real consumer (askCheck: claim, the judge's real results module, storing,
// the alert and webhook hooks, the backoff) through each check's whole life in a stepped clock,
// against a loopback judge stand-in in the real wire formats: a Codeforces round of BENCH_ROUND
// rated participants (default 30,000) of whom BENCH_LINKED are linked (default 10,000), an AtCoder
// round, and a LeetCode round asked per linked handle, ten a request under GraphQL aliases
// (BENCH_LEETCODE linked handles, default 500).
// Counts upstream requests per contest and per handle, D1 statements, alerts and their time.
import { createServer } from 'node:http'
import { performance } from 'node:perf_hooks'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Miniflare } from './lib/wrangler-miniflare.mjs'
import { bundleWorker, migrationStatements } from './lib/worker-bundle.mjs'
import { replaceSection } from './lib/performance-doc.mjs'
import { importTypeScript } from './lib/import-typescript.mjs'

// The stand-ins' reading of an aliased GraphQL query: LeetCode's histories come ten a request.
const { answerAliasedQuery } = await importTypeScript('src/platforms/graphql-aliases.ts')

const HANDLES = Number(process.env.BENCH_HANDLES ?? 100_000)
const ROUND = Number(process.env.BENCH_ROUND ?? 30_000)
const LINKED = Number(process.env.BENCH_LINKED ?? 10_000)
const LEETCODE = Number(process.env.BENCH_LEETCODE ?? 500)
const ATCODER = 2_000
// Unanswered checks before each judge publishes (the stand-in answers "not yet" this many times):
// Codeforces' ratings about two hours after a round (checks at 10, 30, 70 minutes pending, the
// one at 130 published), AtCoder's at the first check, LeetCode's about three days later (its
// first LC_PENDING requests answer every handle "not yet").
const CF_PENDING = 3
const LC_PENDING = Number(process.env.BENCH_LC_PENDING ?? 16)
const COMPATIBILITY_DATE = '2026-04-20'
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'

const CF_ROUND = '2400'
const CF_NAME = 'Codeforces Round 1100 (Div. 2)'
const ABC = 'abc500'
const LC_SLUG = 'weekly-contest-600'
const LC_TITLE = 'Weekly Contest 600'
const HOUR = 3_600_000

// The bench Worker: set-based seeding, and each check's life run by the real consumer.
const WORKER = `
import { askCheck } from './src/results/consumer.ts'
import { resultsDeps } from './src/results/deps.ts'
import { resultChecksJob, resultHooks } from './src/jobs/results.ts'
import { findCheck } from './src/results/checks.ts'
import { NEVER } from './src/results/backoff.ts'
import { createDb } from './src/db/client.ts'
import { platformModule } from './src/platforms/registry.ts'
import { takeToken } from './src/rate-limit/token-bucket.ts'

// Users with a verified email and email alerts on: each a recipient of its own handles' results.
const SEED_USERS = \`WITH RECURSIVE seq(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?2)
  INSERT INTO users (id, email, name, password_hash, platforms, alert_frequency, contest_types,
    notify_email, notify_whatsapp, notify_push, notify_before, timezone, is_active,
    email_verified_at, created_at, updated_at, lead_times)
  SELECT printf('%024x', i), printf('user%d@bench.test', i), printf('User %d', i), 'x', '["codeforces"]',
    'immediate', '[]', 1, 0, 0, 24, 'UTC', 1, ?3, ?3, ?3, '[1440]'
  FROM seq\`
// ?4 platform, ?5 handle prefix: one own proven handle per user of the range.
const SEED_HANDLES = \`WITH RECURSIVE seq(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?2)
  INSERT INTO judge_handles (id, user_id, platform, handle, handle_key, relation, state,
    proven_at, created_at, updated_at)
  SELECT printf('%s%020x', ?5, i), printf('%024x', i), ?4, printf('%s%d', ?5, i),
    lower(printf('%s%d', ?5, i)), 'OWN',
    'PROVEN', ?3, ?3, ?3
  FROM seq\`
const SEED_CONTEST = \`INSERT INTO contests (id, platform_id, name, platform, phase, type, start_time,
    end_time, duration_minutes, platform_metadata, is_active, is_notified, last_synced_at,
    created_at, updated_at)
  VALUES (?1, ?2, ?3, ?4, 'FINISHED', ?5, ?6, ?7, 120, '{}', 1, 1, ?7, ?7, ?7)\`

// Counts the D1 statements the app runs (a batch counts each statement in it), and the time
// spent per statement shape (its first words), for the profile of the publishing check.
let statements = 0
let profile = new Map()
const shapeOf = (sql) => sql.replace(/\\s+/g, ' ').trim().slice(0, 50)
let trace = false
async function timed(shape, run) {
  if (trace) console.log('start', shape.slice(0, 80))
  const started = Date.now()
  try {
    return await run()
  } finally {
    const entry = profile.get(shape) ?? { ms: 0, count: 0 }
    entry.ms += Date.now() - started
    entry.count++
    profile.set(shape, entry)
  }
}
function countedDb(db) {
  const counted = (stmt, sql) =>
    new Proxy(stmt, {
      get(target, key) {
        if (key === 'bind') return (...args) => counted(target.bind(...args), sql)
        if (key === 'raw_') return target
        if (key === 'sql_') return sql
        const value = target[key]
        if (['run', 'all', 'first', 'raw'].includes(key)) {
          return (...args) => {
            statements++
            return timed(shapeOf(sql), () => value.apply(target, args))
          }
        }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql) => counted(target.prepare(sql), sql)
      if (key === 'batch') {
        return (list) => {
          statements += list.length
          const shape = 'batch: ' + list.map((s) => shapeOf(s.sql_ ?? '?').slice(0, 30)).join(' | ')
          return timed(shape, () => target.batch(list.map((s) => s.raw_ ?? s)))
        }
      }
      const value = target[key]
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * The judge's pace in the stepped clock: the RateLimiter Durable Object's own bucket arithmetic
 * (takeToken, one token refilled every minIntervalMs), kept per platform across invocations.
 */
function steppedPace(clock) {
  const buckets = new Map()
  return async (platform, ms) => {
    if (ms <= 0) return { allowed: true }
    const { state, result } = takeToken(buckets.get(platform), 1, ms, clock.now)
    buckets.set(platform, state)
    return result.allowed
      ? { allowed: true }
      : { allowed: false, retryAt: (result.retryAt ?? result.reset) * 1000 }
  }
}

export default {
  async fetch(request, rawEnv) {
    const env = { ...rawEnv, DB: countedDb(rawEnv.DB) }
    const url = new URL(request.url)
    const q = (name) => url.searchParams.get(name)
    trace = rawEnv.BENCH_TRACE === '1'
    if (url.pathname === '/seed') {
      const now = Number(q('now'))
      const handles = Number(q('handles'))
      const more = JSON.parse(q('more'))
      for (let from = 0; from < handles; from += 5000) {
        const to = Math.min(handles, from + 5000) - 1
        await rawEnv.DB.batch([
          rawEnv.DB.prepare(SEED_USERS).bind(from, to, now),
          rawEnv.DB.prepare(SEED_HANDLES).bind(from, to, now, 'codeforces', 'cf'),
        ])
      }
      // The other judges' handles on the first accounts, one each.
      for (const [platform, prefix, count] of more) {
        await rawEnv.DB.prepare(SEED_HANDLES).bind(0, count - 1, now, platform, prefix).run()
      }
      const contests = JSON.parse(q('contests'))
      await rawEnv.DB.batch(
        contests.map((c) =>
          rawEnv.DB.prepare(SEED_CONTEST).bind(c.id, c.platformId, c.name, c.platform, c.type,
            c.start, c.end),
        ),
      )
      const sent = []
      const queue = { send: async () => {}, sendBatch: async (m) => sent.push(...m) }
      const job = await resultChecksJob({ ...rawEnv, RESULTS_QUEUE: queue }, now, [
        'codeforces', 'atcoder', 'leetcode',
      ])
      return Response.json(job)
    }
    if (url.pathname === '/life') {
      // One check's life, as the queue and the scheduler's sweep would run it: each message
      // handed on when its delay is over, a check past the queue's longest delay picked up when
      // due, until nothing is left to ask. The pause inside a module (between two calls of one
      // ask) is not waited.
      const contestId = q('contest')
      const clock = { now: Number(q('now')) }
      const sent = []
      const queue = {
        send: async (body, options) => sent.push({ body, at: clock.now + (options?.delaySeconds ?? 0) * 1000 }),
        sendBatch: async (list) => { for (const m of list) await queue.send(m.body, m) },
      }
      // The time of each part of an ask outside D1: the judge's answer read, each hook, the
      // deliveries' sendBatch.
      const part = (name, fn) => (...args) => timed(name, () => fn(...args))
      const notifications = rawEnv.NOTIFICATIONS_QUEUE
      const e = {
        ...env,
        NOTIFICATIONS_QUEUE: {
          send: part('queue: send', (...a) => notifications.send(...a)),
          sendBatch: part('queue: sendBatch', (...a) => notifications.sendBatch(...a)),
        },
      }
      const real = resultsDeps(e, resultHooks(e).map((hook, i) => part(\`hook \${i}\`, hook)))
      const deps = {
        ...real,
        module: (platform) => {
          const m = real.module(platform)
          return m && {
            ...m,
            ...(m.contestResults && { contestResults: part('judge: contestResults', m.contestResults) }),
            ...(m.handleResult && { handleResult: part('judge: handleResult', m.handleResult) }),
            ...(m.handleBatch && {
              handleBatch: { ...m.handleBatch, results: part('judge: handleBatch', m.handleBatch.results) },
            }),
          }
        },
        queue,
        request: (platform, now) => {
          const base = real.request(platform, now)
          const fetchFn = (input, init) => {
            judgeRequests++
            return base.fetchFn(input, init)
          }
          return { ...base, fetchFn, pause: async () => {} }
        },
        pace: steppedPace(clock),
      }
      const db = createDb(rawEnv.DB)
      const asks = []
      // Requests the module sent to the judge, counted where it sends them: an ask's own.
      let judgeRequests = 0
      const judged = () => judgeRequests
      let message = { contestId }
      clock.now = (await findCheck(db, contestId)).nextCheckAt
      for (let n = 0; n < 100_000; n++) {
        const before = statements
        profile = new Map()
        const asked = judged()
        const started = Date.now()
        let outcome
        try {
          outcome = await askCheck(deps, message, clock.now)
        } catch (error) {
          // Which part failed, for the report: the profile so far names the last statements.
          error.message += ' (after ' + JSON.stringify([...profile].map(([k, v]) => [k.slice(0, 60), v.count])) + ')'
          throw error
        }
        const ms = Date.now() - started
        if (trace) console.log('asked', outcome, ms)
        asks.push({ at: clock.now, outcome, statements: statements - before, ms, requests: judged() - asked,
          profile: [...profile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12) })
        const next = sent.shift()
        if (next) {
          message = next.body
          clock.now = Math.max(next.at, clock.now)
          continue
        }
        const check = await findCheck(db, contestId)
        if (check.state === 'GAVE_UP' || check.nextCheckAt === NEVER) break
        message = { contestId }
        clock.now = check.nextCheckAt
      }
      const check = await findCheck(db, contestId)
      const alerts = await rawEnv.DB.prepare(
        'SELECT count(*) AS n FROM notifications WHERE contest_id = ?1',
      ).bind(contestId).first('n')
      const deliveries = await rawEnv.DB.prepare(
        \`SELECT count(*) AS n FROM notification_deliveries d JOIN notifications n
          ON n.id = d.notification_id WHERE n.contest_id = ?1\`,
      ).bind(contestId).first('n')
      const stored = await rawEnv.DB.prepare(
        'SELECT count(*) AS n FROM contest_results WHERE contest_id = ?1',
      ).bind(contestId).first('n')
      return Response.json({ asks, check, alerts, deliveries, stored })
    }
    if (url.pathname === '/debug') {
      const a = await rawEnv.DB.prepare("SELECT platform, count(*) n, min(handle_key) lo, max(handle_key) hi FROM judge_handles GROUP BY platform").all()
      const b = await rawEnv.DB.prepare("SELECT contest_id, platform, count(*) n FROM contest_results GROUP BY 1, 2").all()
      const c = await rawEnv.DB.prepare("SELECT * FROM result_checks").all()
      return Response.json({ a: a.results, b: b.results, c: c.results })
    }
    if (url.pathname === '/interval') {
      const { results } = platformModule(q('platform'))
      return Response.json({ ms: results.minIntervalMs, batch: results.handleBatch?.size ?? 1 })
    }
    return new Response('not found', { status: 404 })
  },
}
`

// --- the judge stand-in, in each judge's wire format -------------------------------------------

const requests = new Map()
const count = (key) => requests.set(key, (requests.get(key) ?? 0) + 1)
const perHandle = new Map()

/** The round's participants: every third linked (cf<i>, i a multiple of 10), the rest not. */
function cfParticipants(startSeconds) {
  const rows = []
  for (let i = 0; i < ROUND; i++) {
    const linked = i % 3 === 0 && i / 3 < LINKED
    const handle = linked ? `cf${(i / 3) * 10}` : `Visitor_${i}`
    const oldRating = 1200 + ((i * 37) % 1400)
    rows.push({
      contestId: Number(CF_ROUND),
      contestName: CF_NAME,
      handle,
      rank: i + 1,
      ratingUpdateTimeSeconds: startSeconds + 4 * 3600,
      oldRating,
      newRating: oldRating + ((i * 13) % 120) - 60,
    })
  }
  return rows
}

function serveJson(res, body) {
  // No keep-alive: node closes an idle socket after 5 s, and workerd reusing it after a long ask
  // reads "Network connection lost".
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

function startJudge(times) {
  const cfRows = JSON.stringify({
    status: 'OK',
    result: cfParticipants(Math.floor(times.cf.start / 1000)),
  })
  const standingsHead = {
    status: 'OK',
    result: {
      contest: { id: Number(CF_ROUND), name: CF_NAME, type: 'CF', phase: 'FINISHED' },
      problems: [{ index: 'A', points: 500 }],
      rows: [
        {
          party: { members: [{ handle: 'Visitor_0' }], participantType: 'CONTESTANT' },
          rank: 1,
          points: 500,
          problemResults: [{ points: 500 }],
        },
      ],
    },
  }
  const abcRows = Array.from({ length: ATCODER }, (_, i) => ({
    IsRated: true,
    Place: i + 1,
    OldRating: 800 + (i % 900),
    NewRating: 800 + (i % 900) + ((i * 7) % 60) - 30,
    Performance: 900 + (i % 1000),
    ContestName: 'AtCoder Beginner Contest 500',
    ContestNameEn: '',
    ContestScreenName: `${ABC}.contest.atcoder.jp`,
    EndTime: new Date(times.abc.end).toISOString(),
    ContestType: 0,
    UserName: i % 2 === 0 ? `ac${i / 2}` : `someone_${i}`,
    UserScreenName: i % 2 === 0 ? `ac${i / 2}` : `someone_${i}`,
    Country: 'JP',
    Affiliation: '',
    Rating: 800 + (i % 900),
    Competitions: 10,
    AtCoderRank: i + 1,
  }))
  const lcStart = Math.floor(times.lc.start / 1000)
  let lcAsks = 0
  /** One handle's history: the round's entry once it is published. */
  const lcHistory = (handle, published) => {
    perHandle.set(handle, (perHandle.get(handle) ?? 0) + 1)
    const i = Number(handle.slice(2))
    const earlier = {
      attended: true,
      rating: 1500 + (i % 500),
      ranking: 1000 + i,
      problemsSolved: 2,
      contest: { title: 'Weekly Contest 599', startTime: lcStart - 7 * 86_400 },
    }
    const entry = {
      attended: i % 4 !== 3,
      rating: 1500 + (i % 500) + (i % 4 === 3 ? 0 : 15),
      ranking: i % 4 === 3 ? 0 : 500 + i,
      problemsSolved: 3,
      contest: { title: LC_TITLE, startTime: lcStart },
    }
    return { data: { userContestRankingHistory: published ? [earlier, entry] : [earlier] } }
  }
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url, 'http://judge')
      if (url.pathname === '/cf/contest.ratingChanges') {
        count('codeforces')
        const asked = requests.get('codeforces:ratingChanges') ?? 0
        requests.set('codeforces:ratingChanges', asked + 1)
        return serveJson(res, asked < CF_PENDING ? { status: 'OK', result: [] } : cfRows)
      }
      if (url.pathname === '/cf/contest.standings') {
        count('codeforces')
        return serveJson(res, standingsHead)
      }
      if (url.pathname === `/atcoder/contests/${ABC}/results/json`) {
        count('atcoder')
        return serveJson(res, abcRows)
      }
      if (url.pathname === '/leetcode/graphql') {
        count('leetcode')
        const body = Buffer.concat(chunks).toString('utf8')
        // Every handle "not yet" until the publication (the walk's probe asks the first batch).
        const published = lcAsks++ >= LC_PENDING
        // A batch is answered alias by alias, each as the one-handle query it is.
        const aliased = answerAliasedQuery(body, (single) => ({
          status: 200,
          body: lcHistory(single.variables.username, published),
        }))
        if (aliased) {
          res.writeHead(aliased.status, { 'content-type': 'application/json', connection: 'close' })
          return res.end(JSON.stringify(aliased.body))
        }
        return serveJson(res, lcHistory(JSON.parse(body).variables.username, published))
      }
      res.writeHead(404)
      res.end('{}')
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

// --- the run -----------------------------------------------------------------------------------

const now = Date.now()
const times = {
  cf: { start: now - 3 * HOUR, end: now - HOUR },
  abc: { start: now - 2.7 * HOUR, end: now - HOUR },
  lc: { start: now - 2.5 * HOUR, end: now - HOUR },
}
const judge = await startJudge(times)
const base = `http://127.0.0.1:${judge.address().port}`
const email = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end('{"id":"bench"}')
})
await new Promise((resolve) => email.listen(0, '127.0.0.1', resolve))

// BENCH_LOG=1 shows workerd's own messages (an isolate over its memory limit, say).
const miniflare = createRequire(createRequire(import.meta.url).resolve('wrangler/package.json'))(
  'miniflare',
)
const mf = new Miniflare({
  ...(process.env.BENCH_LOG === '1' && { log: new miniflare.Log(miniflare.LogLevel.DEBUG) }),
  modules: true,
  script: await bundleWorker({ contents: WORKER }),
  compatibilityDate: COMPATIBILITY_DATE,
  d1Databases: ['DB'],
  kvNamespaces: ['KV'],
  // Producers only: the deliveries and webhook events stay queued, as consumers would find them.
  queueProducers: {
    NOTIFICATIONS_QUEUE: { queueName: 'notifications' },
    WEBHOOKS_QUEUE: { queueName: 'webhooks' },
  },
  bindings: {
    BENCH_TRACE: process.env.BENCH_TRACE ?? '0',
    CODEFORCES_API_URL: `${base}/cf`,
    ATCODER_URL: `${base}/atcoder`,
    LEETCODE_API_URL: `${base}/leetcode`,
    RESEND_API_KEY: 're_bench',
    RESEND_API_URL: `http://127.0.0.1:${email.address().port}`,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  },
})

function row(label, value, goal, met) {
  return { label, value, goal, met: met === undefined ? '' : met ? 'yes' : 'no' }
}

try {
  const db = await mf.getD1Database('DB')
  for (const statement of migrationStatements()) await db.prepare(statement).run()
  const call = async (path) => {
    const res = await mf.dispatchFetch(`http://bench${path}`)
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json()
  }
  const contests = [
    {
      id: 'c'.padEnd(24, '1'),
      platformId: CF_ROUND,
      name: CF_NAME,
      platform: 'codeforces',
      type: 'CF',
      ...times.cf,
    },
    {
      id: 'c'.padEnd(24, '2'),
      platformId: ABC,
      name: 'AtCoder Beginner Contest 500',
      platform: 'atcoder',
      type: 'ABC',
      ...times.abc,
    },
    {
      id: 'c'.padEnd(24, '3'),
      platformId: LC_SLUG,
      name: LC_TITLE,
      platform: 'leetcode',
      type: 'WEEKLY',
      ...times.lc,
    },
  ]
  const more = [
    ['atcoder', 'ac', ATCODER / 2],
    ['leetcode', 'lc', LEETCODE],
  ]
  const seedStart = performance.now()
  const seeded = await call(
    `/seed?now=${now}&handles=${HANDLES}&more=${encodeURIComponent(JSON.stringify(more))}` +
      `&contests=${encodeURIComponent(JSON.stringify(contests))}`,
  )
  const seedMs = Math.round(performance.now() - seedStart)
  if (seeded.resultChecksCreated !== 3) throw new Error(`checks made: ${JSON.stringify(seeded)}`)

  const lives = {}
  for (const c of contests) {
    const started = performance.now()
    const life = await call(`/life?contest=${c.id}&platform=${c.platform}&now=${now}`)
    lives[c.platform] = { ...life, wallMs: Math.round(performance.now() - started) }
  }
  const summary = (platform) => {
    const life = lives[platform]
    const publishing = life.asks.find((a) => a.outcome === 'published')
    const asked = (outcome) => life.asks.filter((a) => a.outcome === outcome).map((a) => a.requests)
    return {
      asks: life.asks.length,
      requestsPerPending: asked('pending'),
      requestsPerPublished: asked('published'),
      outcomes: life.asks.reduce((m, a) => ({ ...m, [a.outcome]: (m[a.outcome] ?? 0) + 1 }), {}),
      statements: life.asks.reduce((s, a) => s + a.statements, 0),
      publishing,
      requests: requests.get(platform) ?? 0,
      alerts: life.alerts,
      deliveries: life.deliveries,
      stored: life.stored,
      state: life.check.state,
      wallMs: life.wallMs,
    }
  }
  if (process.env.BENCH_DEBUG) console.log(JSON.stringify(await call('/debug'), null, 1))
  const cf = summary('codeforces')
  const ac = summary('atcoder')
  const lc = summary('leetcode')
  const lcCounts = [...perHandle.values()]
  const { ms: lcInterval, batch: lcBatch } = await call('/interval?platform=leetcode')
  const lcFirstAsk = lives.leetcode.asks[0].at
  const lcLastAsk = lives.leetcode.asks.at(-1).at
  const published = lives.leetcode.asks.filter((a) => a.outcome !== 'pending')
  const walkSeconds = (published.at(-1).at - published[0].at) / 1000
  const cfAlertsPerSecond = Math.round(cf.alerts / (cf.publishing.ms / 1000))
  // The publishing check's parts: the alert hook alone (createResultAlerts), and the rest.
  const partMs = (name) => cf.publishing.profile.find(([k]) => k === name)?.[1].ms ?? 0
  const alertStepMs = partMs('hook 0')
  const cfStatementsPerAlert = cf.publishing.statements / cf.alerts
  const report = {
    handles: { codeforces: HANDLES, atcoder: ATCODER / 2, leetcode: LEETCODE },
    round: { participants: ROUND, linked: LINKED },
    seedMs,
    codeforces: { ...cf, publishing: cf.publishing },
    atcoder: ac,
    leetcode: {
      ...lc,
      handlesAsked: perHandle.size,
      requestsPerHandle: +(lc.requests / LEETCODE).toFixed(3),
      mostAskedHandle: Math.max(...lcCounts),
      handlesAskedMoreThanOnce: lcCounts.filter((n) => n > 1).length,
      minIntervalMs: lcInterval,
      handlesPerRequest: lcBatch,
      walkSeconds,
      lifeHours: +((lcLastAsk - lcFirstAsk) / HOUR).toFixed(1),
      invocationsPerHandle: +(published.length / LEETCODE).toFixed(3),
    },
  }
  console.log(JSON.stringify(report, null, 2))

  const most = (list) => Math.max(0, ...list)
  const pendingNote = (j) =>
    j.requestsPerPending.length > 0 ? `, ${most(j.requestsPerPending)} per unanswered check` : ''
  const rows = [
    row(
      'Codeforces: upstream requests of a check that finds the results published (most)',
      most(cf.requestsPerPublished),
      '1',
      most(cf.requestsPerPublished) === 1,
    ),
    row(
      `Codeforces: upstream requests over the contest's life (${cf.asks} checks: ` +
        `${cf.outcomes.pending ?? 0} before the ratings${pendingNote(cf)}, then the publication ` +
        `and ${(cf.outcomes.published ?? 1) - 1} re-checks)`,
      cf.requests,
      '',
    ),
    row(
      'AtCoder: upstream requests of a check that finds the results published (most)',
      most(ac.requestsPerPublished),
      '1',
      most(ac.requestsPerPublished) === 1,
    ),
    row(
      `AtCoder: upstream requests over the contest's life (${ac.asks} checks: the publication ` +
        `and ${(ac.outcomes.published ?? 1) - 1} re-checks${pendingNote(ac)})`,
      ac.requests,
      '',
    ),
    row(
      `Codeforces round of ${ROUND.toLocaleString('en')} rated, ${LINKED.toLocaleString('en')} ` +
        `linked, ${HANDLES.toLocaleString('en')} linked handles: alerts created (deliveries)`,
      `${cf.alerts.toLocaleString('en')} (${cf.deliveries.toLocaleString('en')})`,
      LINKED.toLocaleString('en'),
      cf.alerts === LINKED,
    ),
    row(
      'Alerts created a second (the publishing check: fetch, store, alerts, deliveries queued)',
      cfAlertsPerSecond,
      '>= 20,000',
      cfAlertsPerSecond >= 20_000,
    ),
    row(
      `The publishing check's ${cf.publishing.ms.toLocaleString('en')} ms: the judge's answer ` +
        `read ${partMs('judge: contestResults')} ms, the alerts ` +
        `${alertStepMs.toLocaleString('en')} ms; alerts a second of the alert step alone`,
      Math.round(cf.alerts / (alertStepMs / 1000)),
      '',
    ),
    row(
      `D1 statements per alert (the publishing check: ${cf.publishing.statements} statements)`,
      +cfStatementsPerAlert.toFixed(4),
      '<= 0.01',
      cfStatementsPerAlert <= 0.01,
    ),
    row(
      `D1 statements per alert over the contest's life (${cf.statements} statements, ${cf.asks} checks)`,
      +(cf.statements / cf.alerts).toFixed(4),
      '<= 0.01',
      cf.statements / cf.alerts <= 0.01,
    ),
    row(
      `LeetCode: requests per linked handle per contest (${LEETCODE} handles, ${lcBatch} a ` +
        `request; the first ${lcBatch} asked by ${LC_PENDING} unanswered checks before the publication)`,
      report.leetcode.requestsPerHandle,
      '<= 1',
      report.leetcode.requestsPerHandle <= 1,
    ),
    row(
      'LeetCode: handles asked more than once; the most asks of one handle',
      `${report.leetcode.handlesAskedMoreThanOnce}; ${report.leetcode.mostAskedHandle}`,
      '',
    ),
    row(
      'LeetCode: requests a second the pace allows (one each minIntervalMs)',
      +(1000 / lcInterval).toFixed(2),
      '',
      undefined,
    ),
    row(
      `LeetCode: the walk of ${LEETCODE} handles in the stepped clock: seconds, handles a ` +
        'second, invocations (queue messages) per handle',
      `${walkSeconds} s, ${(LEETCODE / walkSeconds).toFixed(2)}/s, ${report.leetcode.invocationsPerHandle}`,
      '',
      undefined,
    ),
  ]
  const table = [
    '| Figure | Value | Goal | Met |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${typeof r.value === 'number' ? r.value.toLocaleString('en') : r.value} | ${r.goal} | ${r.met} |`,
    ),
  ]
  console.log(`\n${table.join('\n')}`)
  // Written into docs/performance.md where it has the section's markers; else printed only.
  if (readFileSync('docs/performance.md', 'utf8').includes('<!-- bench:results:start -->')) {
    replaceSection('results', table)
  }
} finally {
  await mf.dispose()
  judge.close()
  email.close()
}
