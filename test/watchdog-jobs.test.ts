// The watchdog of the service's own jobs: each cron run recorded with its outcome; a scheduler
// without a good run for an hour (seen by the sync), a sync without one for 7 hours (seen by the
// scheduler) and deliveries failing above 20% of at least 20 attempts in an hour each open one
// service incident, told once (an admin email, service.degraded), closed once when it heals
// (service.recovered), however many runs see it at the same time; and the retention of both.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { runCron } from '../src/jobs/cron.ts'
import { settleIncident } from '../src/jobs/watchdog.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { closeServiceIncident, openServiceIncident } from '../src/status/incidents.ts'
import { startJobRun } from '../src/status/job-runs.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  attemptAt,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { capturingSyncQueue } from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  holdingQueue,
  localRun,
  receiver,
  type HoldingQueue,
} from './helpers/webhooks.ts'
import { runDailyCleanup } from './helpers/worker.ts'

const SCHEDULER = '*/30 * * * *'
const SYNC = '0 */6 * * *'

let admin: TestUser
let held: HoldingQueue
let jobEnv: Env

beforeAll(async () => {
  admin = await createAdmin()
  // The admin hears of incidents by email, and follows no contest: the reminders counted below
  // are the recipient's alone.
  const res = await api('PUT', '/users/profile', {
    token: admin.accessToken,
    body: {
      preferences: {
        platforms: ['dmoj'],
        alertFrequency: 'immediate',
        contestTypes: [],
        notificationChannels: { email: false, whatsapp: false, push: false },
        notifyBefore: 24,
        timezone: 'UTC',
      },
    },
  })
  expect(res.status).toBe(200)
})

beforeEach(async () => {
  await resetNotifications()
  await clearWebhooks()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM incidents'),
    env.DB.prepare('DELETE FROM job_runs'),
    env.DB.prepare('DELETE FROM notification_deliveries'),
    // resetNotifications deactivated every user; the admin hears of incidents.
    env.DB.prepare('UPDATE users SET is_active = 1 WHERE id = ?').bind(admin.id),
  ])
  held = holdingQueue()
  jobEnv = { ...testEnv(), ...localRun(held), SYNC_QUEUE: capturingSyncQueue().queue }
  await createWebhook(
    admin,
    { url: (await receiver()).url, events: ['service.degraded', 'service.recovered'] },
    localRun(held),
  )
})

const eventsOf = async (type: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE event_type = ?')
    .bind(type)
    .first<{ n: number }>())!.n

const incidentMails = async () =>
  (await standIn.emails()).filter((m) => /Service incident/.test(String(m.subject)))

const incidentRows = async () =>
  (
    await env.DB.prepare(
      'SELECT subject, kind, detail, started_at, ended_at FROM incidents ORDER BY started_at',
    ).all<{
      subject: string
      kind: string
      detail: string
      started_at: number
      ended_at: number | null
    }>()
  ).results

describe('job runs', () => {
  it('records each cron run with its start, end and outcome, and a failure with its error', async () => {
    const at = Date.now()
    await runCron(SYNC, jobEnv, at)
    const down = { sendBatch: async () => Promise.reject(new Error('sync queue down')) }
    await expect(
      runCron(SYNC, { ...jobEnv, SYNC_QUEUE: down as unknown as Queue }, at + HOUR_MS),
    ).rejects.toThrow(/sync queue down/)
    const { results } = await env.DB.prepare(
      'SELECT job, cron, started_at, finished_at, outcome, error FROM job_runs ORDER BY started_at',
    ).all<Record<string, unknown>>()
    expect(results).toEqual([
      {
        job: 'sync',
        cron: SYNC,
        started_at: at,
        finished_at: expect.any(Number),
        outcome: 'ok',
        error: null,
      },
      {
        job: 'sync',
        cron: SYNC,
        started_at: at + HOUR_MS,
        finished_at: expect.any(Number),
        outcome: 'failed',
        error: 'sync queue down',
      },
    ])
    expect(results[0].finished_at as number).toBeGreaterThanOrEqual(at)
  })

  it('removes runs older than a week and incidents that ended over 30 days ago, daily', async () => {
    const now = Date.now()
    const db = createDb(env.DB)
    await startJobRun(db, 'sync', SYNC, now - 8 * DAY_MS)
    await startJobRun(db, 'sync', SYNC, now - 6 * DAY_MS)
    const trouble = { kind: 'stopped', detail: 'no good run' }
    await openServiceIncident(db, { subject: 'sync', ...trouble }, now - 40 * DAY_MS)
    await closeServiceIncident(db, 'sync', now - 31 * DAY_MS)
    await openServiceIncident(db, { subject: 'sync', ...trouble }, now - 20 * DAY_MS)
    await closeServiceIncident(db, 'sync', now - 19 * DAY_MS)
    await openServiceIncident(db, { subject: 'scheduler', ...trouble }, now - 50 * DAY_MS)
    await runDailyCleanup(now)
    const runs = await env.DB.prepare('SELECT started_at FROM job_runs WHERE job = ?')
      .bind('sync')
      .all<{ started_at: number }>()
    expect(runs.results.map((r) => r.started_at)).toEqual([now - 6 * DAY_MS])
    // The open one stays however old it is.
    expect((await incidentRows()).map((r) => [r.subject, r.started_at])).toEqual([
      ['scheduler', now - 50 * DAY_MS],
      ['sync', now - 20 * DAY_MS],
    ])
  })
})

describe('a job that stopped', () => {
  it("the sync opens one incident for a scheduler silent for over an hour; the scheduler's next good run closes it", async () => {
    const t = Date.now()
    await runCron(SCHEDULER, jobEnv, t)
    await runCron(SYNC, jobEnv, t + 50 * MINUTE_MS)
    expect(await incidentRows()).toEqual([])

    await runCron(SYNC, jobEnv, t + 2 * HOUR_MS)
    await runCron(SYNC, jobEnv, t + 3 * HOUR_MS)
    expect(await incidentRows()).toEqual([
      {
        subject: 'scheduler',
        kind: 'stopped',
        detail: `no good run since ${new Date(t).toISOString()}`,
        started_at: t + 2 * HOUR_MS,
        ended_at: null,
      },
    ])
    expect(await eventsOf('service.degraded')).toBe(1)
    const mails = await incidentMails()
    expect(mails).toHaveLength(1)
    expect(JSON.stringify(mails[0].to)).toContain(admin.email)
    expect(mails[0].subject).toContain('The reminder scheduler stopped')

    await runCron(SCHEDULER, jobEnv, t + 4 * HOUR_MS)
    await runCron(SCHEDULER, jobEnv, t + 4.5 * HOUR_MS)
    expect((await incidentRows())[0].ended_at).toBeGreaterThanOrEqual(t + 4 * HOUR_MS)
    expect(await eventsOf('service.recovered')).toBe(1)
    expect(await incidentMails()).toHaveLength(1)
  })

  it('the scheduler opens one for a sync without a good run in 7 hours, not within them', async () => {
    const t = Date.now()
    await runCron(SYNC, jobEnv, t)
    await runCron(SCHEDULER, jobEnv, t + 6.5 * HOUR_MS)
    expect(await incidentRows()).toEqual([])
    await runCron(SCHEDULER, jobEnv, t + 7.5 * HOUR_MS)
    expect(await incidentRows()).toEqual([
      expect.objectContaining({ subject: 'sync', kind: 'stopped', ended_at: null }),
    ])
    await runCron(SYNC, jobEnv, t + 8 * HOUR_MS)
    expect((await incidentRows())[0].ended_at).toBeGreaterThanOrEqual(t + 8 * HOUR_MS)
    expect(await eventsOf('service.recovered')).toBe(1)
  })

  it('is opened and closed once, and told once, under concurrent runs', async () => {
    const t = Date.now()
    const trouble = { kind: 'stopped', detail: 'no good run' }
    const opened = await Promise.all(
      Array.from({ length: 6 }, (_, i) => settleIncident(jobEnv, 'scheduler', trouble, t + i)),
    )
    expect(opened.reduce((n, c) => n + c.incidentsOpened, 0)).toBe(1)
    const closed = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        settleIncident(jobEnv, 'scheduler', undefined, t + HOUR_MS + i),
      ),
    )
    expect(closed.reduce((n, c) => n + c.incidentsClosed, 0)).toBe(1)
    expect(await incidentRows()).toHaveLength(1)
    expect(await eventsOf('service.degraded')).toBe(1)
    expect(await eventsOf('service.recovered')).toBe(1)
    expect(await incidentMails()).toHaveLength(1)
  })
})

describe('deliveries failing', () => {
  /** `count` reminders due now for one email recipient, each refused for good by Resend. */
  async function failedReminders(e: ReturnType<typeof testEnv>, count: number, at: number) {
    await addContests(Array.from({ length: count }, (_, i) => contest(0.5 + i / 100)))
    await runScheduler(e, at)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 422, body: { message: 'Invalid `to` field' } }],
    })
    for (const body of e.NOTIFICATIONS_QUEUE.bodies.splice(0)) await attemptAt(e, body, at)
    // Resend takes mail again (the admins' among it); the refusals stand in the record.
    await standIn.reset()
  }

  it('opens one incident past 20% of at least 20 attempts in an hour, and closes it after a healthy hour', async () => {
    const e = { ...jobEnv, NOTIFICATIONS_QUEUE: testEnv().NOTIFICATIONS_QUEUE } as ReturnType<
      typeof testEnv
    >
    await recipient({ platforms: ['codeforces'], notifyBefore: 1 })
    const t = Date.now()
    await failedReminders(e, 19, t)
    await runScheduler(e, t + MINUTE_MS)
    // 19 of 19 failed: fewer than 20 attempts say nothing.
    expect(await incidentRows()).toEqual([])

    await failedReminders(e, 1, t + 2 * MINUTE_MS)
    await runScheduler(e, t + 3 * MINUTE_MS)
    await runScheduler(e, t + 4 * MINUTE_MS)
    expect(await incidentRows()).toEqual([
      {
        subject: 'deliveries',
        kind: 'failing',
        detail: 'email: 20 of 20 attempts failed in the last hour',
        started_at: t + 3 * MINUTE_MS,
        ended_at: null,
      },
    ])
    expect(await eventsOf('service.degraded')).toBe(1)
    expect(await incidentMails()).toHaveLength(1)

    await runScheduler(e, t + 2 * HOUR_MS)
    expect((await incidentRows())[0].ended_at).toBe(t + 2 * HOUR_MS)
    expect(await eventsOf('service.recovered')).toBe(1)
  })
})
