// Cron Triggers: the local cron driver's matcher and the jobs run by the scheduled handler.
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { cronMatches, cronsOf } from '../scripts/lib/cron.mjs'
import { firstSighting } from '../src/channels/discord/interaction-replay.ts'
import { catalogueVersion } from '../src/contests/catalogue-version.ts'
import { findContest } from '../src/contests/queries.ts'
import { createDb } from '../src/db/client.ts'
import { runCron } from '../src/jobs/cron.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import worker from '../src/index.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { createUser } from './helpers/users.ts'

beforeEach(clearContests)

const at = (iso: string) => new Date(iso)

describe('cron matcher of the local driver', () => {
  it('fires */30 at :00 and :30 only', () => {
    expect(cronMatches('*/30 * * * *', at('2026-11-22T10:00:00Z'))).toBe(true)
    expect(cronMatches('*/30 * * * *', at('2026-11-22T10:30:00Z'))).toBe(true)
    expect(cronMatches('*/30 * * * *', at('2026-11-22T10:15:00Z'))).toBe(false)
  })

  it('fires 0 */6 at 00:00, 06:00, 12:00 and 18:00 UTC', () => {
    const hours = Array.from({ length: 24 }, (_, h) => h).filter((h) =>
      cronMatches('0 */6 * * *', at(`2026-11-22T${String(h).padStart(2, '0')}:00:00Z`)),
    )
    expect(hours).toEqual([0, 6, 12, 18])
    expect(cronMatches('0 */6 * * *', at('2026-11-22T06:01:00Z'))).toBe(false)
  })

  it('fires 0 2 once a day and understands lists, ranges and weekdays', () => {
    expect(cronMatches('0 2 * * *', at('2026-11-22T02:00:00Z'))).toBe(true)
    expect(cronMatches('0 2 * * *', at('2026-11-22T14:00:00Z'))).toBe(false)
    expect(cronMatches('0 9 * * 1', at('2026-11-23T09:00:00Z'))).toBe(true) // a Monday
    expect(cronMatches('0 9 * * 1', at('2026-11-22T09:00:00Z'))).toBe(false) // a Sunday
    expect(cronMatches('5,10 8-9 * * *', at('2026-11-22T09:10:00Z'))).toBe(true)
    expect(() => cronMatches('* * *', at('2026-11-22T09:10:00Z'))).toThrow(/Unsupported/)
  })

  it('reads the cron list from wrangler.toml text', () => {
    const toml = '[triggers]\ncrons = ["*/30 * * * *", "0 */6 * * *", "0 2 * * *"]\n'
    expect(cronsOf(toml)).toEqual(['*/30 * * * *', '0 */6 * * *', '0 2 * * *'])
  })
})

async function fireScheduled(cron: string, scheduledTime: number) {
  const ctx = createExecutionContext()
  await worker.scheduled(createScheduledController({ cron, scheduledTime }), env, ctx)
  await waitOnExecutionContext(ctx)
}

describe('scheduled jobs', () => {
  it('daily cleanup removes contests that ended more than 90 days ago and bumps the version', async () => {
    const now = Date.now()
    const [old, recent, upcoming] = await addContests([
      contest(-91 * 24, {}, now),
      contest(-89 * 24, {}, now),
      contest(5, {}, now),
    ])
    const before = await catalogueVersion(env.KV)
    await fireScheduled('0 2 * * *', now)
    const db = createDb(env.DB)
    expect(await findContest(db, old.id)).toBeUndefined()
    expect(await findContest(db, recent.id)).toBeDefined()
    expect(await findContest(db, upcoming.id)).toBeDefined()
    expect(await catalogueVersion(env.KV)).not.toBe(before)
  })

  it('daily cleanup removes sessions past their seven days and leaves live ones', async () => {
    // Unverified: the sign-up's is its one session.
    const user = await createUser({ verified: false })
    const count = () =>
      env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?')
        .bind(user.id)
        .first<{ n: number }>()
    expect((await count())?.n).toBe(1)
    await fireScheduled('0 2 * * *', Date.now() + 6 * 24 * HOUR_MS)
    expect((await count())?.n).toBe(1)
    await fireScheduled('0 2 * * *', Date.now() + 8 * 24 * HOUR_MS)
    expect((await count())?.n).toBe(0)
  })

  it('daily cleanup removes Telegram link tokens past their 15 minutes', async () => {
    const user = await createUser()
    const now = Date.now()
    await env.DB.batch([
      env.DB.prepare(
        'INSERT INTO telegram_links (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)',
      ).bind('expired-hash', user.id, now - 1, now - 16 * 60_000),
      env.DB.prepare(
        'INSERT INTO telegram_links (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)',
      ).bind('live-hash', user.id, now + 10 * 60_000, now),
    ])
    await fireScheduled('0 2 * * *', now)
    const { results } = await env.DB.prepare(
      'SELECT token_hash AS hash FROM telegram_links WHERE user_id = ?',
    )
      .bind(user.id)
      .all<{ hash: string }>()
    expect(results.map((r) => r.hash)).toEqual(['live-hash'])
  })

  it('daily cleanup removes the ids of Discord interactions whose signatures are stale', async () => {
    const db = createDb(env.DB)
    const signedAt = Math.floor(Date.now() / 1000)
    await firstSighting(db, '1400000000000009001', signedAt - 10 * 60)
    await firstSighting(db, '1400000000000009002', signedAt)
    await fireScheduled('0 2 * * *', signedAt * 1000)
    const { results } = await env.DB.prepare(
      "SELECT id FROM discord_interactions WHERE id LIKE '14000000000000090%'",
    ).all<{ id: string }>()
    expect(results.map((r) => r.id)).toEqual(['1400000000000009002'])
    // Still taken while its signature holds: a copy is refused.
    expect(await firstSighting(db, '1400000000000009002', signedAt)).toBe(false)
  })

  it('the half-hourly run brings stored phases in line with the clock', async () => {
    const created = Date.now() - 3 * HOUR_MS
    // Stored while both were still in the future: phase BEFORE.
    const [started, ended] = await addContests(
      [contest(2, {}, created), contest(0.5, { endTime: created + HOUR_MS }, created)],
      created,
    )
    expect(started.phase).toBe('BEFORE')
    await fireScheduled('*/30 * * * *', Date.now())
    const db = createDb(env.DB)
    expect((await findContest(db, started.id))?.phase).toBe('CODING')
    expect((await findContest(db, ended.id))?.phase).toBe('FINISHED')
  })

  // The sync job only queues one message per platform: a queue that refuses them fails it.
  const brokenQueue = () => ({
    ...env,
    SYNC_QUEUE: {
      sendBatch: async () => {
        throw new Error('sync queue down')
      },
    } as unknown as Queue,
  })

  it('an unknown cron expression fails loudly', async () => {
    await expect(runCron('1 1 1 1 1', env, Date.now())).rejects.toThrow(
      'No job is scheduled for cron "1 1 1 1 1"',
    )
  })

  it('a failing job logs job-failed with its name and cron, then fails the trigger', async () => {
    const errors = vi.spyOn(console, 'error')
    try {
      await expect(runCron('0 */6 * * *', brokenQueue(), Date.now())).rejects.toThrow(
        /sync queue down/,
      )
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)))
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          event: 'job-failed',
          job: 'sync',
          cron: '0 */6 * * *',
        }),
      )
    } finally {
      errors.mockRestore()
    }
  })

  it('a failing job rejects the scheduled invocation itself, so Cron Events record a failure', async () => {
    const errors = vi.spyOn(console, 'error')
    const infos = vi.spyOn(console, 'info')
    try {
      const controller = createScheduledController({
        cron: '0 */6 * * *',
        scheduledTime: Date.now(),
      })
      // The handler's own promise, not only the job's: work left to waitUntil would let the
      // invocation end as a success whatever became of it.
      await expect(
        worker.scheduled(controller, brokenQueue(), createExecutionContext()),
      ).rejects.toThrow(/sync queue down/)
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)))
      expect(lines.filter((l) => l.event === 'job-failed')).toHaveLength(1)
      expect(infos.mock.calls.map(([line]) => String(line)).join('\n')).not.toContain(
        'job-finished',
      )
    } finally {
      errors.mockRestore()
      infos.mockRestore()
    }
  })

  it('a job that succeeds resolves its invocation and logs one job-finished line with its counts', async () => {
    const infos = vi.spyOn(console, 'info')
    try {
      const controller = createScheduledController({ cron: '0 2 * * *', scheduledTime: Date.now() })
      await expect(worker.scheduled(controller, env, createExecutionContext())).resolves.toBe(
        undefined,
      )
      const finished = infos.mock.calls
        .map(([line]) => JSON.parse(String(line)))
        .filter((l) => l.event === 'job-finished')
      expect(finished).toEqual([
        expect.objectContaining({
          level: 'info',
          job: 'cleanup',
          cron: '0 2 * * *',
          durationMs: expect.any(Number),
          counts: expect.any(Object),
        }),
      ])
      expect(Object.values(finished[0].counts).every((n) => typeof n === 'number')).toBe(true)
    } finally {
      infos.mockRestore()
    }
  })

  it('a retention setting of 30 days removes more', async () => {
    const now = Date.now()
    const [row] = await addContests([contest(-40 * 24, {}, now)])
    await runCron('0 2 * * *', { ...env, CONTEST_RETENTION_DAYS: '30' }, now)
    expect(await findContest(createDb(env.DB), row.id)).toBeUndefined()
  })
})
