// How notifications are stored: what one says once for all its recipients (notification_contents),
// read back by every follower's history and delivery, kept on rows made before contents, removed
// with the last notification pointing at it; and a page's ids in the order of its users.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DAY_MS } from '../src/lib/time.ts'
import { newId } from '../src/lib/ids.ts'
import { notifier } from '../src/notifications/context.ts'
import { reminderSpec } from '../src/notifications/kinds/reminder.ts'
import { createNotifications, fanOutContext } from '../src/notifications/scheduling/fan-out.ts'
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
import { runDailyCleanup } from './helpers/worker.ts'

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

  it('are read once for a batch of deliveries, and a row with its own words sends those', async () => {
    const e = testEnv()
    const ada = await recipient()
    const bob = await recipient()
    const [round] = await addContests([contest(5, { name: 'Mixed Words Round' })])
    await runScheduler(e)
    // Bob's row keeps words of its own (a late follower's do), here a note in its payload.
    await env.DB.prepare(
      `UPDATE notifications SET payload = json_set(
          (SELECT payload FROM notification_contents WHERE id = content_id),
          '$.customMessage', 'A note for Bob alone')
        WHERE user_id = ? AND contest_id = ?`,
    )
      .bind(bob.id, round.id)
      .run()

    await deliverQueued(e)
    const [adaMail] = await mailsTo(ada.email)
    const [bobMail] = await mailsTo(bob.email)
    for (const mail of [adaMail, bobMail]) {
      expect(mail.message.subject).toMatch(/^Reminder: Mixed Words Round starts/)
    }
    expect(bobMail.message.text).toContain('A note for Bob alone')
    expect(adaMail.message.text).not.toContain('A note for Bob alone')
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

describe('the ids of a page', () => {
  afterEach(() => vi.restoreAllMocks())

  async function page(userCount: number, name: string, now = Date.now()) {
    const e = testEnv()
    const tag = await seedRecipients(userCount)
    const userIds = Array.from(
      { length: userCount },
      (_, i) => `${tag}${i.toString(16).padStart(16, '0')}`,
    )
    const [round] = await addContests([contest(5, { name })])
    const ctx = fanOutContext(notifier(e), now)
    const spec = reminderSpec(round, now, 1440)
    return { ctx, spec, userIds, round }
  }

  it('follow the order of its users, so a page writes one stretch of each index', async () => {
    const { ctx, spec, userIds } = await page(12, 'Ordered Round')
    const result = await createNotifications(ctx, [{ spec, userIds }])
    expect(result.created).toBe(12)
    const { results } = await env.DB.prepare(
      `SELECT n.id AS id, d.id AS deliveryId FROM notifications n
        JOIN notification_deliveries d ON d.notification_id = n.id
        WHERE n.user_id IN (SELECT value FROM json_each(?)) ORDER BY n.user_id`,
    )
      .bind(JSON.stringify(userIds))
      .all<{ id: string; deliveryId: string }>()
    const ids = results.map((r) => r.id)
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids.map((id) => id.slice(0, 18))).size).toBe(1)
    const deliveries = results.map((r) => r.deliveryId)
    expect(deliveries).toEqual([...deliveries].sort())
    expect(result.toQueue.map((d) => d.id)).toEqual(deliveries)
  })

  it.each([
    ['one statement', {}],
    ['statements of two users each', { usersPerStatement: 2 }],
    ['a statement per group', { groupCharsPerStatement: 1 }],
  ])(
    'write several groups one after the other, each delivery handed to its own group (%s)',
    async (_, limits) => {
      const { ctx, spec, userIds } = await page(4, 'First Group Round')
      const [other] = await addContests([contest(6, { name: 'Second Group Round' })])
      const otherSpec = reminderSpec(other, ctx.now, 1440)
      const [u0, u1, u2, u3] = userIds
      const groups = [
        { spec, userIds: [u0, u1, u2] },
        { spec: otherSpec, userIds: [u1, u2, u3] },
        { spec: reminderSpec(other, ctx.now, 60), userIds: [] },
      ]
      const result = await createNotifications(ctx, groups, limits)
      expect(result.created).toBe(6)
      const { results } = await env.DB.prepare(
        `SELECT n.id AS id, n.user_id AS userId, n.contest_id AS contestId, d.id AS deliveryId
          FROM notifications n JOIN notification_deliveries d ON d.notification_id = n.id
          WHERE n.user_id IN (SELECT value FROM json_each(?1))
          ORDER BY n.contest_id <> ?2, n.user_id`,
      )
        .bind(JSON.stringify(userIds), spec.contestId)
        .all<{ id: string; userId: string; contestId: string; deliveryId: string }>()
      expect(results.map((r) => [r.userId, r.contestId])).toEqual([
        [u0, spec.contestId],
        [u1, spec.contestId],
        [u2, spec.contestId],
        [u1, other.id],
        [u2, other.id],
        [u3, other.id],
      ])
      // Within a statement the ids follow the groups, then each group's users.
      if (Object.keys(limits).length === 0) {
        expect(results.map((r) => r.id)).toEqual(results.map((r) => r.id).sort())
      }
      const contestOf = new Map(results.map((r) => [r.deliveryId, r.contestId]))
      expect(result.toQueueByGroup.map((ds) => ds.map((d) => contestOf.get(d.id)))).toEqual([
        [spec.contestId, spec.contestId, spec.contestId],
        [other.id, other.id, other.id],
        [],
      ])
      expect(result.toQueue).toHaveLength(6)
    },
  )

  it('fail whole, skipping nobody, when two pages drew the same bytes in the same second', async () => {
    const now = Date.now()
    const first = await page(3, 'First Round', now)
    const second = await page(3, 'Second Round', now)
    // The same 5 bytes for both pages' ids.
    vi.spyOn(crypto, 'getRandomValues').mockImplementation((array) => {
      new Uint8Array(array.buffer).fill(7)
      return array
    })
    await createNotifications(first.ctx, [{ spec: first.spec, userIds: first.userIds }])
    await expect(
      createNotifications(second.ctx, [{ spec: second.spec, userIds: second.userIds }]),
    ).rejects.toThrow(/UNIQUE constraint failed: notifications\.id/)
    expect(await rowsOfContest(second.round.id)).toHaveLength(0)
    vi.restoreAllMocks()
    const again = await createNotifications(second.ctx, [
      { spec: second.spec, userIds: second.userIds },
    ])
    expect(again.created).toBe(3)
  })
})
