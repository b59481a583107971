// The notifications queue consumer driven through queue(): each channel's provider on the wire,
// retries with their delays, permanent failures, idempotency, the dead-letter queue and status.
import { env } from 'cloudflare:test'
import { importJWK, jwtVerify } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { fromBase64Url, toBase64Url } from '../src/lib/crypto.ts'
import { claimDeliveries } from '../src/notifications/delivery/delivery-store.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../src/notifications/delivery/status.ts'
import { listPushSubscriptions } from '../src/users/push-subscriptions.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  capturePushBodies,
  consume,
  decryptPush,
  mailsTo,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
  VAPID_PUBLIC_KEY,
  whatsappRequests,
  type RecipientOptions,
} from './helpers/notifications.ts'
import { standIn, standInOrigin } from './helpers/stand-in.ts'
import { api } from './helpers/users.ts'
import { emailBatchKey } from '../src/channels/email/index.ts'

beforeEach(resetNotifications)

/** A user with a reminder due now; its queue messages are returned rather than consumed. */
async function dueReminder(options: RecipientOptions = {}, over: Partial<Env> = {}, name?: string) {
  const e = testEnv(over)
  const user = await recipient(options)
  const [round] = await addContests([contest(3, name ? { name } : {})])
  await runScheduler(e)
  const messages = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  const [notification] = await notificationsOf(user.id)
  const byChannel = (channel: string) => {
    const delivery = notification.deliveries.find((d: { channel: string }) => d.channel === channel)
    return { body: { deliveryId: delivery.id }, attempts: 1, id: delivery.id as string }
  }
  return { e, user, round, notification, messages, byChannel }
}

const current = async (userId: string) => (await notificationsOf(userId))[0]
const deliveryOf = async (userId: string, channel: string) =>
  (await current(userId)).deliveries.find((d: { channel: string }) => d.channel === channel)

describe('email deliveries', () => {
  it('send the reminder through Resend, keyed by the delivery id, and record SENT', async () => {
    const { e, user, round, byChannel } = await dueReminder({}, {}, 'Codeforces Round 1010')
    const email = byChannel('email')
    const [result] = await consume(e, [email])
    expect(result).toMatchObject({ acked: true, retried: false })
    const [mail] = await mailsTo(user.email)
    expect(mail.headers.authorization).toBe('Bearer re_test_key')
    expect(mail.headers['idempotency-key']).toBe(await emailBatchKey([email.id]))
    expect(mail.message.from).toBe('Contest Alerts <alerts@contest-alert.dev>')
    expect(mail.message.subject).toMatch(/^Reminder: Codeforces Round 1010 starts in/)
    expect(mail.message.html).toContain(round.websiteUrl ?? round.name)
    expect(mail.message.text).toMatch(
      /Codeforces Round 1010 on Codeforces starts at \w{3}, .* UTC \(in about 3 hours\)/,
    )
    const notification = await current(user.id)
    expect(notification.status).toBe('SENT')
    expect(notification.sentAt).toBeTypeOf('number')
    expect(await deliveryOf(user.id, 'email')).toMatchObject({ status: 'SENT', attempts: 1 })
  })

  it('escape the names people and platforms supply', async () => {
    const { e, user, byChannel } = await dueReminder(
      { name: `<img src=x onerror="alert('x')">` },
      {},
      `<b>"Round" & 'Co'</b>`,
    )
    await consume(e, [byChannel('email')])
    const [{ message }] = await mailsTo(user.email)
    expect(message.html).toContain('&lt;b&gt;&quot;Round&quot; &amp; &#39;Co&#39;&lt;/b&gt;')
    expect(message.html).toContain('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;')
    expect(message.html).not.toContain('<b>')
    expect(message.html).not.toContain('<img')
  })

  it('retry a transient failure after 60 seconds as RETRYING, then record SENT', async () => {
    const { e, user, byChannel } = await dueReminder()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [
        { status: 429, body: { message: 'Too many requests' } },
        { status: 200, body: { id: 'em_1' } },
      ],
    })
    const email = byChannel('email')
    const [first] = await consume(e, [email])
    expect(first).toMatchObject({
      acked: false,
      retried: true,
      delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0],
    })
    expect(await deliveryOf(user.id, 'email')).toMatchObject({
      status: 'RETRYING',
      retryCount: 1,
      error: 'Resend answered 429: Too many requests',
    })
    expect((await current(user.id)).status).toBe('RETRYING')

    const [second] = await consume(e, [{ ...email, attempts: 2 }])
    expect(second).toMatchObject({ acked: true, retried: false })
    expect(await deliveryOf(user.id, 'email')).toMatchObject({ status: 'SENT', retryCount: 1 })
    expect((await current(user.id)).status).toBe('SENT')
    expect(await mailsTo(user.email)).toHaveLength(2)
  })

  it('wait 60, 300 and 900 seconds between retries, then fail with the last error', async () => {
    const { e, user, byChannel } = await dueReminder()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 503, body: { message: 'Service unavailable' } }],
    })
    const email = byChannel('email')
    const delays = []
    for (let attempts = 1; attempts <= 3; attempts++) {
      const [r] = await consume(e, [{ ...email, attempts }])
      expect(r.retried).toBe(true)
      delays.push(r.delaySeconds)
    }
    expect(delays).toEqual([...NOTIFICATION_RETRY_DELAYS_SECONDS])
    const [last] = await consume(e, [{ ...email, attempts: 4 }])
    expect(last).toMatchObject({ acked: true, retried: false })
    expect(await deliveryOf(user.id, 'email')).toMatchObject({
      status: 'FAILED',
      retryCount: 3,
      attempts: 4,
      error: 'Resend answered 503: Service unavailable',
    })
    const notification = await current(user.id)
    expect(notification.status).toBe('FAILED')
    expect(await mailsTo(user.email)).toHaveLength(4)
  })

  it('fail a permanent error at once, with no retry', async () => {
    const { e, user, byChannel } = await dueReminder()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 422, body: { message: 'Invalid `to` field' } }],
    })
    const [r] = await consume(e, [byChannel('email')])
    expect(r).toMatchObject({ acked: true, retried: false })
    expect(await deliveryOf(user.id, 'email')).toMatchObject({
      status: 'FAILED',
      retryCount: 0,
      error: 'Resend answered 422: Invalid `to` field',
    })
    expect((await current(user.id)).status).toBe('FAILED')
    expect(await mailsTo(user.email)).toHaveLength(1)
  })

  it('never send again when a message for a sent delivery is delivered again', async () => {
    const { e, user, byChannel } = await dueReminder()
    const email = byChannel('email')
    await consume(e, [email])
    const [again] = await consume(e, [{ ...email, attempts: 2 }])
    expect(again).toMatchObject({ acked: true, retried: false })
    // Two copies in one batch (at-least-once delivery) send nothing either.
    await consume(e, [email, email])
    expect(await mailsTo(user.email)).toHaveLength(1)
  })

  it('wait for another attempt that holds the delivery in a new message, spending no retry, instead of sending alongside it', async () => {
    const { e, user, byChannel } = await dueReminder()
    const email = byChannel('email')
    await claimDeliveries(createDb(env.DB), [email.id], ['PENDING'], Date.now())
    e.NOTIFICATIONS_QUEUE.delays.splice(0)
    // Its last retry: had it been retried, the queue would give up on it and record it FAILED.
    const [r] = await consume(e, [{ ...email, attempts: 4 }])
    expect(r).toMatchObject({ acked: true, retried: false })
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([{ deliveryIds: [email.id] }])
    expect(e.NOTIFICATIONS_QUEUE.delays[0]).toBeGreaterThan(60)
    expect(await mailsTo(user.email)).toHaveLength(0)
  })
})

describe('the dead-letter queue', () => {
  it('records a delivery the queue gave up on as FAILED', async () => {
    const { e, user, byChannel } = await dueReminder()
    const [r] = await consume(e, [byChannel('email')], 'notifications-dlq')
    expect(r.acked).toBe(true)
    expect(await deliveryOf(user.id, 'email')).toMatchObject({
      status: 'FAILED',
      error: 'the queue gave up on this delivery',
    })
    expect((await current(user.id)).status).toBe('FAILED')
    expect(await mailsTo(user.email)).toHaveLength(0)
  })

  it('leaves a delivery that was sent meanwhile as SENT', async () => {
    const { e, user, byChannel } = await dueReminder()
    await consume(e, [byChannel('email')])
    await consume(e, [byChannel('email')], 'notifications-dlq')
    expect((await current(user.id)).status).toBe('SENT')
  })

  it('acknowledges a malformed message rather than retrying it forever', async () => {
    const e = testEnv()
    const [r] = await consume(e, [{ body: { nope: true }, attempts: 1 }])
    expect(r).toMatchObject({ acked: true, retried: false })
  })
})

describe('WhatsApp deliveries', () => {
  const options: RecipientOptions = {
    channels: { whatsapp: true },
    phoneNumber: '+44 (20) 7946-0000',
  }

  it('send the approved template to the number with the bearer token', async () => {
    const { e, user, byChannel } = await dueReminder(options, {}, 'Weekly Contest 500')
    const whatsapp = byChannel('whatsapp')
    const [r] = await consume(e, [whatsapp])
    expect(r.acked).toBe(true)
    const [request] = await whatsappRequests()
    expect(request.path).toBe('/whatsapp/1098765/messages')
    expect(request.headers.authorization).toBe('Bearer wa-test-token')
    expect(request.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: '442079460000',
      type: 'template',
      biz_opaque_callback_data: whatsapp.id,
      template: { name: 'contest_alert', language: { code: 'en' } },
    })
    const params = request.body.template.components[0].parameters
    expect(params).toHaveLength(2)
    expect(params[0].text).toMatch(/^Reminder: Weekly Contest 500 starts in/)
    expect(params[1].text).not.toMatch(/\n/)
    expect(await deliveryOf(user.id, 'whatsapp')).toMatchObject({ status: 'SENT' })
  })

  it('retry a rate limit (130429) and fail an unknown recipient (131026) at once', async () => {
    const { e, user, byChannel } = await dueReminder(options)
    const graphError = (code: number) => ({
      status: 400,
      body: { error: { message: `error ${code}`, type: 'OAuthException', code } },
    })
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [graphError(130429), graphError(131026)],
    })
    const whatsapp = byChannel('whatsapp')
    const [first] = await consume(e, [whatsapp])
    expect(first).toMatchObject({
      retried: true,
      delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0],
    })
    const [second] = await consume(e, [{ ...whatsapp, attempts: 2 }])
    expect(second).toMatchObject({ acked: true, retried: false })
    expect(await deliveryOf(user.id, 'whatsapp')).toMatchObject({
      status: 'FAILED',
      error: 'WhatsApp answered 400 (code 131026): error 131026',
    })
  })
})

describe('push deliveries', () => {
  it('send an aes128gcm payload under VAPID that only the subscribed browser can read', async () => {
    const { e, user, byChannel } = await dueReminder(
      { channels: { push: true }, push: true },
      {},
      'AtCoder Beginner Contest 400',
    )
    const { bodies } = await capturePushBodies(() => consume(e, [byChannel('push')]))
    const [request] = await standIn.requests('/push/')
    expect(request.headers['content-encoding']).toBe('aes128gcm')
    expect(request.headers['content-type']).toBe('application/octet-stream')
    expect(request.headers.urgency).toBe('high')
    expect(Number(request.headers.ttl)).toBeGreaterThan(3 * 3600 - 120)

    const auth = /^vapid t=([^,]+), k=(.+)$/.exec(request.headers.authorization)!
    expect(auth[2]).toBe(VAPID_PUBLIC_KEY)
    const point = fromBase64Url(VAPID_PUBLIC_KEY)
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: toBase64Url(point.subarray(1, 33)),
        y: toBase64Url(point.subarray(33, 65)),
      },
      'ES256',
    )
    const { payload: claims } = await jwtVerify(auth[1], key, { audience: standInOrigin })
    expect(claims.sub).toBe('mailto:ops@example.test')

    const [body] = [...bodies.values()]
    const message = (await decryptPush(body, user.push!)) as Record<string, any>
    expect(message.title).toMatch(/^Reminder: AtCoder Beginner Contest 400 starts in/)
    expect(message.body).toContain('AtCoder Beginner Contest 400')
    expect(message.data.notificationId).toBe((await current(user.id)).id)
  })

  it('delete a subscription the push service no longer knows and fail the delivery', async () => {
    const { e, user, byChannel } = await dueReminder({ channels: { push: true }, push: true })
    await standIn.script({ method: 'POST', pathPrefix: '/push/', responses: [{ status: 410 }] })
    const [r] = await consume(e, [byChannel('push')])
    expect(r).toMatchObject({ acked: true, retried: false })
    expect(await deliveryOf(user.id, 'push')).toMatchObject({
      status: 'FAILED',
      error: 'Every push subscription has expired',
    })
    expect(await listPushSubscriptions(createDb(env.DB), user.id)).toEqual([])
    // The last subscription gone, the service turned push off and says why in the profile.
    const profile = await api('GET', '/users/profile', { token: user.accessToken })
    expect(profile.body.preferences.notificationChannels.push).toBe(false)
    expect(profile.body.channelStatus).toEqual({
      push: { blocked: true, reason: 'subscription-expired', since: expect.any(String) },
    })
  })
})

describe('overall status', () => {
  it('is SENT when one channel delivered although another failed', async () => {
    const { e, user, byChannel } = await dueReminder({
      channels: { email: true, whatsapp: true },
      phoneNumber: '+15550199',
    })
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [{ status: 400, body: { error: { code: 131026, message: 'undeliverable' } } }],
    })
    await consume(e, [byChannel('whatsapp')])
    // Not every channel has failed: the email is still on its way.
    expect((await current(user.id)).status).toBe('PENDING')
    await consume(e, [byChannel('email')])
    const res = await api('GET', `/notifications/notifications/${(await current(user.id)).id}`, {
      token: user.accessToken,
    })
    expect(res.body.status).toBe('SENT')
    expect(res.body.deliveryStatus.map((d: any) => [d.channel, d.status])).toEqual([
      ['email', 'SENT'],
      ['whatsapp', 'FAILED'],
    ])
  })

  it('stays PENDING while a channel has not been tried and none has failed for good', async () => {
    const { e, user, byChannel } = await dueReminder({
      channels: { email: true, whatsapp: true },
      phoneNumber: '+15550198',
    })
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [{ status: 400, body: { error: { code: 131026, message: 'undeliverable' } } }],
    })
    expect((await current(user.id)).status).toBe('PENDING')
    await consume(e, [byChannel('whatsapp')])
    // One channel failed, the other is still waiting in the queue.
    expect((await current(user.id)).status).toBe('PENDING')
  })
})

describe('local runs without provider credentials', () => {
  it('put every channel’s message in the dev outbox', async () => {
    const off = {
      RESEND_API_KEY: '',
      WHATSAPP_TOKEN: '',
      VAPID_PRIVATE_KEY: '',
      DEV_OUTBOX: 'true',
    }
    const { e, user, notification } = await dueReminder(
      {
        channels: { email: true, whatsapp: true, push: true },
        phoneNumber: '+15550111',
        push: true,
      },
      off,
      'Outbox Round',
    )
    const messages = notification.deliveries.map((d: { id: string }) => ({
      body: { deliveryId: d.id },
      attempts: 1,
    }))
    await consume(e, messages)
    expect((await current(user.id)).deliveries.map((d: any) => d.status)).toEqual([
      'SENT',
      'SENT',
      'SENT',
    ])
    const listed = await api('GET', '/dev/outbox', { bindings: off })
    const mine = listed.body.messages.filter((m: any) => JSON.stringify(m).includes('Outbox Round'))
    expect(mine.map((m: any) => m.channel).sort()).toEqual(['email', 'push', 'whatsapp'])
    expect(await mailsTo(user.email)).toHaveLength(0)
  })
})
