// GET /status and /status.json: each platform's state, the incidents of 30 days as the sync opens
// and closes them, each channel's day of deliveries with its delays, the jobs' last runs, no
// personal data, and one D1 batch a minute however many requests come for either.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { bumpCatalogueVersion } from '../src/contests/catalogue-version.ts'
import type { Env } from '../src/env.ts'
import { runCron } from '../src/jobs/cron.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { announceIncidents } from '../src/sync/incidents.ts'
import { runSync } from '../src/sync/job.ts'
import { addContests, contest } from './helpers/contests.ts'
import { countingCalls } from './helpers/counting.ts'
import {
  attemptAt,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import {
  capturingSyncQueue,
  clearSyncState,
  servePlatform,
  RECORDED_AT,
} from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { call, getJson } from './helpers/worker.ts'

beforeEach(async () => {
  await clearSyncState()
  await resetNotifications()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM incidents'),
    env.DB.prepare('DELETE FROM job_runs'),
    env.DB.prepare('DELETE FROM notification_deliveries'),
  ])
  await env.KV.delete('platforms:snapshot')
  // A new version: nothing read before this test is shared with it.
  await bumpCatalogueVersion(env.KV)
})

/** What /status.json says now (the test's writes bump the version the read is keyed by). */
async function statusNow() {
  await bumpCatalogueVersion(env.KV)
  const { status, body } = await getJson('/status.json')
  expect(status).toBe(200)
  return body
}

async function syncCodeforces(now: number) {
  const jobEnv = { ...env, RESEND_API_KEY: 're_test_key' } as Env
  const outcome = await runSync({ ...syncDeps(jobEnv), timeoutMs: 500 }, ['codeforces'], now)
  await announceIncidents(jobEnv, outcome.transitions, now)
  return outcome.reports[0]
}

/** The nearest-rank percentile, as a reader would work it out from the stored times. */
function nearestRank(sorted: number[], p: number) {
  return sorted[Math.ceil(p * sorted.length) - 1]
}

describe('/status.json', () => {
  it("shows a platform's state, source, upcoming count and last success, and its incident open then closed", async () => {
    await servePlatform('codeforces')
    expect(await syncCodeforces(RECORDED_AT)).toMatchObject({ state: 'ok' })
    const healthy = await statusNow()
    const cf = healthy.platforms.find((p: { id: string }) => p.id === 'codeforces')
    expect(cf).toMatchObject({
      state: 'ok',
      source: 'own',
      lastSuccess: new Date(RECORDED_AT).toISOString(),
    })
    expect(cf.upcoming).toBeGreaterThan(0)
    expect(healthy.incidents).toEqual([])
    expect(healthy.status).toBe('ok')

    await standIn.reset()
    await servePlatform('codeforces', { status: 'OK', result: [] })
    const broken = RECORDED_AT + 6 * HOUR_MS
    expect(await syncCodeforces(broken)).toMatchObject({ state: 'degraded' })
    // A second failing sync is the same incident.
    await syncCodeforces(broken + 6 * HOUR_MS)
    const during = await statusNow()
    expect(during.status).toBe('degraded')
    expect(during.platforms.find((p: { id: string }) => p.id === 'codeforces').state).toBe(
      'degraded',
    )
    expect(during.incidents).toEqual([
      {
        scope: 'platform',
        subject: 'codeforces',
        name: 'Codeforces',
        kind: 'degraded',
        startedAt: new Date(broken).toISOString(),
      },
    ])

    await standIn.reset()
    await servePlatform('codeforces')
    const healed = broken + 12 * HOUR_MS
    expect(await syncCodeforces(healed)).toMatchObject({ state: 'ok' })
    const after = await statusNow()
    expect(after.status).toBe('ok')
    expect(after.incidents).toEqual([
      expect.objectContaining({
        subject: 'codeforces',
        startedAt: new Date(broken).toISOString(),
        endedAt: new Date(healed).toISOString(),
      }),
    ])
  })

  it('counts each channel’s sent, retried and failed deliveries and the delays from due to sent', async () => {
    const e = testEnv()
    const sender = await recipient({ platforms: ['codeforces'], notifyBefore: 1 })
    await addContests([contest(0.5), contest(0.6), contest(0.7)])
    await runScheduler(e)
    const sentAt = Date.now() + 5 * 60_000
    for (const body of e.NOTIFICATIONS_QUEUE.bodies.splice(0)) await attemptAt(e, body, sentAt)

    await recipient({ platforms: ['leetcode'], notifyBefore: 1 })
    await addContests([contest(0.5, { platform: 'leetcode', type: 'WEEKLY' })])
    await runScheduler(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 500, body: { message: 'Resend is down' } }],
    })
    for (const body of e.NOTIFICATIONS_QUEUE.bodies.splice(0)) await attemptAt(e, body, Date.now())

    await recipient({ platforms: ['atcoder'], notifyBefore: 1 })
    await addContests([contest(0.5, { platform: 'atcoder', type: 'ABC' })])
    await runScheduler(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 422, body: { message: 'Invalid `to` field' } }],
    })
    for (const body of e.NOTIFICATIONS_QUEUE.bodies.splice(0)) await attemptAt(e, body, Date.now())

    const { results } = await env.DB.prepare(
      `SELECT d.sent_at - n.scheduled_at AS delay FROM notification_deliveries d
        JOIN notifications n ON n.id = d.notification_id WHERE n.user_id = ? ORDER BY delay`,
    )
      .bind(sender.id)
      .all<{ delay: number }>()
    const delays = results.map((r) => r.delay)
    expect(delays).toHaveLength(3)
    const body = await statusNow()
    const email = body.deliveries.channels.find((c: { channel: string }) => c.channel === 'email')
    expect(email).toMatchObject({ label: 'Email', sent: 3, retried: 1, failed: 1 })
    expect(email.medianDelaySeconds).toBeCloseTo(nearestRank(delays, 0.5) / 1000, 1)
    expect(email.p95DelaySeconds).toBeCloseTo(nearestRank(delays, 0.95) / 1000, 1)
    expect(body.deliveries).toMatchObject({ windowHours: 24, limited: false })
    const push = body.deliveries.channels.find((c: { channel: string }) => c.channel === 'push')
    expect(push).toMatchObject({ sent: 0, failed: 0, medianDelaySeconds: null })
  })

  it('shows the last run of each cron job and its outcome', async () => {
    const { queue } = capturingSyncQueue()
    const at = Date.now()
    await runCron('0 */6 * * *', { ...env, SYNC_QUEUE: queue }, at - HOUR_MS)
    const down = { sendBatch: async () => Promise.reject(new Error('sync queue down')) }
    await expect(
      runCron('0 */6 * * *', { ...env, SYNC_QUEUE: down as unknown as Queue }, at),
    ).rejects.toThrow(/sync queue down/)
    await runCron('*/30 * * * *', testEnv(), at)
    const { jobs } = await statusNow()
    expect(jobs).toEqual([
      {
        job: 'scheduler',
        cron: '*/30 * * * *',
        lastRun: expect.objectContaining({ startedAt: new Date(at).toISOString(), outcome: 'ok' }),
      },
      {
        job: 'sync',
        cron: '0 */6 * * *',
        lastRun: expect.objectContaining({
          startedAt: new Date(at).toISOString(),
          outcome: 'failed',
        }),
      },
      { job: 'cleanup', cron: '0 2 * * *', lastRun: null },
    ])
  })

  it('is described in /openapi.json', async () => {
    const { body } = await getJson('/openapi.json')
    const op = body.paths['/status.json'].get
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ServiceStatus',
    )
    expect(body.paths['/status']).toBeUndefined()
  })
})

describe('/status', () => {
  it('shows the same figures as a page without personal data, linked from every page', async () => {
    const e = testEnv()
    const user = await recipient({
      platforms: ['codeforces'],
      notifyBefore: 1,
      name: 'Grace Hopper',
    })
    await addContests([contest(0.5)])
    await runScheduler(e)
    for (const body of e.NOTIFICATIONS_QUEUE.bodies.splice(0)) await attemptAt(e, body, Date.now())
    await bumpCatalogueVersion(env.KV)
    const res = await call('/status', {}, PROVIDERS)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/text\/html/)
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    const html = await res.text()
    for (const heading of [
      'Incidents in the last 30 days',
      'Platforms',
      'Deliveries in the last 24 hours',
      'Scheduled jobs',
    ]) {
      expect(html).toContain(heading)
    }
    expect(html).toMatch(
      /<li data-channel="email"><strong>Email<\/strong>: <span class="sent">1<\/span> sent/,
    )
    expect(html).not.toContain(user.email)
    expect(html).not.toContain('Grace Hopper')
    const json = JSON.stringify((await getJson('/status.json')).body)
    expect(json).not.toContain(user.email)
    for (const path of ['/', '/app/signin', '/status']) {
      expect(await (await call(path)).text()).toContain('<a href="/status">Service status</a>')
    }
  })
})

describe('caching', () => {
  it('reads D1 once, in one batch, for any number of requests of the page and the JSON within a minute', async () => {
    await bumpCatalogueVersion(env.KV)
    const calls: string[] = []
    const DB = countingCalls(env.DB, (method) => calls.push(method))
    const answers = []
    for (let i = 0; i < 5; i++) {
      answers.push(await call('/status.json', {}, { DB }))
      answers.push(await call('/status', {}, { DB }))
      // A query string of its own makes no read of its own.
      answers.push(await call(`/status.json?nocache=${i}`, {}, { DB }))
    }
    expect(answers.every((r) => r.status === 200)).toBe(true)
    expect(calls.filter((m) => m === 'batch')).toHaveLength(1)
    expect(calls.filter((m) => m !== 'batch' && m !== 'prepare')).toEqual([])
    expect(calls.filter((m) => m === 'prepare')).toHaveLength(3)
    expect(answers[0].headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=60')
    const etag = answers[0].headers.get('ETag')!
    expect(
      (await call('/status.json', { headers: { 'If-None-Match': etag } }, { DB })).status,
    ).toBe(304)
  })
})
