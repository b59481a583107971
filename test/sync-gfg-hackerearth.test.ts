// Two sources that can fail in part or be turned away, synced end to end: a GeeksforGeeks whose
// weekly page fails keeps the events API's contests but is degraded, cancels nothing and asks
// clist.by; a HackerEarth answering 403 is blocked, backs off and takes clist.by's contests.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { WEEKLY_PAGE_PATH } from '../src/platforms/geeksforgeeks/index.ts'
import { syncDeps, type SyncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'
import { clearSyncState, RECORDED_AT, servePlatform } from './helpers/platforms.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'

const HOUR = 3_600_000

beforeEach(() => clearSyncState())

const withClist: Partial<SyncDeps> = {
  clist: {
    baseUrl: `${standInUrl}/clist`,
    apiKey: 'tester:key',
    platforms: new Set(),
    takeRequest: async () => ({ allowed: true }),
  },
}

const sync = async (platform: 'geeksforgeeks' | 'hackerearth', now: number, clist = false) =>
  (await runSync({ ...syncDeps(env), timeoutMs: 2_000, ...(clist && withClist) }, [platform], now))
    .reports[0]

const active = async (platform: string) =>
  (
    await env.DB.prepare(
      'SELECT platform_id FROM contests WHERE platform = ? AND is_active = 1 ORDER BY platform_id',
    )
      .bind(platform)
      .all<{ platform_id: string }>()
  ).results.map((r) => r.platform_id)

const stateOf = (platform: string) =>
  env.DB.prepare(
    'SELECT state, source, retry_after, last_error FROM platform_status WHERE platform = ?',
  )
    .bind(platform)
    .first<{ state: string; source: string; retry_after: number | null; last_error: string }>()

/** clist.by's answer listing `objects` (API v4 /contest/). */
const clistAnswer = (objects: unknown[]) => ({
  status: 200,
  body: { meta: { limit: 1000, offset: 0, next: null }, objects },
  headers: { 'content-type': 'application/json' },
})

describe('GeeksforGeeks with a failing weekly page', () => {
  it('keeps what the events API lists, holds the platform degraded and cancels nothing', async () => {
    await servePlatform('geeksforgeeks')
    expect(await sync('geeksforgeeks', RECORDED_AT)).toMatchObject({ state: 'ok', source: 'own' })
    const stored = await active('geeksforgeeks')
    expect(stored).toContain('gfg-weekly-230-rated-contest')
    expect(stored).toContain('gfg-weekly-233-rated-contest')

    await standIn.reset()
    await servePlatform('geeksforgeeks')
    // The latest rule wins: the weekly page now fails, the events pages still answer.
    await standIn.script({
      method: 'GET',
      pathPrefix: `/geeksforgeeks-api${WEEKLY_PAGE_PATH}`,
      responses: [{ status: 503, body: 'weekly page down' }],
    })
    const report = await sync('geeksforgeeks', RECORDED_AT + HOUR, true)
    expect(report).toMatchObject({ state: 'degraded', cancelled: 0 })
    expect(report.error).toMatch(/weekly page \/events\/rec\/gfg-weekly-coding-contest: HTTP 503/)
    expect(await active('geeksforgeeks')).toEqual(stored)
    expect((await stateOf('geeksforgeeks'))!.state).toBe('degraded')
    // Degraded, so clist.by was asked to fill in what the weekly page would have told.
    const asked = await standIn.requests('/clist/contest/')
    expect(asked[0].path).toContain('resource=geeksforgeeks.org')

    await standIn.reset()
    await servePlatform('geeksforgeeks')
    expect(await sync('geeksforgeeks', RECORDED_AT + 2 * HOUR)).toMatchObject({ state: 'ok' })
  })
})

describe('HackerEarth answering 403', () => {
  it('is blocked with a backoff, and clist.by fills in its contests', async () => {
    await servePlatform('hackerearth', '<html><body>Access denied</body></html>', 403)
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [
        clistAnswer([
          {
            id: 64100001,
            resource: 'hackerearth.com',
            event: "December Circuits '26",
            href: 'https://www.hackerearth.com/challenges/competitive/december-circuits-26/',
            start: '2026-12-11T15:30:00',
            end: '2026-12-20T15:30:00',
          },
        ]),
      ],
    })
    const report = await sync('hackerearth', RECORDED_AT, true)
    expect(report).toMatchObject({ state: 'blocked', source: 'clist', created: 1 })
    expect(report.error).toMatch(/HTTP 403/)
    expect(await active('hackerearth')).toEqual(['december-circuits-26'])
    const status = (await stateOf('hackerearth'))!
    expect(status).toMatchObject({ state: 'blocked', source: 'clist' })
    expect(status.retry_after).toBeGreaterThanOrEqual(RECORDED_AT + HOUR)

    // Inside the backoff the feed is not asked again.
    const asked = (await standIn.requests('/hackerearth/')).length
    await sync('hackerearth', RECORDED_AT + 30 * 60_000, true)
    expect(await standIn.requests('/hackerearth/')).toHaveLength(asked)
  })

  it('is blocked without clist.by too, the stored contests kept', async () => {
    await servePlatform('hackerearth')
    expect(await sync('hackerearth', RECORDED_AT)).toMatchObject({ state: 'ok' })
    const stored = await active('hackerearth')
    expect(stored.length).toBeGreaterThan(0)
    await standIn.reset()
    await servePlatform('hackerearth', 'Forbidden', 403)
    expect(await sync('hackerearth', RECORDED_AT + HOUR)).toMatchObject({
      state: 'blocked',
      cancelled: 0,
    })
    expect(await active('hackerearth')).toEqual(stored)
  })
})
