// Notification history API: list, get, read flags, statistics, manual retry, cleanup, and how
// notifications leave (expiry, account deletion) or outlive their contest.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DAY_MS, HOUR_MS } from '../src/lib/time.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  consume,
  deliverQueued,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
  type Recipient,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, type TestUser } from './helpers/users.ts'
import { runDailyCleanup } from './helpers/worker.ts'

let admin: TestUser
beforeAll(async () => {
  admin = await createAdmin()
})
beforeEach(resetNotifications)

const PATH = '/notifications/notifications'

/** A user holding `count` reminders (scheduled at `at`), none delivered yet. */
async function withReminders(count: number, at = Date.now(), user?: Recipient) {
  const e = testEnv()
  const owner = user ?? (await recipient())
  await addContests(
    Array.from({ length: count }, (_, i) => contest(2 + i, {}, at)),
    at,
  )
  await runScheduler(e, at)
  return { e, user: owner, notifications: await notificationsOf(owner.id) }
}

const failEmails = () =>
  standIn.script({
    method: 'POST',
    pathPrefix: '/resend/emails',
    responses: [{ status: 422, body: { message: 'Invalid `to` field' } }],
  })

const message = (id: string) => ({ body: { deliveryId: id }, attempts: 1 })

describe('GET /notifications/notifications', () => {
  it('lists the caller’s notifications newest first, a page at a time', async () => {
    const { user, notifications } = await withReminders(3)
    const first = await api('GET', `${PATH}?limit=2`, { token: user.accessToken })
    expect(first.status).toBe(200)
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 })
    const second = await api('GET', `${PATH}?limit=2&page=2`, { token: user.accessToken })
    const ids = [...first.body.notifications, ...second.body.notifications].map((n: any) => n.id)
    expect(new Set(ids).size).toBe(3)
    expect(ids.sort()).toEqual(notifications.map((n) => n.id).sort())
    const [item] = first.body.notifications
    expect(item).toMatchObject({
      userId: user.id,
      type: 'CONTEST_REMINDER',
      channels: ['email'],
      status: 'PENDING',
      isRead: false,
      deliveryStatus: [{ channel: 'email', status: 'PENDING', retryCount: 0 }],
    })
    expect(Object.keys(item)).not.toContain('readAt')
    const created = first.body.notifications.map((n: any) => n.createdAt)
    expect([...created].sort().reverse()).toEqual(created)
  })

  it('filters by status, type and creation dates', async () => {
    const { e, user, notifications } = await withReminders(2)
    await consume(e, [message(notifications[0].deliveries[0].id)])
    const get = (query: string) =>
      api('GET', `${PATH}?${query}`, { token: user.accessToken }).then((r) => r.body)
    expect((await get('status=SENT')).notifications.map((n: any) => n.id)).toEqual([
      notifications[0].id,
    ])
    expect((await get('status=PENDING')).pagination.total).toBe(1)
    expect((await get('type=SYSTEM_ALERT')).pagination.total).toBe(0)
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString()
    expect((await get(`startDate=${tomorrow}`)).pagination.total).toBe(0)
    expect((await get(`endDate=${tomorrow}`)).pagination.total).toBe(2)
  })

  it('refuses another user’s id to a non-admin and lets an admin read anyone’s', async () => {
    const { user } = await withReminders(1)
    const other = await recipient()
    const refused = await api('GET', `${PATH}?userId=${user.id}`, { token: other.accessToken })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      statusCode: 403,
      message: 'Forbidden resource',
      error: 'Forbidden',
    })
    const mine = await api('GET', PATH, { token: other.accessToken })
    expect(mine.body.pagination.total).toBe(0)
    const byAdmin = await api('GET', `${PATH}?userId=${user.id}`, { token: admin.accessToken })
    expect(byAdmin.body.pagination.total).toBe(1)
  })

  it('answers bad filters with 400 and the validation messages', async () => {
    const user = await recipient()
    const res = await api('GET', `${PATH}?limit=101&status=DONE&page=0`, {
      token: user.accessToken,
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'limit must not be greater than 100',
        'page must not be less than 1',
        'status must be one of the following values: PENDING, SENT, FAILED, RETRYING',
      ]),
    )
    expect((await api('GET', PATH)).status).toBe(401)
  })
})

describe('GET /notifications/notifications/:id and read flags', () => {
  it('returns the owner’s notification and hides it from other users', async () => {
    const { user, notifications } = await withReminders(1)
    const id = notifications[0].id
    const own = await api('GET', `${PATH}/${id}`, { token: user.accessToken })
    expect(own.status).toBe(200)
    expect(own.body.id).toBe(id)
    const other = await recipient()
    const hidden = await api('GET', `${PATH}/${id}`, { token: other.accessToken })
    expect(hidden.status).toBe(404)
    expect(hidden.body.message).toBe('Notification not found')
    expect((await api('GET', `${PATH}/${id}`, { token: admin.accessToken })).status).toBe(200)
    const bad = await api('GET', `${PATH}/nope`, { token: user.accessToken })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual(['Invalid notification ID format'])
  })

  it('marks one notification read, then all of a user’s', async () => {
    const { user, notifications } = await withReminders(3)
    const one = await api('PATCH', `${PATH}/${notifications[0].id}/read`, {
      token: user.accessToken,
    })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ success: true, notification: { isRead: true } })
    expect(one.body.notification.readAt).toMatch(/Z$/)
    const all = await api('PATCH', `${PATH}/user/${user.id}/read-all`, { token: user.accessToken })
    expect(all.body).toEqual({ success: true, updated: 2 })
    const again = await api('PATCH', `${PATH}/user/${user.id}/read-all`, {
      token: user.accessToken,
    })
    expect(again.body).toEqual({ success: true, updated: 0 })
    const other = await recipient()
    const refused = await api('PATCH', `${PATH}/user/${user.id}/read-all`, {
      token: other.accessToken,
    })
    expect(refused.status).toBe(403)
    const hidden = await api('PATCH', `${PATH}/${notifications[1].id}/read`, {
      token: other.accessToken,
    })
    expect(hidden.status).toBe(404)
  })
})

describe('GET /notifications/notifications/stats', () => {
  it('counts by status, channel and type, with the success rate of settled ones', async () => {
    const { e, user, notifications } = await withReminders(3)
    await consume(e, [message(notifications[0].deliveries[0].id)])
    await failEmails()
    await consume(e, [message(notifications[1].deliveries[0].id)])
    const res = await api('GET', `${PATH}/stats`, { token: user.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      total: 3,
      sent: 1,
      failed: 1,
      pending: 1,
      byChannel: { email: 3, whatsapp: 0, push: 0, telegram: 0, discord: 0, slack: 0 },
      byType: {
        CONTEST_REMINDER: 3,
        CONTEST_STARTING: 0,
        CONTEST_ENDING: 0,
        SYSTEM_ALERT: 0,
        CONTEST_RESULT: 0,
      },
      successRate: 50,
    })
    const other = await recipient()
    expect(
      (await api('GET', `${PATH}/stats?userId=${user.id}`, { token: other.accessToken })).status,
    ).toBe(403)
    const byAdmin = await api('GET', `${PATH}/stats?userId=${user.id}`, {
      token: admin.accessToken,
    })
    expect(byAdmin.body.total).toBe(3)
  })
})

describe('POST /notifications/notifications/:id/retry', () => {
  it('answers 404 with its own body for unknown, malformed and other users’ ids', async () => {
    const { notifications } = await withReminders(1)
    const other = await recipient()
    for (const id of [notifications[0].id, '0123456789abcdef01234567', 'nope']) {
      const res = await api('POST', `${PATH}/${id}/retry`, { token: other.accessToken })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ success: false, error: 'Notification not found' })
    }
  })

  it('refuses a sent notification and one that has not failed', async () => {
    const { e, user, notifications } = await withReminders(2)
    await consume(e, [message(notifications[0].deliveries[0].id)])
    const sent = await api('POST', `${PATH}/${notifications[0].id}/retry`, {
      token: user.accessToken,
    })
    expect(sent.status).toBe(400)
    expect(sent.body).toEqual({ success: false, error: 'Notification already sent successfully' })
    const pending = await api('POST', `${PATH}/${notifications[1].id}/retry`, {
      token: user.accessToken,
    })
    expect(pending.status).toBe(400)
    expect(pending.body.success).toBe(false)
  })

  it('resends the failed channel at once and answers with the sent notification', async () => {
    const { e, user, notifications } = await withReminders(1)
    await failEmails()
    await consume(e, [message(notifications[0].deliveries[0].id)])
    await standIn.reset()
    const res = await api('POST', `${PATH}/${notifications[0].id}/retry`, {
      token: user.accessToken,
      bindings: testEnv(),
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      success: true,
      notification: {
        status: 'SENT',
        deliveryStatus: [{ channel: 'email', status: 'SENT', retryCount: 1 }],
      },
    })
    expect(await standIn.requests('/resend/emails')).toHaveLength(1)
  })

  it('reports a failed retry, counts it, and stops after 3', async () => {
    const { e, user, notifications } = await withReminders(1)
    await failEmails()
    await consume(e, [message(notifications[0].deliveries[0].id)])
    const retry = () =>
      api('POST', `${PATH}/${notifications[0].id}/retry`, {
        token: user.accessToken,
        bindings: testEnv(),
      })
    for (let i = 1; i <= 3; i++) {
      const res = await retry()
      expect(res.status).toBe(502)
      expect(res.body).toEqual({
        success: false,
        error: 'Failed to retry notification: Resend answered 422: Invalid `to` field',
      })
      expect((await notificationsOf(user.id))[0].deliveries[0].retryCount).toBe(i)
    }
    const refused = await retry()
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ success: false, error: 'Maximum retry count reached (3)' })
  })
})

describe('cleanup and expiry', () => {
  it('deletes the caller’s notifications older than daysOld; an admin’s deletes everyone’s', async () => {
    const longAgo = Date.now() - 100 * DAY_MS
    const a = await withReminders(1, longAgo)
    await resetNotificationsKeepingRows()
    const b = await withReminders(1, longAgo)
    await resetNotificationsKeepingRows()
    expect((await api('PUT', '/users/activate', { token: a.user.accessToken })).status).toBe(200)
    const fresh = await withReminders(1, Date.now(), a.user)

    const own = await api('DELETE', `${PATH}/cleanup?daysOld=90`, { token: a.user.accessToken })
    expect(own.status).toBe(200)
    expect(own.body).toEqual({ deleted: 1, message: 'Deleted 1 notification older than 90 days' })
    expect((await notificationsOf(a.user.id)).map((n) => n.id)).toEqual([
      fresh.notifications.at(-1)!.id,
    ])
    expect(await notificationsOf(b.user.id)).toHaveLength(1)

    const all = await api('DELETE', `${PATH}/cleanup?daysOld=90`, { token: admin.accessToken })
    expect(all.body.deleted).toBe(1)
    expect(await notificationsOf(b.user.id)).toHaveLength(0)
    const bad = await api('DELETE', `${PATH}/cleanup?daysOld=0`, { token: admin.accessToken })
    expect(bad.status).toBe(400)
  })

  it('the daily cleanup removes notifications past NOTIFICATION_TTL_DAYS', async () => {
    const old = await withReminders(1, Date.now() - 91 * DAY_MS)
    await resetNotificationsKeepingRows()
    const recent = await withReminders(1, Date.now() - 10 * DAY_MS)
    await runDailyCleanup()
    expect(await notificationsOf(old.user.id)).toHaveLength(0)
    expect(await notificationsOf(recent.user.id)).toHaveLength(1)
  })

  it('removes a user’s notifications with the account', async () => {
    const { user } = await withReminders(2)
    const res = await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(await notificationsOf(user.id)).toHaveLength(0)
    const { results } = await env.DB.prepare(
      'SELECT count(*) AS n FROM notification_deliveries',
    ).all<{ n: number }>()
    expect(results[0].n).toBe(0)
  })

  it('keeps notifications when their contests are removed, even two at the same start', async () => {
    const e = testEnv()
    const user = await recipient()
    const start = Date.now() + 3 * HOUR_MS
    await addContests([
      contest(0, { startTime: start, endTime: start + HOUR_MS }),
      contest(0, { startTime: start, endTime: start + HOUR_MS }),
    ])
    await runScheduler(e)
    await deliverQueued(e)
    await env.DB.prepare('DELETE FROM contests').run()
    const res = await api('GET', PATH, { token: user.accessToken })
    expect(res.body.pagination.total).toBe(2)
    for (const n of res.body.notifications) {
      expect(n.contestId).toBeUndefined()
      expect(n.status).toBe('SENT')
    }
  })
})

/** Between two setups in one test: earlier contests and users drop out of later runs. */
async function resetNotificationsKeepingRows() {
  await env.DB.batch([
    env.DB.prepare('UPDATE contests SET is_active = 0'),
    env.DB.prepare('UPDATE users SET is_active = 0'),
  ])
}
