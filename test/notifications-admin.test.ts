// Admin notification endpoints: test sends, custom, bulk, announcement and contest-reminder
// emails, and the channel status and health checks.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import {
  capturePushBodies,
  consume,
  decryptPush,
  deliverQueued,
  mailsTo,
  notificationsOf,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
  VAPID_PRIVATE_KEY,
  whatsappRequests,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, uniqueEmail, type TestUser } from './helpers/users.ts'

let admin: TestUser
beforeAll(async () => {
  admin = await createAdmin()
})
beforeEach(resetNotifications)

const asAdmin = (method: string, path: string, body?: unknown, bindings = testEnv()) =>
  api(method, path, { token: admin.accessToken, body, bindings })

describe('test sends', () => {
  it('email: sends through Resend and reports what went out', async () => {
    const to = uniqueEmail('probe')
    const res = await asAdmin('POST', '/notifications/test/email', { email: to })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      success: true,
      message: `Test email sent to ${to}`,
      payload: { channel: 'email', to, provider: 'resend', subject: 'Contest Alerts test message' },
    })
    expect(res.body.payload.messageId).toBeTypeOf('string')
    const sent = await standIn.requests('/resend/emails')
    expect(sent.map((r) => JSON.parse(r.body).to)).toEqual([[to]])
  })

  it('email: refuses a bad address, non-admins, and says so when email is off', async () => {
    const bad = await asAdmin('POST', '/notifications/test/email', { email: 'not-an-address' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      statusCode: 400,
      message: 'Invalid email address',
      error: 'Bad Request',
    })
    const user = await recipient()
    const forbidden = await api('POST', '/notifications/test/email', {
      token: user.accessToken,
      body: { email: 'a@example.test' },
    })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.message).toBe('Forbidden resource')
    const off = await asAdmin(
      'POST',
      '/notifications/test/email',
      { email: 'a@example.test' },
      testEnv({ RESEND_API_KEY: '' }),
    )
    expect(off.status).toBe(200)
    expect(off.body.success).toBe(false)
    expect(off.body.message).toMatch(/disabled/)
  })

  it('whatsapp: sends the template to the number', async () => {
    const res = await asAdmin('POST', '/notifications/test/whatsapp', {
      phoneNumber: '+1 555 0100',
    })
    expect(res.body).toMatchObject({ success: true, payload: { channel: 'whatsapp' } })
    const [request] = await whatsappRequests()
    expect(request.body.to).toBe('15550100')
    const off = await asAdmin(
      'POST',
      '/notifications/test/whatsapp',
      { phoneNumber: '+1 555 0100' },
      testEnv({ WHATSAPP_TOKEN: '' }),
    )
    expect(off.body.success).toBe(false)
  })

  it('push: pushes to every subscription of the user', async () => {
    const user = await recipient({ push: true })
    const { result: res, bodies } = await capturePushBodies(() =>
      asAdmin('POST', '/notifications/test/push', { userId: user.id }),
    )
    expect(res.body).toMatchObject({
      success: true,
      payload: { channel: 'push', subscriptions: 1, delivered: 1 },
    })
    const message = (await decryptPush([...bodies.values()][0], user.push!)) as any
    expect(message.title).toBe('Contest Alerts test message')
    const none = await recipient()
    const empty = await asAdmin('POST', '/notifications/test/push', { userId: none.id })
    expect(empty.body.success).toBe(false)
    const missing = await asAdmin('POST', '/notifications/test/push', {
      userId: '0123456789abcdef01234567',
    })
    expect(missing.status).toBe(404)
  })
})

describe('POST /notifications/emails/custom', () => {
  const body = { subject: 'Hello', html: '<h1>Hi</h1>', text: 'Hi' }

  it('sends the email as written and answers with the provider’s id', async () => {
    const to = uniqueEmail('custom')
    const res = await asAdmin('POST', '/notifications/emails/custom', { ...body, to })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, to, subject: 'Hello', provider: 'resend' })
    expect(res.body.messageId).toBeTypeOf('string')
    const [sent] = await standIn.requests('/resend/emails')
    expect(JSON.parse(sent.body)).toMatchObject({ to: [to], html: '<h1>Hi</h1>', text: 'Hi' })
  })

  it('answers 400 for a bad address and 403 with its own wording for non-admins', async () => {
    const bad = await asAdmin('POST', '/notifications/emails/custom', { ...body, to: 'nope' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      statusCode: 400,
      message: 'Invalid email address',
      error: 'Bad Request',
    })
    const user = await recipient()
    const res = await api('POST', '/notifications/emails/custom', {
      token: user.accessToken,
      body: { ...body, to: 'a@example.test' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      statusCode: 403,
      message: 'Admin role required',
      error: 'Forbidden',
    })
    const extra = await asAdmin('POST', '/notifications/emails/custom', {
      ...body,
      to: 'a@example.test',
      cc: 'b@example.test',
    })
    expect(extra.status).toBe(400)
    expect(extra.body.message).toEqual(['property cc should not exist'])
  })

  it('never claims success: 502 when the provider fails, 503 when email is off', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 500, body: { message: 'boom' } }],
    })
    const failed = await asAdmin('POST', '/notifications/emails/custom', {
      ...body,
      to: 'a@example.test',
    })
    expect(failed.status).toBe(502)
    expect(failed.body.message).toBe('Failed to send email: Resend answered 500: boom')
    const off = await asAdmin(
      'POST',
      '/notifications/emails/custom',
      { ...body, to: 'a@example.test' },
      testEnv({ RESEND_API_KEY: '' }),
    )
    expect(off.status).toBe(503)
  })
})

describe('POST /notifications/emails/bulk', () => {
  it('creates one notification per reachable user, enqueues them and lists the skipped', async () => {
    const e = testEnv()
    const [a, b] = [await recipient(), await recipient()]
    const unverified = await recipient({ verified: false })
    const inactive = await recipient()
    await api('DELETE', '/users/profile', { token: inactive.accessToken })
    const emailOff = await recipient({ channels: { push: true } })
    const unknown = '0123456789abcdef01234567'
    const res = await asAdmin(
      'POST',
      '/notifications/emails/bulk',
      {
        userIds: [a.id, b.id, unverified.id, inactive.id, emailOff.id, unknown, a.id],
        subject: 'Maintenance',
        html: '<p>We <em>will</em> be down.</p>',
      },
      e,
    )
    expect(res.status).toBe(202)
    expect(res.body).toEqual({
      success: true,
      total: 6,
      queued: 2,
      skipped: [
        { userId: unverified.id, reason: 'Email address is not verified' },
        { userId: inactive.id, reason: 'Account is deactivated' },
        { userId: emailOff.id, reason: 'Email notifications are turned off' },
        { userId: unknown, reason: 'User not found' },
      ],
    })
    expect(e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)).toHaveLength(2)
    await deliverQueued(e)
    const [mail] = await mailsTo(a.email)
    expect(mail.message).toMatchObject({
      subject: 'Maintenance',
      html: '<p>We <em>will</em> be down.</p>',
    })
    // Optional mail: the one-click unsubscribe headers (RFC 8058), the admin's HTML left as written.
    expect(mail.message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(mail.message.headers['List-Unsubscribe']).toMatch(/^<https?:\/\/.+\/unsubscribe\?token=/)
    expect((await notificationsOf(b.id))[0]).toMatchObject({ type: 'SYSTEM_ALERT', status: 'SENT' })
  })

  it('takes at most 1000 user ids, each a valid id', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => i.toString(16).padStart(24, '0'))
    const tooMany = await asAdmin('POST', '/notifications/emails/bulk', {
      userIds: ids,
      subject: 's',
      html: 'h',
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toEqual(['userIds must contain no more than 1000 elements'])
    const bad = await asAdmin('POST', '/notifications/emails/bulk', {
      userIds: ['x'],
      subject: 's',
      html: 'h',
    })
    expect(bad.body.message).toEqual(['each value in userIds must be a valid user ID'])
  })
})

describe('POST /notifications/emails/announcement', () => {
  it('reaches the users the filters select, with every supplied text escaped', async () => {
    const e = testEnv()
    const lc = await recipient({ platforms: ['leetcode'], name: 'Lin <Chen>' })
    const cf = await recipient({ platforms: ['codeforces'] })
    const res = await asAdmin(
      'POST',
      '/notifications/emails/announcement',
      {
        subject: 'New & improved',
        title: 'Big <news>',
        message: 'Line one\nLine "two"',
        actionUrl: 'https://example.test/news?a=1&b=2',
        actionText: 'Read <more>',
        filters: { platforms: ['leetcode'] },
      },
      e,
    )
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ success: true, total: 1, queued: 1, skipped: [] })
    expect(await notificationsOf(cf.id)).toEqual([])
    await deliverQueued(e)
    const [{ message }] = await mailsTo(lc.email)
    expect(message.subject).toBe('New & improved')
    expect(message.html).toContain('Big &lt;news&gt;')
    expect(message.html).toContain('Line one<br>Line &quot;two&quot;')
    expect(message.html).toContain('href="https://example.test/news?a=1&amp;b=2"')
    expect(message.html).toContain('Read &lt;more&gt;')
    expect(message.html).toContain('Hello Lin &lt;Chen&gt;')
    expect(message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(message.headers['List-Unsubscribe']).toMatch(/^<https?:\/\/.+\/unsubscribe\?token=/)
  })

  it('goes to deactivated accounts only when isActive is false', async () => {
    const e = testEnv()
    const active = await recipient()
    const inactive = await recipient()
    await api('DELETE', '/users/profile', { token: inactive.accessToken })
    const body = { subject: 'We miss you', title: 'Come back', message: 'New contests await.' }
    const res = await asAdmin(
      'POST',
      '/notifications/emails/announcement',
      { ...body, filters: { isActive: false } },
      e,
    )
    // Earlier tests' users are deactivated too, so only the split is certain.
    expect(res.body.queued).toBe(res.body.total)
    expect(await notificationsOf(inactive.id)).toHaveLength(1)
    expect(await notificationsOf(active.id)).toHaveLength(0)
  })

  it('requires subject, title and message and refuses a non-http action link', async () => {
    const res = await asAdmin('POST', '/notifications/emails/announcement', {
      subject: 's',
      actionUrl: 'javascript:alert(1)',
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'title must be a string',
        'message must be a string',
        'actionUrl must be an http or https URL',
      ]),
    )
  })
})

describe('POST /notifications/emails/contest-reminder', () => {
  it('reminds the chosen users of the contest with the admin’s message escaped', async () => {
    const e = testEnv()
    const user = await recipient({ platforms: ['atcoder'] })
    const [round] = await addContests([contest(30, { name: 'Special Round' })])
    const res = await asAdmin(
      'POST',
      '/notifications/emails/contest-reminder',
      { contestId: round.id, userIds: [user.id], customMessage: 'Bring <snacks> & water' },
      e,
    )
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ success: true, total: 1, queued: 1, skipped: [] })
    const [n] = await notificationsOf(user.id)
    expect(n).toMatchObject({ type: 'CONTEST_REMINDER', contestId: round.id })
    expect(n.message).toContain('Bring <snacks> & water')
    await deliverQueued(e)
    const [{ message }] = await mailsTo(user.email)
    expect(message.subject).toMatch(/^Reminder: Special Round starts in/)
    expect(message.html).toContain('Bring &lt;snacks&gt; &amp; water')
  })

  it('answers 404 for an unknown contest', async () => {
    const user = await recipient()
    const res = await asAdmin('POST', '/notifications/emails/contest-reminder', {
      contestId: '0123456789abcdef01234567',
      userIds: [user.id],
    })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Contest with ID 0123456789abcdef01234567 not found')
  })
})

describe('channel status and health', () => {
  it('status tells a signed-in user which channels are enabled and healthy', async () => {
    const user = await recipient()
    const res = await api('GET', '/notifications/status', {
      token: user.accessToken,
      bindings: testEnv({ WHATSAPP_TOKEN: '' }),
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      email: { enabled: true, healthy: true },
      whatsapp: { enabled: false, healthy: false },
      push: { enabled: true, healthy: true },
      // The bot's token is among the test providers. Discord and Slack need none.
      telegram: { enabled: true, healthy: true },
      discord: { enabled: true, healthy: true },
      slack: { enabled: true, healthy: true },
    })
    expect((await api('GET', '/notifications/status')).status).toBe(401)
  })

  it('health is public, carries no secrets, and degrades when a channel keeps failing', async () => {
    const e = testEnv()
    const ok = await api('GET', '/notifications/health', { bindings: e })
    expect(ok.status).toBe(200)
    expect(ok.body.status).toBe('ok')
    expect(ok.body.timestamp).toMatch(/Z$/)
    const text = JSON.stringify(ok.body)
    for (const secret of [PROVIDERS.RESEND_API_KEY, PROVIDERS.WHATSAPP_TOKEN, VAPID_PRIVATE_KEY]) {
      expect(text).not.toContain(secret)
    }

    const user = await recipient()
    await addContests(Array.from({ length: 10 }, (_, i) => contest(2 + i)))
    await runScheduler(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 400, body: { message: 'Invalid API key' } }],
    })
    await consume(
      e,
      e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 })),
    )
    expect((await notificationsOf(user.id)).every((n) => n.status === 'FAILED')).toBe(true)
    const degraded = await api('GET', '/notifications/health', { bindings: e })
    expect(degraded.body).toMatchObject({
      status: 'degraded',
      services: { email: { enabled: true, healthy: false }, push: { healthy: true } },
    })
    const off = await api('GET', '/notifications/health', {
      bindings: testEnv({
        RESEND_API_KEY: '',
        WHATSAPP_TOKEN: '',
        VAPID_PRIVATE_KEY: '',
        TELEGRAM_BOT_TOKEN: '',
        DISCORD_ENABLED: 'false',
        SLACK_ENABLED: 'false',
      }),
    })
    expect(off.body.status).toBe('degraded')
  })
})

describe('the admin email budget (60 sends in 15 minutes per admin)', () => {
  // Deactivated AtCoder followers only, so each accepted send reaches few people.
  const announcement = {
    subject: 'Budget',
    title: 'Budget',
    message: 'Counted once accepted.',
    filters: { platforms: ['atcoder'], isActive: false },
  }
  const refused = { subject: 'No title, no message' }

  async function ownAdmin() {
    const mine = await createAdmin()
    const e = testEnv()
    return (path: string, body: unknown) =>
      api('POST', `/notifications/emails/${path}`, { token: mine.accessToken, body, bindings: e })
  }

  const limitOf = (res: { headers: Headers }) => ({
    limit: res.headers.get('X-RateLimit-Limit'),
    remaining: res.headers.get('X-RateLimit-Remaining'),
  })

  it('is not spent by refused requests: after 61 bad ones a valid announcement is accepted', async () => {
    const post = await ownAdmin()
    for (let i = 0; i < 61; i++) {
      const bad = await post('announcement', refused)
      expect(bad.status).toBe(400)
      expect(limitOf(bad)).toEqual({ limit: '60', remaining: '60' })
    }
    const res = await post('announcement', announcement)
    expect(res.status).toBe(202)
    expect(limitOf(res)).toEqual({ limit: '60', remaining: '59' })
  })

  it('refuses the 61st accepted send with 429, Retry-After and the limit headers', async () => {
    const post = await ownAdmin()
    for (let i = 1; i <= 60; i++) {
      const res = await post('announcement', announcement)
      expect(res.status).toBe(202)
      expect(limitOf(res)).toEqual({ limit: '60', remaining: String(60 - i) })
      // Refusals in between, of the body and of a contest that is not there, count nothing.
      if (i === 20 || i === 40) {
        expect((await post('announcement', refused)).status).toBe(400)
        const unknown = { contestId: 'x'.repeat(24), userIds: [admin.id] }
        expect([400, 404]).toContain((await post('contest-reminder', unknown)).status)
      }
    }
    const before = Math.floor(Date.now() / 1000)
    const res = await post('announcement', announcement)
    expect(res.status).toBe(429)
    expect(res.body).toMatchObject({ statusCode: 429 })
    expect(limitOf(res)).toEqual({ limit: '60', remaining: '0' })
    const reset = Number(res.headers.get('X-RateLimit-Reset'))
    expect(reset).toBeGreaterThan(before)
    expect(reset).toBeLessThanOrEqual(before + 15 * 60 + 1)
    const retryAfter = Number(res.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60 + 1)
    // The other email routes share the budget.
    const bulk = { subject: 'Budget', html: '<p>Budget</p>', userIds: [admin.id] }
    expect((await post('bulk', bulk)).status).toBe(429)
  })
})
