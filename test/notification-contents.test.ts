// What a notification says is stored once for all its recipients (notification_contents): every
// follower's history, delivery and webhook still show the words, rows made before contents keep
// their own, and the daily cleanup removes the words once no notification points at them.
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import worker from '../src/index.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { newId } from '../src/lib/ids.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  mailsTo,
  recipient,
  resetNotifications,
  runScheduler,
  seedRecipients,
  testEnv,
} from './helpers/notifications.ts'
import { api } from './helpers/users.ts'

beforeEach(resetNotifications)

const PATH = '/notifications/notifications'

interface StoredRow {
  title: string
  message: string
  payload: string | null
  contentId: number | null
}

const rowsOfContest = async (contestId: string) =>
  (
    await env.DB.prepare(
      `SELECT title, message, payload, content_id AS contentId FROM notifications
        WHERE contest_id = ?`,
    )
      .bind(contestId)
      .all<StoredRow>()
  ).results

const contentExists = async (id: number) =>
  (await env.DB.prepare('SELECT 1 FROM notification_contents WHERE id = ?').bind(id).first()) !==
  null

async function runDailyCleanup() {
  const ctx = createExecutionContext()
  await worker.scheduled(
    createScheduledController({ cron: '0 2 * * *', scheduledTime: Date.now() }),
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
}

describe('the words of a notification', () => {
  it('are stored once for every follower of a reminder, and each follower reads them', async () => {
    const e = testEnv()
    const ada = await recipient()
    await seedRecipients(40)
    const [round] = await addContests([contest(5, { name: 'Shared Words Round' })])
    await runScheduler(e)

    const rows = await rowsOfContest(round.id)
    expect(rows).toHaveLength(41)
    expect(new Set(rows.map((r) => r.contentId)).size).toBe(1)
    expect(rows.every((r) => r.title === '' && r.message === '' && r.payload === null)).toBe(true)
    // A second run over the same followers writes no second copy.
    await runScheduler(e)
    const { n } = (await env.DB.prepare(
      'SELECT count(*) AS n FROM notification_contents WHERE id = ?',
    )
      .bind(rows[0].contentId)
      .first<{ n: number }>())!
    expect(n).toBe(1)

    const list = await api('GET', PATH, { token: ada.accessToken })
    expect(list.status).toBe(200)
    const [mine] = list.body.notifications
    expect(mine.title).toMatch(/^Reminder: Shared Words Round starts/)
    expect(mine.message).toContain('Shared Words Round')
    expect(mine.payload).toMatchObject({ kind: 'reminder', contestName: 'Shared Words Round' })
    const one = await api('GET', `${PATH}/${mine.id}`, { token: ada.accessToken })
    expect(one.body).toMatchObject({ title: mine.title, payload: mine.payload })

    await deliverQueued(e)
    const [mail] = await mailsTo(ada.email)
    expect(mail.message.subject).toMatch(/^Reminder: Shared Words Round starts/)
  })

  it('of a row made before contents existed are its own', async () => {
    const ada = await recipient()
    const id = newId()
    const now = Date.now()
    await env.DB.prepare(
      `INSERT INTO notifications (id, user_id, type, title, message, payload, channels, status,
        expires_at, created_at, updated_at)
        VALUES (?1, ?2, 'SYSTEM_ALERT', 'Kept title', 'Kept message', '{"kind":"message"}',
          '["email"]', 'SENT', ?3, ?4, ?4)`,
    )
      .bind(id, ada.id, now + DAY_MS, now)
      .run()
    const res = await api('GET', `${PATH}/${id}`, { token: ada.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      title: 'Kept title',
      message: 'Kept message',
      payload: { kind: 'message' },
    })
  })

  it('leave with the last notification that points at them, not before', async () => {
    const e = testEnv()
    const old = await recipient()
    const oldAt = Date.now() - 91 * DAY_MS
    const [oldRound] = await addContests([contest(5, { name: 'Old Round' }, oldAt)], oldAt)
    await runScheduler(e, oldAt)
    const recentAt = Date.now() - 10 * DAY_MS
    const [recentRound] = await addContests(
      [contest(5, { name: 'Recent Round' }, recentAt)],
      recentAt,
    )
    await runScheduler(e, recentAt)
    const [oldRow] = await rowsOfContest(oldRound.id)
    const [recentRow] = await rowsOfContest(recentRound.id)
    expect(await contentExists(oldRow.contentId!)).toBe(true)

    await runDailyCleanup()
    expect(await rowsOfContest(oldRound.id)).toHaveLength(0)
    expect(await contentExists(oldRow.contentId!)).toBe(false)
    expect(await contentExists(recentRow.contentId!)).toBe(true)
    const list = await api('GET', PATH, { token: old.accessToken })
    expect(list.body.notifications.map((n: { title: string }) => n.title)).toEqual([
      expect.stringMatching(/^Reminder: Recent Round starts/),
    ])
  })
})
