// The catalogue sync job: every platform from its recorded answers, idempotence, isolation of a
// failing platform, reschedules, overlap protection and the record of runs.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { catalogueVersion } from '../src/contests/catalogue-version.ts'
import { createDb } from '../src/db/client.ts'
import { runCron } from '../src/jobs/cron.ts'
import { syncJob } from '../src/jobs/sync.ts'
import { acquireLock } from '../src/db/job-lock.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { runSync, SyncInProgressError } from '../src/sync/job.ts'
import { readPlatformStatuses } from '../src/sync/platform-status.ts'
import type { SyncMessage } from '../src/sync/queue.ts'
import { lastSuccessfulSync } from '../src/sync/runs.ts'
import {
  clearSyncState,
  fixtureText,
  RECORDED_AT,
  serveAllPlatforms,
  capturingSyncQueue,
  runSyncQueue,
  servePlatform,
  SOURCED_PLATFORMS as PLATFORMS,
} from './helpers/platforms.ts'
import { getJson } from './helpers/worker.ts'

const db = createDb(env.DB)
const deps = () => syncDeps(env)

beforeEach(async () => {
  await clearSyncState()
})

const platformStatusOf = async (platform: string) => (await readPlatformStatuses(db)).get(platform)

async function count(sql: string, ...params: unknown[]) {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>()
  return row?.n ?? 0
}

describe('sync of all platforms', () => {
  it("stores contests from every platform's recorded answers and records each run", async () => {
    await serveAllPlatforms()
    const before = await catalogueVersion(env.KV)
    const { reports } = await runSync(deps(), PLATFORMS, RECORDED_AT)
    for (const report of reports) {
      expect(report.error, report.platform).toBeUndefined()
      expect(report.created, report.platform).toBeGreaterThan(0)
      const stored = await count(
        'SELECT count(*) AS n FROM contests WHERE platform = ?',
        report.platform,
      )
      expect(stored, report.platform).toBe(report.created)
    }
    expect(await count("SELECT count(*) AS n FROM sync_runs WHERE status = 'success'")).toBe(
      PLATFORMS.length,
    )
    expect(await catalogueVersion(env.KV)).not.toBe(before)
    expect(await lastSuccessfulSync(db, 'atcoder')).toBeGreaterThanOrEqual(RECORDED_AT)
  })

  it('is idempotent: a second run over the same payloads writes nothing', async () => {
    await serveAllPlatforms()
    const first = await runSync(deps(), PLATFORMS, RECORDED_AT)
    const version = await catalogueVersion(env.KV)
    const second = await runSync(deps(), PLATFORMS, RECORDED_AT + 60_000)
    for (const [i, report] of second.reports.entries()) {
      expect(report, report.platform).toMatchObject({ created: 0, updated: 0, statements: 0 })
      expect(report.unchanged).toBe(first.reports[i].created)
    }
    expect(await catalogueVersion(env.KV)).toBe(version)
  })

  it('isolates a failing platform: one down, the others synced, the failure recorded', async () => {
    await serveAllPlatforms()
    await servePlatform('codeforces', { error: 'upstream down' }, 503)
    const { reports } = await runSync(deps(), PLATFORMS, RECORDED_AT)
    const byPlatform = Object.fromEntries(reports.map((r) => [r.platform, r]))
    expect(byPlatform.codeforces.error).toMatch(/503/)
    expect(byPlatform.codeforces.created).toBe(0)
    for (const platform of PLATFORMS.filter((p) => p !== 'codeforces')) {
      expect(byPlatform[platform].error).toBeUndefined()
      expect(byPlatform[platform].created).toBeGreaterThan(0)
    }
    const failed = await env.DB.prepare(
      "SELECT error FROM sync_runs WHERE platform = 'codeforces' AND status = 'failed'",
    ).first<{ error: string }>()
    expect(failed?.error).toMatch(/503/)
  })

  it('queues one sync per platform; a failing one fails its own invocation, naming it', async () => {
    await serveAllPlatforms()
    await servePlatform('leetcode', 'not json at all')
    const { queue, sent } = capturingSyncQueue()
    await runCron('0 */6 * * *', { ...env, SYNC_QUEUE: queue }, RECORDED_AT)
    expect(sent).toEqual(PLATFORMS.map((p) => ({ platforms: [p] })))
    await expect(runSyncQueue([{ platforms: ['leetcode'] }])).rejects.toThrow(/leetcode/)
    await runSyncQueue([{ platforms: ['atcoder'] }])
    const again = capturingSyncQueue()
    await runCron('0 */6 * * *', { ...env, SYNC_QUEUE: again.queue }, RECORDED_AT + 6 * 3_600_000)
    expect(again.sent).toHaveLength(PLATFORMS.length)
    expect(
      await count("SELECT count(*) AS n FROM contests WHERE platform = 'atcoder'"),
    ).toBeGreaterThan(0)
    expect(await count("SELECT count(*) AS n FROM sync_runs WHERE platform = 'leetcode'")).toBe(1)
  })

  it('succeeds while a platform stays broken, counting it, and fails only when it cannot queue', async () => {
    await serveAllPlatforms()
    await servePlatform('leetcode', 'not json at all')
    await runSyncQueue([{ platforms: ['leetcode'] }]).catch(() => undefined)
    expect((await platformStatusOf('leetcode'))?.state).toBe('degraded')
    // The incident was told when it opened; every later run would only repeat it.
    for (const hours of [6, 12]) {
      const { queue } = capturingSyncQueue()
      const at = RECORDED_AT + hours * 3_600_000
      await expect(runCron('0 */6 * * *', { ...env, SYNC_QUEUE: queue }, at)).resolves.toBe(
        undefined,
      )
    }
    const { queue } = capturingSyncQueue()
    // (Its other counts are the watchdog's: test/watchdog-jobs.test.ts.)
    expect(await syncJob({ ...env, SYNC_QUEUE: queue }, Date.now())).toEqual(
      expect.objectContaining({ queued: PLATFORMS.length, notOk: 1 }),
    )
    const down = {
      sendBatch: async () => {
        throw new Error('sync queue down')
      },
    } as unknown as Queue
    await expect(syncJob({ ...env, SYNC_QUEUE: down }, Date.now())).rejects.toThrow(
      /sync queue down/,
    )
  })

  it('reads a message of the release before, which named one platform', async () => {
    await serveAllPlatforms()
    await runSyncQueue([{ platform: 'atcoder' } as unknown as SyncMessage])
    expect(
      await count("SELECT count(*) AS n FROM contests WHERE platform = 'atcoder'"),
    ).toBeGreaterThan(0)
  })

  it('keeps a changed start time of an upcoming contest as a reschedule and re-arms it', async () => {
    await serveAllPlatforms()
    await runSync(deps(), ['codeforces'], RECORDED_AT)
    await env.DB.prepare("UPDATE contests SET is_notified = 1 WHERE platform_id = '2301'").run()

    const moved = JSON.parse(
      fixtureText('codeforces', 'fixtures/codeforces-contest-list.json'),
    ) as {
      result: { id: number; startTimeSeconds?: number }[]
    }
    const contest = moved.result.find((c) => c.id === 2301)!
    const oldStart = contest.startTimeSeconds! * 1000
    contest.startTimeSeconds! += 3600
    await servePlatform('codeforces', moved)

    const { reports } = await runSync(deps(), ['codeforces'], RECORDED_AT + 60_000)
    expect(reports[0]).toMatchObject({ created: 0, updated: 1, rescheduled: 1 })
    const row = await env.DB.prepare(
      "SELECT id, start_time, is_notified FROM contests WHERE platform_id = '2301'",
    ).first<{ id: string; start_time: number; is_notified: number }>()
    expect(row).toMatchObject({ start_time: oldStart + 3_600_000, is_notified: 0 })
    const reschedule = await env.DB.prepare(
      'SELECT old_start_time, new_start_time, handled_at FROM contest_reschedules WHERE contest_id = ?',
    )
      .bind(row!.id)
      .first()
    expect(reschedule).toEqual({
      old_start_time: oldStart,
      new_start_time: oldStart + 3_600_000,
      handled_at: null,
    })
  })

  it('stores a synced name and metadata free of control characters and line separators', async () => {
    const listed = JSON.parse(
      fixtureText('codeforces', 'fixtures/codeforces-contest-list.json'),
    ) as {
      result: { id: number; name: string; phase: string }[]
    }
    const contest = listed.result.find((c) => c.id === 2301)!
    contest.name = 'Codeforces Round\r\nSUMMARY:Injected\u2028(Div. 2)\u0000\u0085'
    contest.phase = 'BEFORE\u0007\r\n'
    await servePlatform('codeforces', listed)

    const { reports } = await runSync(deps(), ['codeforces'], RECORDED_AT)
    expect(reports[0].error).toBeUndefined()
    const row = await env.DB.prepare(
      "SELECT name, platform_metadata AS metadata FROM contests WHERE platform_id = '2301'",
    ).first<{ name: string; metadata: string }>()
    expect(row?.name).toBe('Codeforces Round SUMMARY:Injected (Div. 2)')
    expect(row?.metadata).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/)
    expect(JSON.parse(row!.metadata)).toMatchObject({ phase: 'BEFORE' })
  })

  it('never overlaps: a second run while one holds the lease is refused, and the queued one skips', async () => {
    await serveAllPlatforms()
    expect(
      await acquireLock(db, 'contest-sync:codeforces', 'someone-else', RECORDED_AT, 600_000),
    ).toBe(true)
    await expect(runSync(deps(), PLATFORMS, RECORDED_AT)).rejects.toBeInstanceOf(
      SyncInProgressError,
    )
    // The queued sync of a platform whose last run still holds the lease leaves the work to it.
    await env.DB.prepare(
      "UPDATE job_locks SET expires_at = ? WHERE name = 'contest-sync:codeforces'",
    )
      .bind(Date.now() + 600_000)
      .run()
    await expect(runSyncQueue([{ platforms: ['codeforces'] }])).resolves.toBeDefined()
    expect(await count('SELECT count(*) AS n FROM contests')).toBe(0)
    // A crashed holder's lease expires and the next run proceeds.
    const later = RECORDED_AT + 11 * 60_000
    const { reports } = await runSync(deps(), ['atcoder'], later)
    expect(reports[0].created).toBeGreaterThan(0)
  })

  it('reports the last sync time of a platform in its statistics', async () => {
    await serveAllPlatforms()
    await runSync(deps(), ['leetcode'], RECORDED_AT)
    const { body } = await getJson('/contests/stats/leetcode')
    expect(Date.parse(body.lastSyncTime)).toBeGreaterThanOrEqual(RECORDED_AT)
    expect((await getJson('/contests/stats/codechef')).body.lastSyncTime).toBeNull()
  })
})
