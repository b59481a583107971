// clist.by's budget of requests a minute: the long tail is asked for in one request, and a sync the
// budget put off (a fallback of a broken source, or the long tail) waits rather than fails and is
// queued again, delayed until the budget allows, on the real sync queue and its consumer.
import { env, runInDurableObject } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { runCron } from '../src/jobs/cron.ts'
import {
  clearSyncState,
  holdingSyncQueue,
  RECORDED_AT,
  runSyncQueue,
  servePlatform,
  SOURCED_PLATFORMS,
} from './helpers/platforms.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api, createAdmin, MAIL } from './helpers/users.ts'
import { getJson } from './helpers/worker.ts'
import { PLATFORM_MODULES } from '../src/platforms/registry.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'

const HOUR = 3_600_000
// Every platform without a source of its own: CLIST_PLATFORMS follows all of them by default.
const LONG_TAIL_PLATFORMS = PLATFORM_MODULES.filter((m) => !m.source).map((m) => m.id)

let held: ReturnType<typeof holdingSyncQueue>
beforeEach(async () => {
  await clearSyncState()
  held = holdingSyncQueue()
  await budgetMinutePasses()
})

/** clist.by configured against the stand-in, with a budget of `perMinute` requests. */
const withClist = (perMinute = 10): Partial<Env> => ({
  ...MAIL,
  CLIST_API_KEY: 'tester:key',
  CLIST_API_URL: `${standInUrl}/clist`,
  CLIST_REQUESTS_PER_MINUTE: String(perMinute),
  SYNC_QUEUE: held.queue,
})

/** Ages the shared clist budget's window by a minute, as if the minute had passed. */
async function budgetMinutePasses() {
  const budget = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('upstream:clist'))
  await runInDurableObject(budget, (_, state) => {
    const sql = state.storage.sql
    const table = sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'fixed_window'").toArray()
    if (table.length > 0) sql.exec('UPDATE fixed_window SET start = start - 61000')
  })
}

/** Spends the shared budget, as the other syncs of the minute would. */
async function spendBudget(perMinute: number) {
  const budget = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('upstream:clist'))
  for (let i = 0; i < perMinute; i++) await budget.hit(perMinute, 60_000)
  expect((await budget.hit(perMinute, 60_000)).allowed).toBe(false)
}

/** Two contests of `resource` to come, as clist.by lists them (naive UTC times). */
function clistPage(resource: string, href: (n: number) => string, from: number) {
  const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19)
  const objects = [1, 2].map((n) => ({
    id: 71_000_000 + n,
    resource,
    resource_id: 1,
    host: resource,
    event: `Round ${n} as clist lists it`,
    href: href(n),
    start: naive(from + n * 24 * HOUR),
    end: naive(from + n * 24 * HOUR + 2 * HOUR),
    duration: 7200,
  }))
  return { meta: { limit: 1000, offset: 0, next: null, previous: null }, objects }
}

/** clist.by answers every /contest/ request with `body`. */
const clistAnswers = (body: unknown) =>
  standIn.script({
    method: 'GET',
    pathPrefix: '/clist/contest/',
    responses: [{ status: 200, body, headers: { 'content-type': 'application/json' } }],
  })

const platformView = async (id: string) =>
  (await getJson('/platforms')).body.find((p: { id: string }) => p.id === id)

const stored = async (platform: string) =>
  (
    await env.DB.prepare(
      'SELECT platform_id FROM contests WHERE platform = ? AND is_active = 1 ORDER BY platform_id',
    )
      .bind(platform)
      .all<{ platform_id: string }>()
  ).results.map((r) => r.platform_id)

describe('the long tail from clist.by', () => {
  it('asks for every long-tail platform in one request and stores each its own contests', async () => {
    const deps = syncDeps({ ...env, ...withClist() })
    const { reports } = await runSync(deps, LONG_TAIL_PLATFORMS, RECORDED_AT)

    const requests = await standIn.requests('/clist/contest/')
    expect(requests).toHaveLength(1)
    const asked = new URL(requests[0].path, standInUrl).searchParams.get('resource')!.split(',')
    expect(asked.sort()).toEqual(
      [
        'codingame.com',
        'facebook.com/codingcompetitions/hacker-cup',
        'icpc.global',
        'kaggle.com',
        'open.kattis.com',
        'topcoder.com',
        'toph.co',
      ].sort(),
    )
    for (const report of reports) {
      expect(report, report.platform).toMatchObject({ state: 'ok', source: 'clist' })
      expect(report.error, report.platform).toBeUndefined()
      expect(report.created, report.platform).toBeGreaterThan(0)
    }
    expect(await stored('kattis')).toEqual(['q8k2vd'])
  })

  it('queues the long tail as one message, each platform with a source of its own alone', async () => {
    await runCron('0 */6 * * *', { ...env, ...withClist() }, Date.now())
    expect(held.sent.map((m) => m.body)).toEqual([
      ...SOURCED_PLATFORMS.map((p) => ({ platforms: [p] })),
      { platforms: LONG_TAIL_PLATFORMS },
    ])
  })
})

describe('a sync the clist budget put off', () => {
  it('lists a broken source’s clist contests within two minutes when its fallback met a spent budget', async () => {
    const admin = await createAdmin()
    const now = Date.now()
    await servePlatform('codeforces', '<html>Service Temporarily Unavailable</html>', 503)
    await clistAnswers(
      clistPage('codeforces.com', (n) => `https://codeforces.com/contest/${990 + n}`, now),
    )
    await spendBudget(1)

    const res = await api('POST', '/contests/sync/codeforces', {
      token: admin.accessToken,
      bindings: withClist(1),
    })
    expect(res.status).toBe(200)
    const [report] = res.body.results
    expect(report).toMatchObject({
      state: 'failing',
      source: 'own',
      waiting: 'waiting for the clist budget',
    })
    expect(report.error).toMatch(/503/)
    expect(await standIn.requests('/clist/')).toEqual([])
    // One sync of the platform, queued for when the budget allows: about a minute, not six hours.
    expect(held.sent).toHaveLength(1)
    const [{ body, delaySeconds }] = held.sent
    expect(body).toEqual({ platforms: ['codeforces'], deferrals: 1 })
    expect(delaySeconds).toBeGreaterThanOrEqual(1)
    expect(delaySeconds).toBeLessThanOrEqual(65)
    expect(await platformView('codeforces')).toMatchObject({ state: 'failing', upcoming: 0 })

    await budgetMinutePasses()
    await expect(runSyncQueue([body], withClist(1))).rejects.toThrow(/codeforces \(failing/)
    expect(await stored('codeforces')).toEqual(['991', '992'])
    expect(await platformView('codeforces')).toMatchObject({
      state: 'failing',
      source: 'clist',
      upcoming: 2,
    })
    // Listed: nothing more is queued.
    expect(held.sent).toHaveLength(1)
  })

  it("waits out clist's own 429 on a fallback for its Retry-After, then lists clist's contests", async () => {
    const admin = await createAdmin()
    await servePlatform('codeforces', '<html>Service Temporarily Unavailable</html>', 503)
    const json = { 'content-type': 'application/json' }
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [
        { status: 429, headers: { 'retry-after': '30' } },
        {
          status: 200,
          headers: json,
          body: clistPage(
            'codeforces.com',
            (n) => `https://codeforces.com/contest/${990 + n}`,
            Date.now(),
          ),
        },
      ],
    })
    const res = await api('POST', '/contests/sync/codeforces', {
      token: admin.accessToken,
      bindings: withClist(),
    })
    expect(res.body.results[0]).toMatchObject({
      state: 'failing',
      waiting: 'waiting for the clist budget',
    })
    expect(held.sent).toHaveLength(1)
    expect(held.sent[0].delaySeconds).toBeGreaterThanOrEqual(30)
    expect(held.sent[0].delaySeconds).toBeLessThanOrEqual(35)
    await expect(runSyncQueue([held.sent[0].body], withClist())).rejects.toThrow(/failing/)
    expect(await stored('codeforces')).toEqual(['991', '992'])
  })

  it('keeps the long tail waiting, not failing or blocked, and syncs it once the budget allows', async () => {
    const now = Date.now()
    await clistAnswers(
      clistPage('open.kattis.com', (n) => `https://open.kattis.com/contests/budget${n}`, now),
    )
    await spendBudget(1)

    // Waiting is no failure of the platform: the invocation succeeds.
    await runSyncQueue([{ platforms: LONG_TAIL_PLATFORMS }], withClist(1))
    expect(held.sent).toEqual([
      { body: { platforms: LONG_TAIL_PLATFORMS, deferrals: 1 }, delaySeconds: expect.any(Number) },
    ])
    expect(held.sent[0].delaySeconds).toBeLessThanOrEqual(65)
    const run = await env.DB.prepare(
      "SELECT status, error FROM sync_runs WHERE platform = 'kattis'",
    ).first<{ status: string; error: string }>()
    expect(run).toEqual({ status: 'failed', error: 'waiting for the clist budget' })
    expect(await platformView('kattis')).toMatchObject({ state: 'ok', upcoming: 0 })

    await budgetMinutePasses()
    await runSyncQueue([held.sent[0].body], withClist(1))
    expect(await stored('kattis')).toEqual(['budget1', 'budget2'])
    expect(await platformView('kattis')).toMatchObject({
      state: 'ok',
      source: 'clist',
      upcoming: 2,
      stale: false,
    })
    expect(await standIn.requests('/clist/contest/')).toHaveLength(1)
    expect(held.sent).toHaveLength(1)
  })

  it('puts a sync off again while the budget refuses it, ten times at most', async () => {
    await spendBudget(1)
    await runSyncQueue([{ platforms: ['kattis'], deferrals: 9 }], withClist(1))
    expect(held.sent.map((m) => m.body)).toEqual([{ platforms: ['kattis'], deferrals: 10 }])
    // The tenth in a row: the next cron run, six hours on at most, is the retry.
    await runSyncQueue([{ platforms: ['kattis'], deferrals: 10 }], withClist(1))
    expect(held.sent).toHaveLength(1)
  })
})
