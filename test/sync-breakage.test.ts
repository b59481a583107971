// Upstream breakage never empties the catalogue: a broken, empty or half-gone answer marks the
// platform degraded, 403 and 429 blocked with a backoff, no answer failing; stored contests stay,
// clist.by fills in when configured, each incident is told once (webhook and admin email), and
// healing is told too. GET /platforms shows it all.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { announceIncidents } from '../src/sync/incidents.ts'
import { syncDeps, type SyncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'
import { PLATFORMS } from '../src/platforms/registry.ts'
import { clearSyncState, fixtureText, RECORDED_AT, servePlatform } from './helpers/platforms.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api, createAdmin, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  holdingQueue,
  localRun,
  receiver,
} from './helpers/webhooks.ts'
import { getJson } from './helpers/worker.ts'

const HOUR = 3_600_000
const recorded = () =>
  JSON.parse(fixtureText('codeforces', 'fixtures/codeforces-contest-list.json')) as {
    status: string
    result: { id: number; startTimeSeconds?: number; phase?: string }[]
  }

let admin: TestUser
beforeAll(async () => {
  admin = await createAdmin()
})

let held: ReturnType<typeof holdingQueue>
let jobEnv: Env
beforeEach(async () => {
  await clearSyncState()
  await clearWebhooks()
  held = holdingQueue()
  jobEnv = { ...env, ...localRun(held), RESEND_API_KEY: 're_test_key' }
})

const deps = (over: Partial<SyncDeps> = {}): SyncDeps => ({
  ...syncDeps(jobEnv),
  timeoutMs: 500,
  ...over,
})

const withClist = (): Partial<SyncDeps> => ({
  clist: {
    baseUrl: `${standInUrl}/clist`,
    apiKey: 'tester:key',
    platforms: new Set(),
    takeRequest: async () => ({ allowed: true }),
  },
})

/** One sync of codeforces at `now`, with its incidents announced as the cron does. */
async function sync(now: number, over: Partial<SyncDeps> = {}) {
  const outcome = await runSync(deps(over), ['codeforces'], now)
  await announceIncidents(jobEnv, outcome.transitions, now)
  return outcome.reports[0]
}

const activeCodeforces = async () =>
  (await env.DB.prepare(
    "SELECT count(*) AS n FROM contests WHERE platform = 'codeforces' AND is_active = 1",
  ).first<{ n: number }>())!.n

const status = () =>
  env.DB.prepare("SELECT * FROM platform_status WHERE platform = 'codeforces'").first<{
    state: string
    source: string
    incident_started_at: number | null
    retry_after: number | null
  }>()

const eventsOf = async (type: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE event_type = ?')
    .bind(type)
    .first<{ n: number }>())!.n

/** A first healthy sync, so that later answers are judged against its count. */
async function healthyFirst() {
  await servePlatform('codeforces')
  const report = await sync(RECORDED_AT)
  expect(report).toMatchObject({ state: 'ok', source: 'own' })
  return activeCodeforces()
}

const half = () => {
  const list = recorded()
  const upcoming = list.result.filter((c) => (c.startTimeSeconds ?? 0) * 1000 > RECORDED_AT)
  const dropped = new Set(upcoming.slice(0, Math.ceil(upcoming.length / 2) + 1).map((c) => c.id))
  return { ...list, result: list.result.filter((c) => !dropped.has(c.id)) }
}

const BREAKAGES: [string, () => Promise<unknown>, string, RegExp][] = [
  ['a schema break', () => servePlatform('codeforces', { status: 'OK' }), 'degraded', /no status/],
  [
    'an empty 200',
    () => servePlatform('codeforces', { status: 'OK', result: [] }),
    'degraded',
    /no upcoming/,
  ],
  [
    'half the contests gone',
    () => servePlatform('codeforces', half()),
    'degraded',
    /fewer than half/,
  ],
  [
    'a 403 from bot protection',
    () => servePlatform('codeforces', '<html>Just a moment...</html>', 403),
    'blocked',
    /403/,
  ],
  [
    'a 429',
    () => servePlatform('codeforces', { status: 'FAILED', comment: 'Call limit exceeded' }, 429),
    'blocked',
    /429|Call limit/,
  ],
  [
    'a timeout',
    () =>
      standIn.script({
        method: 'GET',
        pathPrefix: '/codeforces-api/contest.list',
        responses: [{ status: 200, body: recorded(), delayMs: 2_000 }],
      }),
    'failing',
    /no answer within 500 ms/,
  ],
]

describe('a broken source keeps the catalogue', () => {
  it.each(BREAKAGES)('%s: contests kept, state %s', async (_, breakIt, state, reason) => {
    const stored = await healthyFirst()
    expect(stored).toBeGreaterThan(0)
    await standIn.reset()
    await breakIt()
    const report = await sync(RECORDED_AT + HOUR)
    expect(report.state).toBe(state)
    expect(report.error).toMatch(reason)
    expect(report.cancelled).toBe(0)
    expect(await activeCodeforces()).toBe(stored)
    expect((await status())!.state).toBe(state)
  })

  it('tells each incident once: one webhook and one admin email, then recovery once', async () => {
    await createWebhook(
      admin,
      { url: (await receiver()).url, events: ['platform.degraded', 'platform.recovered'] },
      localRun(held),
    )
    await healthyFirst()
    await servePlatform('codeforces', { status: 'OK', result: [] })
    await sync(RECORDED_AT + HOUR)
    await sync(RECORDED_AT + 7 * HOUR)
    await sync(RECORDED_AT + 13 * HOUR)
    expect(await eventsOf('platform.degraded')).toBe(1)
    const mails = (await standIn.emails()).filter((m) =>
      /Platform sync incident/.test(String(m.subject)),
    )
    expect(mails).toHaveLength(1)
    expect(JSON.stringify(mails[0].to)).toContain(admin.email)
    expect(mails[0].subject).toContain('Codeforces')

    await standIn.reset()
    await servePlatform('codeforces')
    expect(await sync(RECORDED_AT + 19 * HOUR)).toMatchObject({ state: 'ok', source: 'own' })
    await sync(RECORDED_AT + 25 * HOUR)
    expect(await eventsOf('platform.recovered')).toBe(1)
    expect((await status())!.incident_started_at).toBeNull()
  })

  it('waits out a block: the source is not asked again before its backoff ends', async () => {
    await healthyFirst()
    await standIn.reset()
    await servePlatform('codeforces', 'slow down', 429)
    expect((await sync(RECORDED_AT + HOUR)).state).toBe('blocked')
    const blockedUntil = (await status())!.retry_after!
    expect(blockedUntil).toBeGreaterThanOrEqual(RECORDED_AT + 2 * HOUR)
    const asked = (await standIn.requests('/codeforces-api/')).length
    expect((await sync(RECORDED_AT + HOUR + 60_000)).state).toBe('blocked')
    expect(await standIn.requests('/codeforces-api/')).toHaveLength(asked)
    await servePlatform('codeforces')
    expect((await sync(blockedUntil + 1)).state).toBe('ok')
  })

  it('falls back to clist.by when configured, and the own source takes over again', async () => {
    await healthyFirst()
    const before = await activeCodeforces()
    await standIn.reset()
    await servePlatform('codeforces', { error: 'upstream down' }, 503)
    const report = await sync(RECORDED_AT + HOUR, withClist())
    expect(report).toMatchObject({ state: 'failing', source: 'clist' })
    const requests = await standIn.requests('/clist/contest/')
    expect(requests[0].headers.authorization).toBe('ApiKey tester:key')
    expect(requests[0].path).toContain('resource=codeforces.com')
    // clist lists 2179 and 2178 as the own source does, so they are the same rows, not copies.
    expect(await activeCodeforces()).toBeGreaterThanOrEqual(before)
    const dupes = await env.DB.prepare(
      "SELECT platform_id, count(*) AS n FROM contests WHERE platform = 'codeforces' GROUP BY platform_id HAVING n > 1",
    ).all()
    expect(dupes.results).toEqual([])
    await servePlatform('codeforces')
    expect(await sync(RECORDED_AT + 2 * HOUR, withClist())).toMatchObject({
      state: 'ok',
      source: 'own',
    })
  })

  it('deactivates a future contest a healthy source stops listing', async () => {
    await healthyFirst()
    const list = recorded()
    const gone = list.result.find((c) => (c.startTimeSeconds ?? 0) * 1000 > RECORDED_AT + HOUR)!
    await standIn.reset()
    await servePlatform('codeforces', { ...list, result: list.result.filter((c) => c !== gone) })
    const report = await sync(RECORDED_AT + HOUR)
    expect(report).toMatchObject({ state: 'ok', cancelled: 1 })
    const row = await env.DB.prepare(
      "SELECT is_active FROM contests WHERE platform = 'codeforces' AND platform_id = ?",
    )
      .bind(String(gone.id))
      .first<{ is_active: number }>()
    expect(row?.is_active).toBe(0)
    // Listed again, it comes back.
    await servePlatform('codeforces')
    expect(await sync(RECORDED_AT + 2 * HOUR)).toMatchObject({ created: 0 })
    expect(
      (
        await env.DB.prepare(
          "SELECT is_active FROM contests WHERE platform = 'codeforces' AND platform_id = ?",
        )
          .bind(String(gone.id))
          .first<{ is_active: number }>()
      )?.is_active,
    ).toBe(1)
  })
})

describe("an admin's contests are no source's", () => {
  /** Creates `count` upcoming Codeforces contests through the admin API, a day apart from now. */
  async function adminCreates(count: number, now: number) {
    const contests = Array.from({ length: count }, (_, i) => ({
      platform: 'codeforces',
      platformId: `admin-${i + 1}`,
      name: `Admin Round ${i + 1}`,
      type: 'CF',
      startTime: new Date(now + (i + 1) * 24 * HOUR).toISOString(),
      endTime: new Date(now + (i + 1) * 24 * HOUR + 2 * HOUR).toISOString(),
    }))
    const res = await api('POST', '/contests/bulk', {
      token: admin.accessToken,
      body: { contests },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }

  const syncNow = async () => {
    const res = await api('POST', '/contests/sync/codeforces', { token: admin.accessToken })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.results[0]
  }

  const activeAdminEntries = async () =>
    (await env.DB.prepare(
      "SELECT count(*) AS n FROM contests WHERE platform_id LIKE 'admin-%' AND is_active = 1",
    ).first<{ n: number }>())!.n

  it('leaves a platform ok when its source lists fewer contests than an admin created', async () => {
    const now = Date.now()
    await servePlatform('codeforces', undefined, 200, now)
    expect(await syncNow()).toMatchObject({ state: 'ok', source: 'own' })
    const sourced = await activeCodeforces()
    // More than the source's own count again: judged against everything, its answer is "half gone".
    await adminCreates(2 * sourced + 3, now)

    const report = await syncNow()
    expect(report).toMatchObject({ state: 'ok', source: 'own', cancelled: 0 })
    expect(report.error).toBeUndefined()
    expect((await status())!.state).toBe('ok')
    const { body } = await getJson('/platforms')
    expect(body.find((p: { id: string }) => p.id === 'codeforces')).toMatchObject({
      state: 'ok',
      stale: false,
    })
    expect(await eventsOf('platform.degraded')).toBe(0)
  })

  it("never cancels an admin's upcoming contest that a healthy source does not list", async () => {
    const now = Date.now()
    await servePlatform('codeforces', undefined, 200, now)
    await adminCreates(2, now)
    const report = await syncNow()
    expect(report).toMatchObject({ state: 'ok', cancelled: 0 })
    expect(await activeAdminEntries()).toBe(2)
  })
})

describe('GET /platforms', () => {
  it('lists every platform with its count, state, source and freshness', async () => {
    await healthyFirst()
    await standIn.reset()
    await servePlatform('codeforces', { status: 'OK' })
    await runSync(deps(), ['codeforces'], Date.now())
    const { status: code, body } = await getJson('/platforms')
    expect(code).toBe(200)
    expect(body.map((p: { id: string }) => p.id)).toEqual([...PLATFORMS])
    const codeforces = body.find((p: { id: string }) => p.id === 'codeforces')
    expect(codeforces).toMatchObject({
      name: 'Codeforces',
      enabled: true,
      state: 'degraded',
      source: 'own',
      stale: true,
    })
    expect(codeforces.upcoming).toBeGreaterThanOrEqual(0)
    expect(typeof codeforces.lastAttempt).toBe('string')
    const topcoder = body.find((p: { id: string }) => p.id === 'topcoder')
    expect(topcoder).toMatchObject({ enabled: false, source: 'clist', stale: false })
    const health = await getJson('/contests/health')
    expect(health.body.platforms).toEqual(body)
  })
})
