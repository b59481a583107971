// /app/history: the signed-in user's notifications as a page (newest first, paged, filtered), each
// with its time, overall and per-channel status; mark read, mark all read and retry through forms,
// answered as the API answers (retry's 400, 409, 502 shown on the page); owner checks on every id.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import { select, selectOne } from './helpers/html.ts'
import {
  consume,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'
import { api } from './helpers/users.ts'
import {
  expectNotFoundPage,
  expectPage,
  expectRefused,
  formErrors,
  noticeOf,
  signedInBrowser,
} from './helpers/web-app.ts'
import { WebClient, type WebPage } from './helpers/web.ts'

beforeEach(resetNotifications)

/** A user holding `count` reminders, none delivered yet, and a browser signed in as them. */
async function withReminders(count: number) {
  const e = testEnv()
  const user = await recipient()
  await addContests(Array.from({ length: count }, (_, i) => contest(2 + i)))
  await runScheduler(e)
  const browser = await signedInBrowser(user, testEnv())
  return { e, user, browser, notifications: await notificationsOf(user.id) }
}

const failEmails = () =>
  standIn.script({
    method: 'POST',
    pathPrefix: '/resend/emails',
    responses: [{ status: 422, body: { message: 'Invalid `to` field' } }],
  })

/** Sends the first delivery of `notification` once, with the provider refusing it: FAILED. */
async function failOnce(e: ReturnType<typeof testEnv>, notification: Record<string, any>) {
  await failEmails()
  await consume(e, [{ body: { deliveryId: notification.deliveries[0].id }, attempts: 1 }])
}

async function listedIds(page: WebPage) {
  return (await select(page.html, '#notifications > li.notification')).map(
    (li) => li.attrs['data-id'],
  )
}

const isRead = async (id: string) =>
  (await env.DB.prepare('SELECT is_read AS r FROM notifications WHERE id = ?')
    .bind(id)
    .first<{ r: number }>())!.r === 1

describe('the list', () => {
  it('shows the user’s notifications newest first, 20 a page, in the API’s order', async () => {
    const { user, browser } = await withReminders(22)
    const first = await browser.get('/app/history')
    expectPage(first, 200)
    expect((await selectOne(first.html, 'main h1')).text).toBe('Notification history')
    expect((await selectOne(first.html, 'a[aria-current="page"]')).text).toBe('History')
    expect((await selectOne(first.html, '#count')).text).toBe('22 notifications')
    const second = await browser.get('/app/history?page=2')
    const ids = [...(await listedIds(first)), ...(await listedIds(second))]
    expect((await listedIds(first)).length).toBe(20)
    expect((await listedIds(second)).length).toBe(2)
    const apiPages = [1, 2].map((page) =>
      api('GET', `/notifications/notifications?page=${page}`, { token: user.accessToken }),
    )
    const fromApi = (await Promise.all(apiPages)).flatMap((r) =>
      r.body.notifications.map((n: { id: string }) => n.id),
    )
    expect(ids).toEqual(fromApi)
    // The pager links the other page, keeping the filters.
    expect((await selectOne(first.html, '.pager a[rel="next"]')).attrs.href).toBe(
      '/app/history?page=2',
    )
    expect((await selectOne(second.html, '.pager a[rel="prev"]')).attrs.href).toBe('/app/history')
  })

  it('gives each one its title, a UTC <time datetime>, the overall and each channel’s status', async () => {
    const { browser, notifications } = await withReminders(1)
    const [n] = notifications
    const page = await browser.get('/app/history')
    const item = `#notification-${n.id}`
    expect((await selectOne(page.html, `${item} h3`)).text).toContain(n.title)
    const time = await selectOne(page.html, `${item} time`)
    const created = await env.DB.prepare('SELECT created_at AS t FROM notifications WHERE id = ?')
      .bind(n.id)
      .first<{ t: number }>()
    expect(time.attrs.datetime).toBe(new Date(created!.t).toISOString())
    expect(time.text).toMatch(/UTC$/)
    expect((await selectOne(page.html, '#zone-note')).text).toBe('Times are in UTC.')
    expect((await selectOne(page.html, `${item} .status`)).text).toBe('Status: Waiting to be sent')
    const channel = await selectOne(page.html, `${item} .deliveries > li`)
    expect(channel.attrs).toMatchObject({ 'data-channel': 'email', 'data-status': 'PENDING' })
    expect(channel.text).toMatch(/^Email: Waiting to be sent/)
    // Unread: a "New" mark and its button; not failed: no retry.
    expect((await selectOne(page.html, `${item} .badge`)).text).toBe('New')
    expect(
      await select(page.html, `${item} form[action^="/app/history/${n.id}/read"]`),
    ).toHaveLength(1)
    expect(await select(page.html, `${item} form[action*="/retry"]`)).toEqual([])
  })

  it('filters by status and type, ignores an empty choice, and answers a bad one 400', async () => {
    const { e, browser, notifications } = await withReminders(2)
    await failOnce(e, notifications[0])
    const failed = await browser.get('/app/history?status=FAILED&type=')
    expectPage(failed, 200)
    expect(await listedIds(failed)).toEqual([notifications[0].id])
    expect((await selectOne(failed.html, '#count')).text).toBe('1 matching notification')
    expect((await selectOne(failed.html, '#status option[selected]')).attrs.value).toBe('FAILED')
    const alerts = await browser.get('/app/history?type=SYSTEM_ALERT')
    expect(await listedIds(alerts)).toEqual([])
    expect((await selectOne(alerts.html, '#no-notifications')).text).toBe('No notifications here.')
    const bad = await browser.get('/app/history?status=LOST')
    expectPage(bad, 400)
    expect(await formErrors(bad)).toEqual([
      'status must be one of the following values: PENDING, SENT, FAILED, RETRYING',
    ])
  })

  it('sends a signed-out browser to sign in, and back to the history afterwards', async () => {
    const page = await new WebClient().get('/app/history?status=SENT')
    expect(page.status).toBe(303)
    expect(WebClient.location(page)).toBe(
      `/app/signin?next=${encodeURIComponent('/app/history?status=SENT')}`,
    )
  })
})

describe('mark read', () => {
  it('marks one read and comes back to the same filters and page with a notice', async () => {
    const { browser, notifications } = await withReminders(2)
    const [n] = notifications
    const page = await browser.get('/app/history?status=PENDING')
    const answer = await browser.post(
      `/app/history/${n.id}/read?status=PENDING`,
      {},
      { csrf: page.csrf },
    )
    expect(answer.status).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/history?status=PENDING&notice=read')
    expect(await isRead(n.id)).toBe(true)
    expect(await isRead(notifications[1].id)).toBe(false)
    const after = await browser.get(WebClient.location(answer))
    expect(await noticeOf(after)).toBe('Marked as read.')
    expect(await select(after.html, `#notification-${n.id} .badge`)).toEqual([])
  })

  it('marks all of the user’s notifications read, and no one else’s', async () => {
    const { browser, notifications } = await withReminders(2)
    const other = await withReminders(1)
    const page = await browser.get('/app/history')
    const answer = await browser.post('/app/history/read-all', {}, { csrf: page.csrf })
    expect(WebClient.location(answer)).toBe('/app/history?notice=all-read')
    for (const n of notifications) expect(await isRead(n.id)).toBe(true)
    expect(await isRead(other.notifications[0].id)).toBe(false)
  })

  it('answers another user’s id, an unknown and a malformed one with the 404 page', async () => {
    const { notifications } = await withReminders(1)
    const stranger = await signedInBrowser(await recipient())
    const page = await stranger.get('/app/history')
    for (const id of [notifications[0].id, '0123456789abcdef01234567', 'nope']) {
      for (const action of ['read', 'retry']) {
        const answer = await stranger.post(`/app/history/${id}/${action}`, {}, { csrf: page.csrf })
        await expectNotFoundPage(answer, /no notification with that id/)
      }
    }
    expect(await isRead(notifications[0].id)).toBe(false)
  })

  it('refuses a form without its CSRF token (403) and changes nothing', async () => {
    const { browser, notifications } = await withReminders(1)
    await expectRefused(await browser.post(`/app/history/${notifications[0].id}/read`, {}))
    await expectRefused(await browser.post('/app/history/read-all', {}))
    expect(await isRead(notifications[0].id)).toBe(false)
  })

  it('refuses a field the form does not have (400), changing nothing', async () => {
    const { browser, notifications } = await withReminders(1)
    const page = await browser.get('/app/history')
    const answer = await browser.post(
      `/app/history/${notifications[0].id}/read`,
      { userId: 'someone' },
      { csrf: page.csrf },
    )
    expectPage(answer, 400)
    expect(await formErrors(answer)).toEqual(['This form has no field named userId.'])
    expect(await isRead(notifications[0].id)).toBe(false)
  })
})

describe('retry', () => {
  async function failed() {
    const setup = await withReminders(1)
    const [n] = setup.notifications
    await failOnce(setup.e, n)
    const page = await setup.browser.get('/app/history')
    return { ...setup, n, page }
  }

  it('offers a failed notification’s retry, resends it at once and says it was delivered', async () => {
    const { user, browser, n, page } = await failed()
    const item = `#notification-${n.id}`
    expect((await selectOne(page.html, `${item} .status`)).text).toBe('Status: Failed')
    const channel = await selectOne(page.html, `${item} .deliveries > li`)
    expect(channel.attrs['data-status']).toBe('FAILED')
    expect(channel.text).toContain('Resend answered 422: Invalid `to` field')
    const form = await selectOne(page.html, `${item} form[action="/app/history/${n.id}/retry"]`)
    expect(form.attrs.method).toBe('post')

    await standIn.reset()
    const answer = await browser.post(`/app/history/${n.id}/retry`, {}, { csrf: page.csrf })
    expect(answer.status, answer.html).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/history?notice=retried')
    // The route's own limit, the API's, counted for this user.
    expect(answer.res.headers.get('X-RateLimit-Limit')).toBe('30')
    const [stored] = await notificationsOf(user.id)
    expect(stored.status).toBe('SENT')
    expect(stored.deliveries[0]).toMatchObject({ status: 'SENT', retryCount: 1 })
    expect(await standIn.requests('/resend/emails')).toHaveLength(1)
    const after = await browser.get(WebClient.location(answer))
    expect(await noticeOf(after)).toBe('Sent again, and delivered this time.')
    expect(await select(after.html, `${item} form[action*="/retry"]`)).toEqual([])
  })

  it('shows the provider’s failure (502), then the 400 once the 3 retries are spent', async () => {
    const { browser, n, page } = await failed()
    for (let i = 1; i <= 3; i++) {
      const answer = await browser.post(`/app/history/${n.id}/retry`, {}, { csrf: page.csrf })
      expectPage(answer, 502)
      expect(await formErrors(answer)).toEqual([
        'Failed to retry notification: Resend answered 422: Invalid `to` field',
      ])
      // Still the list, with the filters form and the notification, its retries counted.
      expect(
        (await selectOne(answer.html, `#notification-${n.id} .deliveries > li`)).text,
      ).toContain(`after ${i} ${i === 1 ? 'retry' : 'retries'}`)
    }
    const spent = await browser.get('/app/history')
    expect(await select(spent.html, `#notification-${n.id} form[action*="/retry"]`)).toEqual([])
    const refused = await browser.post(`/app/history/${n.id}/retry`, {}, { csrf: page.csrf })
    expectPage(refused, 400)
    expect(await formErrors(refused)).toEqual(['Maximum retry count reached (3)'])
  })

  it('answers a notification being sent this moment with the API’s 409', async () => {
    const { browser, n, page } = await failed()
    await env.DB.prepare('UPDATE notification_deliveries SET claimed_until = ? WHERE id = ?')
      .bind(Date.now() + 60_000, n.deliveries[0].id)
      .run()
    const answer = await browser.post(`/app/history/${n.id}/retry`, {}, { csrf: page.csrf })
    expectPage(answer, 409)
    expect(await formErrors(answer)).toEqual([
      'Failed to retry notification: a delivery attempt is already in progress',
    ])
  })

  it('refuses a sent or pending notification with the API’s 400 reason', async () => {
    const { browser, notifications } = await withReminders(1)
    const page = await browser.get('/app/history')
    const answer = await browser.post(
      `/app/history/${notifications[0].id}/retry`,
      {},
      { csrf: page.csrf },
    )
    expectPage(answer, 400)
    expect(await formErrors(answer)).toEqual(['Notification has not failed; nothing to retry'])
  })
})
