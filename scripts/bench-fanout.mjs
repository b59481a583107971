// `npm run bench:fanout`: the notification fan-out in workerd (Miniflare, no network). Seeds
// BENCH_USERS users (default 100,000) and BENCH_CONTESTS due contests (default 50) in local D1,
// times one scheduler run and the fan-out pages it queues, consumed one batch after another
// (select due followers in SQL, insert notifications and deliveries, sendBatch to the local
// queue) with workerd's CPU time, then the consumer's throughput against a loopback email
// provider, counting D1 statements and rows, queue operations, invocations and provider calls.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { execFileSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { Miniflare } from './lib/wrangler-miniflare.mjs'
import { bundleWorker, migrationStatements } from './lib/worker-bundle.mjs'

const USERS = Number(process.env.BENCH_USERS ?? 100_000)
const CONTESTS = Number(process.env.BENCH_CONTESTS ?? 50)
const CONSUMED = Number(process.env.BENCH_CONSUMED ?? 20_000)
// Every user's lead times in minutes (BENCH_LEAD_TIMES=1440,60,10); more than one adds a day of
// half-hourly runs, so each lead time's reminders are made when they fall due.
const LEAD_TIMES = (process.env.BENCH_LEAD_TIMES ?? '1440').split(',').map(Number)
// BENCH_QUEUE=none drops the messages instead of sending them, to time the SQL on its own.
const QUEUE = process.env.BENCH_QUEUE === 'none' ? '?queue=none' : ''
// BENCH_PROFILE=1 adds the D1 time spent per statement shape, for finding where a run goes.
const PROFILE = process.env.BENCH_PROFILE === '1'
const COMPATIBILITY_DATE = '2026-04-20'
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'

// The bench Worker: seeding in SQL, the real scheduler, the real consumer on synthetic batches.
const WORKER = `
import { runNotificationScheduler } from './src/notifications/scheduling/scheduler.ts'
import { consumeNotificationQueue } from './src/notifications/scheduling/queue-consumer.ts'

const PLATFORMS = ['codeforces', 'leetcode', 'codechef', 'atcoder']
const TYPES = { codeforces: 'CF', leetcode: 'WEEKLY', codechef: 'STARTERS', atcoder: 'ABC' }
// Two followed platforms per user, six pairs in turn; 90% immediate, 5% daily, 5% weekly;
// one user in ten wants div2 rounds only.
const SEED_USERS = \`WITH RECURSIVE seq(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?2)
  INSERT INTO users (id, email, name, password_hash, platforms, alert_frequency, contest_types,
    notify_email, notify_whatsapp, notify_push, notify_before, timezone, is_active,
    email_verified_at, created_at, updated_at, lead_times)
  SELECT printf('%024x', i), 'user' || i || '@bench.test', 'User ' || i, 'x',
    CASE i % 6 WHEN 0 THEN '["codeforces","leetcode"]' WHEN 1 THEN '["codeforces","codechef"]'
      WHEN 2 THEN '["codeforces","atcoder"]' WHEN 3 THEN '["leetcode","codechef"]'
      WHEN 4 THEN '["leetcode","atcoder"]' ELSE '["codechef","atcoder"]' END,
    CASE WHEN i % 20 = 0 THEN 'daily' WHEN i % 20 = 1 THEN 'weekly' ELSE 'immediate' END,
    CASE WHEN i % 10 = 5 THEN '["div2"]' ELSE '[]' END,
    1, 0, 0, ?4, 'UTC', 1, 1, 1, 1, ?3
  FROM seq\`
const SEED_PLATFORMS = \`INSERT INTO user_platforms (user_id, platform)
  SELECT u.id, j.value FROM users u, json_each(u.platforms) j
  WHERE u.id >= printf('%024x', ?1) AND u.id <= printf('%024x', ?2)\`

// Counts the D1 statements the app runs (a batch counts each statement in it), so the bench can
// report statements per notification and per delivery from the real code paths.
let statements = 0
const rows = { read: 0, written: 0 }
// Milliseconds spent per statement shape (its first words), reported with BENCH_PROFILE=1.
const profile = new Map()
const shapeOf = (sql) => sql.replace(/\\s+/g, ' ').trim().slice(0, 60)
async function timed(sql, run) {
  const started = Date.now()
  try {
    return await run()
  } finally {
    const entry = profile.get(shapeOf(sql)) ?? { ms: 0, count: 0 }
    entry.ms += Date.now() - started
    entry.count++
    profile.set(shapeOf(sql), entry)
  }
}
const rawOf = new WeakMap()
const sqlOf = new WeakMap()
/**
 * Adds a result's rows read and written (D1 bills both) to the tally: a lower bound, since raw()
 * (drizzle's selects of fields) reports none.
 */
function tally(result) {
  rows.read += result?.meta?.rows_read ?? 0
  rows.written += result?.meta?.rows_written ?? 0
  return result
}
function countedStatement(stmt, sql) {
  const proxy = new Proxy(stmt, {
    get(target, key) {
      if (key === 'bind') return (...args) => countedStatement(target.bind(...args), sql)
      const value = target[key]
      if (['run', 'all'].includes(key)) {
        return async (...args) => {
          statements++
          return tally(await timed(sql, () => value.apply(target, args)))
        }
      }
      // first() returns no meta: run as all() to read it, answering as first() would.
      if (key === 'first') {
        return async (column) => {
          statements++
          const row = tally(await target.all()).results[0] ?? null
          return row && column !== undefined ? row[column] : row
        }
      }
      // raw() reports no rows: counted as a statement, its rows left out of the tally.
      if (key === 'raw') {
        return (...args) => {
          statements++
          return value.apply(target, args)
        }
      }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  rawOf.set(proxy, stmt)
  sqlOf.set(proxy, sql)
  return proxy
}
function countedDb(db) {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql) => countedStatement(target.prepare(sql), sql)
      if (key === 'batch') {
        return async (list) => {
          statements += list.length
          const label = 'batch: ' + list.map((s) => shapeOf(sqlOf.get(s) ?? '?').slice(0, 30)).join(' | ')
          const results = await timed(label, () => target.batch(list.map((s) => rawOf.get(s) ?? s)))
          results.forEach(tally)
          return results
        }
      }
      const value = target[key]
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export default {
  async fetch(request, rawEnv) {
    const env = { ...rawEnv, DB: countedDb(rawEnv.DB) }
    const before = statements
    const readBefore = rows.read
    const writtenBefore = rows.written
    const usage = () => ({
      statements: statements - before,
      rowsRead: rows.read - readBefore,
      rowsWritten: rows.written - writtenBefore,
    })
    const url = new URL(request.url)
    const now = Number(url.searchParams.get('at') ?? url.searchParams.get('now'))
    if (url.pathname === '/seed') {
      const users = Number(url.searchParams.get('users'))
      const leads = JSON.parse(url.searchParams.get('leads'))
      const hours = Math.ceil(Math.max(...leads) / 60)
      for (let from = 0; from < users; from += 5000) {
        const to = Math.min(users, from + 5000) - 1
        await env.DB.batch([
          env.DB.prepare(SEED_USERS).bind(from, to, JSON.stringify(leads), hours),
          env.DB.prepare(SEED_PLATFORMS).bind(from, to),
        ])
      }
      const contests = Number(url.searchParams.get('contests'))
      const statements = []
      for (let c = 0; c < contests; c++) {
        const platform = PLATFORMS[c % 4]
        const start = now + (2 + (c * 20) / contests) * 3600000
        statements.push(env.DB.prepare(\`INSERT INTO contests (id, platform_id, name, platform, phase,
          type, start_time, end_time, duration_minutes, platform_metadata, is_active, is_notified,
          last_synced_at, created_at, updated_at)
          VALUES (printf('%024x', ?1), ?1, 'Bench Round ' || ?1, ?2, 'BEFORE', ?3, ?4, ?4 + 7200000,
            120, ?5, 1, 0, ?6, ?6, ?6)\`).bind(c + 1, platform, TYPES[platform], start,
          JSON.stringify(c % 3 === 0 ? { division: 'div2' } : {}), now))
      }
      await env.DB.batch(statements)
      return Response.json({ ok: true })
    }
    if (url.pathname === '/schedule') {
      const started = Date.now()
      // ?queue=none measures the SQL alone: the delivery messages are dropped instead of sent.
      const real = url.searchParams.get('queue') === 'none'
        ? { sendBatch: async () => {}, send: async () => {} }
        : env.NOTIFICATIONS_QUEUE
      // Fan-out pages stay here, to be consumed below as the queue would hand them to consumers;
      // delivery messages go on to the real queue.
      const pages = []
      const queue = {
        send: (body, options) => real.send(body, options),
        sendBatch: async (messages) => {
          const list = [...messages]
          pages.push(...list.filter((m) => m.body.fanOut).map((m) => m.body))
          const rest = list.filter((m) => !m.body.fanOut)
          if (rest.length > 0) await real.sendBatch(rest)
        },
      }
      const target = { ...env, NOTIFICATIONS_QUEUE: queue }
      const counts = await runNotificationScheduler(target, now)
      const runMs = Date.now() - started
      let invocations = 0
      let acked = 0
      // Batches of wrangler.toml's max_batch_size (10), one after another: one local D1.
      while (pages.length > 0) {
        const messages = pages.splice(0, 10).map((body, i) => ({
          id: String(i), timestamp: new Date(), attempts: 1, body,
          ack() { acked++ }, retry() { throw new Error('a fan-out page failed') },
        }))
        invocations++
        await consumeNotificationQueue({ queue: 'notifications', messages }, target)
      }
      return Response.json({
        counts,
        runMs,
        fanOutPagesConsumed: acked,
        fanOutInvocations: invocations,
        ms: Date.now() - started,
        ...usage(),
      })
    }
    if (url.pathname === '/profile') {
      const out = [...profile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)
      profile.clear()
      return Response.json(out)
    }
    if (url.pathname === '/calibrate') {
      // The cost of one trivial D1 statement here, to read the consumer's figure against.
      const started = Date.now()
      for (let i = 0; i < 1000; i++) await env.DB.prepare('SELECT 1').first()
      return Response.json({ msPerStatement: (Date.now() - started) / 1000 })
    }
    if (url.pathname === '/size') {
      // The database's size in bytes, tables and indexes together, as D1 reports it with every
      // result (meta.size_after); D1 allows neither dbstat nor PRAGMA page_count.
      const { meta } = await rawEnv.DB.prepare('SELECT 1').run()
      return Response.json({ bytes: meta.size_after })
    }
    if (url.pathname === '/count') {
      const row = await env.DB.prepare(\`SELECT (SELECT count(*) FROM notifications) AS notifications,
        (SELECT count(*) FROM notification_deliveries) AS deliveries,
        (SELECT count(*) FROM notification_deliveries WHERE queued_at IS NOT NULL) AS queued\`).first()
      return Response.json(row)
    }
    if (url.pathname === '/consume') {
      // The deliveries as the scheduler enqueued them: 100 of one channel to a message, and
      // batches of wrangler.toml's max_batch_size (10) to each invocation of the consumer.
      const n = Number(url.searchParams.get('n'))
      // The bench's own reads go to the raw binding: they are not the consumer's cost.
      const { results } = await rawEnv.DB.prepare(
        "SELECT id FROM notification_deliveries WHERE status = 'PENDING' ORDER BY rowid LIMIT ?1",
      ).bind(n).all()
      const bodies = []
      for (let i = 0; i < results.length; i += 100) {
        bodies.push({ deliveryIds: results.slice(i, i + 100).map((r) => r.id) })
      }
      let acked = 0
      let retried = 0
      let invocations = 0
      const started = Date.now()
      for (let i = 0; i < bodies.length; i += 10) {
        const messages = bodies.slice(i, i + 10).map((body, j) => ({
          id: String(i + j), timestamp: new Date(), attempts: 1, body,
          ack() { acked++ }, retry() { retried++ },
        }))
        invocations++
        await consumeNotificationQueue({ queue: 'notifications', messages }, env)
      }
      const sent = await rawEnv.DB.prepare(
        "SELECT count(*) AS n FROM notification_deliveries WHERE status = 'SENT'",
      ).first('n')
      return Response.json({
        deliveries: results.length,
        sent,
        messages: bodies.length,
        acked,
        retried,
        invocations,
        ms: Date.now() - started,
        ...usage(),
      })
    }
    return new Response('not found', { status: 404 })
  },
}
`

/** CPU seconds (user + system) the workerd children of this process have used so far. */
function workerdCpuSeconds() {
  let pids = []
  try {
    pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean)
  } catch {
    return NaN
  }
  let ticks = 0
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended between ps and the read.
    }
  }
  return ticks / 100
}

function workerdRssMb() {
  try {
    const pids = execFileSync('ps', ['-o', 'rss=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    })
    return Math.round(
      pids
        .split('\n')
        .filter(Boolean)
        .reduce((a, b) => a + Number(b), 0) / 1024,
    )
  } catch {
    return NaN
  }
}

async function measured(fn) {
  const cpu = workerdCpuSeconds()
  const start = performance.now()
  const result = await fn()
  return {
    result,
    wallMs: Math.round(performance.now() - start),
    workerdCpuS: +(workerdCpuSeconds() - cpu).toFixed(2),
  }
}

// The bench's users are in UTC, and daily digests go out in the run whose local time is 09:00 to
// 09:30: a first run then would make 5,000 digests besides the reminders and hand them first to the
// consumer. Its clock stays out of that half hour, so every run measures the same work.
const HALF_HOUR = 1_800_000
function benchClock(at) {
  const sinceMidnight = at % 86_400_000
  return sinceMidnight >= 18 * HALF_HOUR && sinceMidnight < 19 * HALF_HOUR ? at - HALF_HOUR : at
}

// A loopback email provider: answers like Resend (one email or a batch), at once, and counts calls.
let providerCalls = 0
const provider = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    providerCalls++
    const body = Buffer.concat(chunks).toString('utf8')
    const answer = req.url.endsWith('/emails/batch')
      ? { data: JSON.parse(body).map((_, i) => ({ id: `bench-${providerCalls}-${i}` })) }
      : { id: `bench-${providerCalls}` }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(answer))
  })
})
await new Promise((resolve) => provider.listen(0, '127.0.0.1', resolve))
const providerUrl = `http://127.0.0.1:${provider.address().port}`

const mf = new Miniflare({
  modules: true,
  script: await bundleWorker({ contents: WORKER }),
  compatibilityDate: COMPATIBILITY_DATE,
  d1Databases: ['DB'],
  kvNamespaces: ['KV'],
  // A producer only: the messages stay queued, as they would while consumers catch up.
  queueProducers: { NOTIFICATIONS_QUEUE: { queueName: 'notifications' } },
  bindings: {
    RESEND_API_KEY: 're_bench',
    RESEND_API_URL: `${providerUrl}/resend`,
    // Reminder emails carry a mute link signed with a key derived from it.
    JWT_SECRET: randomBytes(36).toString('base64url'),
  },
})
try {
  const db = await mf.getD1Database('DB')
  for (const statement of migrationStatements()) await db.prepare(statement).run()
  const now = benchClock(Date.now())
  const call = async (path) => {
    const res = await mf.dispatchFetch(
      `http://bench${path}${path.includes('?') ? '&' : '?'}now=${now}`,
    )
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json()
  }
  const empty = await call('/size')
  const leads = encodeURIComponent(JSON.stringify(LEAD_TIMES))
  const seed = await measured(() =>
    call(`/seed?users=${USERS}&contests=${CONTESTS}&leads=${leads}`),
  )
  const seeded = await call('/size')
  // The seeding's statements are not the run's.
  if (PROFILE) await call('/profile')
  const run = await measured(() => call(`/schedule${QUEUE}`))
  // The first run's statements alone: the runs after it find nothing new to make.
  const schedulerProfile = PROFILE ? await call('/profile') : undefined
  const counts = await call('/count')
  const afterRun = await call('/size')
  const again = await measured(() => call('/schedule'))
  // With several lead times, the runs of the next day (every 30 minutes, as the cron) make the
  // shorter lead times' reminders as they fall due; the contests start 2 to 22 hours from now.
  let day
  if (LEAD_TIMES.length > 1) {
    const runs = []
    const dayRuns = await measured(async () => {
      for (let at = now + 30 * 60_000; at <= now + 23 * 3_600_000; at += 30 * 60_000) {
        runs.push((await call(`/schedule?at=${at}`)).ms)
      }
    })
    const after = await call('/count')
    day = {
      runs: runs.length,
      wallMs: dayRuns.wallMs,
      workerdCpuS: dayRuns.workerdCpuS,
      slowestRunMs: Math.max(...runs),
      notificationsMade: after.notifications - counts.notifications,
      stored: after,
    }
  }
  // The runs after the first are left out of both profiles.
  if (PROFILE) await call('/profile')
  const callsBefore = providerCalls
  const consume = await measured(() => call(`/consume?n=${CONSUMED}`))
  const consumerProfile = PROFILE ? await call('/profile') : undefined
  const calls = providerCalls - callsBefore
  const calibration = await call('/calibrate')
  const report = {
    users: USERS,
    contests: CONTESTS,
    leadTimes: LEAD_TIMES,
    seedMs: seed.wallMs,
    schedulerRun: { ...run.result, wallMs: run.wallMs, workerdCpuS: run.workerdCpuS },
    stored: counts,
    notificationsPerSecond: Math.round(counts.notifications / (run.wallMs / 1000)),
    // Statements the first run sent to D1, per notification it created (a batch counts each).
    d1StatementsPerNotification: +(run.result.statements / counts.notifications).toFixed(4),
    d1RowsReadPerNotification: +(run.result.rowsRead / counts.notifications).toFixed(2),
    d1RowsWrittenPerNotification: +(run.result.rowsWritten / counts.notifications).toFixed(2),
    secondRun: { ...again.result, wallMs: again.wallMs, workerdCpuS: again.workerdCpuS },
    ...(day && { nextDayOfRuns: day }),
    consumer: {
      ...consume.result,
      wallMs: consume.wallMs,
      workerdCpuS: consume.workerdCpuS,
      providerCalls: calls,
      deliveriesPerSecond: Math.round(consume.result.deliveries / (consume.wallMs / 1000)),
      d1StatementsPerDelivery: +(consume.result.statements / consume.result.deliveries).toFixed(4),
      d1RowsReadPerDelivery: +(consume.result.rowsRead / consume.result.deliveries).toFixed(2),
      d1RowsWrittenPerDelivery: +(consume.result.rowsWritten / consume.result.deliveries).toFixed(
        2,
      ),
      // Each message is written, read and deleted once on the happy path (Queues bills 3 each).
      queueOperationsPerDelivery: +(
        (3 * consume.result.messages) /
        consume.result.deliveries
      ).toFixed(4),
      workerInvocationsPerDelivery: +(
        consume.result.invocations / consume.result.deliveries
      ).toFixed(4),
      providerCallsPerDelivery: +(calls / consume.result.deliveries).toFixed(4),
      d1MsPerTrivialStatement: calibration.msPerStatement,
    },
    ...(PROFILE && { profile: { scheduler: schedulerProfile, consumer: consumerProfile } }),
    // What the stored rows weigh, indexes included: the database's growth while seeding, per
    // user, and during the first run, per reminder with its delivery.
    storage: {
      bytesPerUser: Math.round((seeded.bytes - empty.bytes) / USERS),
      bytesPerReminder: Math.round((afterRun.bytes - seeded.bytes) / counts.notifications),
    },
    workerdRssMb: workerdRssMb(),
  }
  console.log(JSON.stringify(report, null, 2))
  console.log(
    `\n${USERS} users, ${CONTESTS} due contests: one scheduler run created ` +
      `${counts.notifications} notifications and queued ${counts.queued} deliveries in ` +
      `${(run.wallMs / 1000).toFixed(1)} s (workerd CPU ${run.workerdCpuS} s; the cron run itself ` +
      `${(run.result.runMs / 1000).toFixed(1)} s, then ${run.result.fanOutPagesConsumed} fan-out ` +
      `pages); a second run ` +
      `found nothing new in ${(again.wallMs / 1000).toFixed(1)} s. The consumer sent ` +
      `${report.consumer.deliveriesPerSecond} deliveries/s against a loopback provider, ` +
      `${report.consumer.d1StatementsPerDelivery} D1 statements a delivery.`,
  )
} finally {
  await mf.dispose()
  provider.close()
}
