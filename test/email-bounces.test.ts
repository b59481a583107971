// Resend's webhooks: signed hard bounces and complaints suppress the address (channelStatus says
// why and since when), soft bounces and deliveries are only recorded, redeliveries change nothing,
// and unsigned, stale or unconfigured receipts are refused.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { MINUTE_MS } from '../src/lib/time.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { postResendEvent, resendEvent, svixHeaders } from './helpers/resend-events.ts'
import { api, type TestUser } from './helpers/users.ts'

beforeEach(resetNotifications)

const HARD = { type: 'Permanent', subType: 'General' }
const SOFT = { type: 'Transient', subType: 'MailboxFull' }

/** A user sent one reminder by email, and the id Resend gave that email. */
async function mailedUser() {
  const e = testEnv()
  const user = await recipient()
  await addContests([contest(3)])
  await runScheduler(e)
  await deliverQueued(e)
  const emailId = await providerIdOf(user.id)
  expect(emailId, 'the email delivery has Resend’s id').toBeTruthy()
  return { e, user, emailId: emailId! }
}

async function emailDelivery(userId: string) {
  return env.DB.prepare(
    `SELECT d.provider_message_id AS emailId, d.provider_outcome AS outcome
     FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
     WHERE n.user_id = ? AND d.channel = 'email'`,
  )
    .bind(userId)
    .first<{ emailId: string | null; outcome: string | null }>()
}

const providerIdOf = async (userId: string) => (await emailDelivery(userId))?.emailId

async function profileOf(user: TestUser) {
  const res = await api('GET', '/users/profile', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body
}

/** Signs and posts one event. */
async function send(body: string, options: Parameters<typeof svixHeaders>[1] = {}) {
  return postResendEvent(body, svixHeaders(body, options))
}

/** Whether a new contest's reminder run makes an email delivery for the user. */
async function nextRunMails(e: ReturnType<typeof testEnv>, user: TestUser) {
  await addContests([contest(5, { name: 'Codeforces Round Next' })])
  await runScheduler(e)
  const next = (await notificationsOf(user.id)).filter((n) => n.title.includes('Round Next'))
  return next.flatMap((n) => n.deliveries).some((d) => d.channel === 'email')
}

describe('suppression', () => {
  it('a hard bounce records the outcome, turns email off and says why in the profile', async () => {
    const { e, user, emailId } = await mailedUser()
    const before = Date.now()
    const res = await send(resendEvent('email.bounced', emailId, HARD))
    expect(res).toEqual({ status: 200, body: { message: 'Event recorded' } })
    expect((await emailDelivery(user.id))?.outcome).toBe('bounced')

    const profile = await profileOf(user)
    expect(profile.preferences.notificationChannels.email).toBe(false)
    expect(profile.channelStatus).toEqual({
      email: { blocked: true, reason: 'bounced', since: expect.any(String) },
    })
    expect(Date.parse(profile.channelStatus.email.since)).toBeGreaterThanOrEqual(before - 1000)
    expect(await nextRunMails(e, user)).toBe(false)
  })

  it('a complaint suppresses the address with its own reason', async () => {
    const { e, user, emailId } = await mailedUser()
    await send(resendEvent('email.delivered', emailId))
    expect((await emailDelivery(user.id))?.outcome).toBe('delivered')
    const res = await send(resendEvent('email.complained', emailId))
    expect(res.status).toBe(200)
    expect((await emailDelivery(user.id))?.outcome).toBe('complained')
    const profile = await profileOf(user)
    expect(profile.channelStatus.email).toMatchObject({ blocked: true, reason: 'complained' })
    expect(profile.preferences.notificationChannels.email).toBe(false)
    expect(await nextRunMails(e, user)).toBe(false)
  })

  it('a soft bounce and a delivery are recorded without suppressing', async () => {
    const { e, user, emailId } = await mailedUser()
    await send(resendEvent('email.bounced', emailId, SOFT))
    expect((await emailDelivery(user.id))?.outcome).toBe('bounced')
    const profile = await profileOf(user)
    expect(profile.channelStatus).toEqual({})
    expect(profile.preferences.notificationChannels.email).toBe(true)
    expect(await nextRunMails(e, user)).toBe(true)
  })

  it('turning email on again clears the block; a redelivered event changes nothing', async () => {
    const { user, emailId } = await mailedUser()
    const body = resendEvent('email.bounced', emailId, HARD)
    const id = 'msg_redelivered'
    await send(body, { id })
    const on = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: {
        preferences: { notificationChannels: { email: true, whatsapp: false, push: false } },
      },
    })
    expect(on.status).toBe(200)
    expect((await profileOf(user)).channelStatus).toEqual({})

    // Svix retries until acknowledged: the same message, signed afresh.
    const again = await send(body, { id })
    expect(again).toEqual({ status: 200, body: { message: 'Event already recorded' } })
    const profile = await profileOf(user)
    expect(profile.channelStatus).toEqual({})
    expect(profile.preferences.notificationChannels.email).toBe(true)
  })

  it('an unknown email id is acknowledged and changes nothing', async () => {
    const user = await recipient()
    const res = await send(resendEvent('email.bounced', 'not-an-email-we-sent', HARD))
    expect(res).toEqual({
      status: 200,
      body: { message: 'No delivery has that email id; nothing to do' },
    })
    expect((await profileOf(user)).channelStatus).toEqual({})
  })

  it('event types not acted on are acknowledged', async () => {
    const { user, emailId } = await mailedUser()
    const res = await send(resendEvent('email.opened', emailId))
    expect(res).toEqual({ status: 200, body: { message: 'Event type not acted on' } })
    expect((await emailDelivery(user.id))?.outcome).toBeNull()
  })
})

describe('the receiver refuses', () => {
  const refused = (message: string) => ({
    status: 401,
    body: { statusCode: 401, message, error: 'Unauthorized' },
  })

  it('an event signed with another secret, or changed after signing', async () => {
    const { user, emailId } = await mailedUser()
    const body = resendEvent('email.bounced', emailId, HARD)
    const other = `whsec_${btoa('another-secret-of-someone')}`
    expect(await send(body, { secret: other })).toEqual(
      refused('The event signature does not match'),
    )
    const headers = svixHeaders(body)
    const changed = body.replace('Permanent', 'Permanent ')
    expect(await postResendEvent(changed, headers)).toEqual(
      refused('The event signature does not match'),
    )
    expect((await emailDelivery(user.id))?.outcome).toBeNull()
    expect((await profileOf(user)).channelStatus).toEqual({})
  })

  it('an event without the signature headers', async () => {
    const res = await postResendEvent(resendEvent('email.delivered', 'x'), {})
    expect(res).toEqual(refused('Missing svix-id, svix-timestamp or svix-signature header'))
  })

  it('a replayed event whose timestamp is more than 5 minutes old', async () => {
    const { user, emailId } = await mailedUser()
    const body = resendEvent('email.complained', emailId)
    const res = await send(body, { at: new Date(Date.now() - 10 * MINUTE_MS) })
    expect(res).toEqual(refused('The event timestamp is more than 5 minutes away from now'))
    expect((await profileOf(user)).channelStatus).toEqual({})
  })

  it('everything with 503 while RESEND_WEBHOOK_SECRET is not set', async () => {
    const body = resendEvent('email.delivered', 'x')
    const res = await postResendEvent(body, svixHeaders(body), { configured: false })
    expect(res).toEqual({
      status: 503,
      body: {
        statusCode: 503,
        message: 'Resend webhooks are not configured: RESEND_WEBHOOK_SECRET is not set',
        error: 'Service Unavailable',
      },
    })
  })
})
