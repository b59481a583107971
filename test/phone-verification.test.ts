// Phone verification over WhatsApp: the authentication template on the wire, codes bound to the
// user and the number, send limits, and WhatsApp reminders only for verified numbers.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  notificationsOf,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
  whatsappRequests,
} from './helpers/notifications.ts'
import { lastOutboxCode, uniquePhone, verifyPhone, WHATSAPP_OUTBOX } from './helpers/phone.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, nextIp, rememberSecret, type TestUser } from './helpers/users.ts'

beforeEach(resetNotifications)

const digitsOf = (phone: string) => phone.replace(/\D/g, '')

async function withPhone(phoneNumber = uniquePhone()) {
  const user = await createUser()
  const res = await api('PUT', '/users/profile', { token: user.accessToken, body: { phoneNumber } })
  expect(res.status).toBe(200)
  return { user, phoneNumber }
}

const sendCode = (user: TestUser, bindings: Partial<Env> = PROVIDERS) =>
  api('POST', '/users/phone/verification', { token: user.accessToken, bindings })

const checkCode = (user: TestUser, code: string) =>
  api('POST', '/users/phone/verify', { token: user.accessToken, body: { code } })

/** Verification messages the WhatsApp stand-in received for `phone`, oldest first. */
async function codeMessagesTo(phone: string) {
  const sent = await whatsappRequests()
  return sent.filter(
    (r) => r.body.template?.name === 'verification_code' && r.body.to === digitsOf(phone),
  )
}

/** The code of the newest verification message to `phone`; remembered as a secret. */
async function lastCodeTo(phone: string): Promise<string> {
  const messages = await codeMessagesTo(phone)
  expect(messages.length, `no verification code was sent to ${phone}`).toBeGreaterThan(0)
  const code = messages.at(-1)!.body.template.components[0].parameters[0].text as string
  rememberSecret(code)
  return code
}

async function phoneVerified(user: TestUser): Promise<boolean> {
  const res = await api('GET', '/users/profile', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body.phoneVerified
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

/** Counts `times` earlier sends against a limiter window, `ago` milliseconds back. */
async function spend(key: string, limit: number, windowMs: number, times: number, ago: number) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key))
  for (let i = 0; i < times; i++) await stub.hit(limit, windowMs, Date.now() - ago)
}

describe('WhatsApp reminders', () => {
  it('are not sent to a number that was never verified', async () => {
    const e = testEnv()
    const user = await recipient({
      channels: { email: true, whatsapp: true },
      phoneNumber: uniquePhone(),
      phoneVerified: false,
    })
    await addContests([contest(3)])
    await runScheduler(e)
    await deliverQueued(e)
    const [reminder] = await notificationsOf(user.id)
    expect(reminder.channels).toEqual(['email'])
    expect(await whatsappRequests()).toEqual([])
  })

  it('go over WhatsApp once the number is verified with the code sent to it', async () => {
    const e = testEnv()
    const phoneNumber = uniquePhone()
    const user = await recipient({
      channels: { email: true, whatsapp: true },
      phoneNumber,
      phoneVerified: false,
    })
    expect((await sendCode(user)).status).toBe(200)
    expect((await checkCode(user, await lastCodeTo(phoneNumber))).status).toBe(200)
    await addContests([contest(3, { name: 'Verified Round 7' })])
    await runScheduler(e)
    const results = await deliverQueued(e)
    expect(results.every((r) => r.acked)).toBe(true)
    const [reminder] = await notificationsOf(user.id)
    expect(reminder.channels).toEqual(['email', 'whatsapp'])
    const alerts = (await whatsappRequests()).filter(
      (r) => r.body.template.name === 'contest_alert',
    )
    expect(alerts).toHaveLength(1)
    expect(alerts[0].body.to).toBe(digitsOf(phoneNumber))
    expect(alerts[0].body.template.components[0].parameters[0].text).toContain('Verified Round 7')
    expect(reminder.deliveries.map((d: any) => [d.channel, d.status])).toEqual([
      ['email', 'SENT'],
      ['whatsapp', 'SENT'],
    ])
  })

  it('are not sent when the number changed after the reminder was queued', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { whatsapp: true }, phoneNumber: uniquePhone() })
    await addContests([contest(3)])
    await runScheduler(e)
    const changed = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { phoneNumber: uniquePhone() },
    })
    expect(changed.status).toBe(200)
    await deliverQueued(e)
    const [reminder] = await notificationsOf(user.id)
    expect(reminder.deliveries).toMatchObject([
      { channel: 'whatsapp', status: 'FAILED', error: 'The phone number is not verified' },
    ])
    expect(await whatsappRequests()).toEqual([])
  })
})

describe('POST /users/phone/verification', () => {
  it('sends a 6-digit code with the authentication template: body and copy-code button', async () => {
    const { user, phoneNumber } = await withPhone('+44 (20) 7946-0123')
    const before = Date.now()
    const res = await sendCode(user)
    expect(res.status).toBe(200)
    const [request] = await whatsappRequests()
    expect(request.path).toBe('/whatsapp/1098765/messages')
    expect(request.headers.authorization).toBe('Bearer wa-test-token')
    const code = request.body.template.components[0].parameters[0].text
    expect(code).toMatch(/^\d{6}$/)
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: digitsOf(phoneNumber),
      type: 'template',
      template: {
        name: 'verification_code',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: code }] },
          {
            type: 'button',
            sub_type: 'url',
            index: '0',
            parameters: [{ type: 'text', text: code }],
          },
        ],
      },
    })
    expect(res.body).toEqual({
      message: 'A verification code was sent to your phone number over WhatsApp',
      expiresAt: expect.any(String),
    })
    expect(JSON.stringify(res.body)).not.toContain(code)
    const expiresIn = Date.parse(res.body.expiresAt) - before
    expect(expiresIn).toBeGreaterThan(9 * MINUTE_MS)
    expect(expiresIn).toBeLessThanOrEqual(10 * MINUTE_MS + 5_000)
    expect(await phoneVerified(user)).toBe(false)
  })

  it('uses the template named by WHATSAPP_AUTH_TEMPLATE_NAME', async () => {
    const { user } = await withPhone()
    const res = await sendCode(user, { ...PROVIDERS, WHATSAPP_AUTH_TEMPLATE_NAME: 'otp_copy' })
    expect(res.status).toBe(200)
    const [request] = await whatsappRequests()
    expect(request.body.template.name).toBe('otp_copy')
  })

  it('answers 503 and sends nothing when WhatsApp is not configured', async () => {
    const { user } = await withPhone()
    const res = await sendCode(user, { WHATSAPP_TOKEN: '' })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'WhatsApp delivery is not configured; no code was sent',
      error: 'Service Unavailable',
    })
    expect(await whatsappRequests()).toEqual([])
  })

  it('puts the code in the dev outbox when DEV_OUTBOX is on and WhatsApp is not configured', async () => {
    const { user, phoneNumber } = await withPhone()
    expect((await sendCode(user, WHATSAPP_OUTBOX)).status).toBe(200)
    expect(await whatsappRequests()).toEqual([])
    const code = await lastOutboxCode(phoneNumber)
    expect((await checkCode(user, code)).status).toBe(200)
    expect(await phoneVerified(user)).toBe(true)
  })

  it('answers 502 when WhatsApp refuses the message', async () => {
    const { user } = await withPhone()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [{ status: 400, body: { error: { code: 132001, message: 'template missing' } } }],
    })
    const res = await sendCode(user)
    expect(res.status).toBe(502)
    expect(res.body.message).toBe('The WhatsApp message could not be sent; try again later')
  })

  it('answers 400 without a number or with one WhatsApp cannot reach, 409 once verified', async () => {
    const bare = await createUser()
    const none = await sendCode(bare)
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('The account has no phone number; add one to the profile first')

    const { user: odd } = await withPhone('call me maybe')
    const unreachable = await sendCode(odd)
    expect(unreachable.status).toBe(400)
    expect(unreachable.body.message).toBe('The phone number cannot receive WhatsApp messages')
    expect(await whatsappRequests()).toEqual([])

    const { user, phoneNumber } = await withPhone()
    await verifyPhone(user, phoneNumber)
    const again = await sendCode(user)
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('The phone number is already verified')
    expect(await whatsappRequests()).toEqual([])
  })

  it('answers 401 without a token', async () => {
    const res = await api('POST', '/users/phone/verification', { bindings: PROVIDERS })
    expect(res.status).toBe(401)
  })
})

describe('send limits', () => {
  it('allow 3 codes an hour per user, then answer 429 with Retry-After', async () => {
    const { user, phoneNumber } = await withPhone()
    for (let i = 0; i < 3; i++) expect((await sendCode(user)).status).toBe(200)
    const res = await sendCode(user)
    expect(res.status).toBe(429)
    expect(res.body).toEqual({
      statusCode: 429,
      message: 'Too Many Requests',
      error: 'Too Many Requests',
    })
    const retryAfter = Number(res.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    // Rounded up to whole seconds, never early.
    expect(retryAfter).toBeLessThanOrEqual(3601)
    expect(await codeMessagesTo(phoneNumber)).toHaveLength(3)
  })

  it('allow 3 codes an hour per number, whichever accounts ask', async () => {
    const phoneNumber = uniquePhone()
    for (let i = 0; i < 3; i++) {
      const { user } = await withPhone(phoneNumber)
      expect((await sendCode(user)).status).toBe(200)
    }
    // Written differently, still the same number.
    const { user } = await withPhone(`+${digitsOf(phoneNumber)}`.replace(/^(\+\d)/, '$1 '))
    const res = await sendCode(user)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await codeMessagesTo(phoneNumber)).toHaveLength(3)
  })

  it('allow 5 codes a day per user and per number', async () => {
    const { user, phoneNumber } = await withPhone()
    await spend(`phone-code-send-daily:user:${user.id}`, 5, DAY_MS, 5, 2 * HOUR_MS)
    const byUser = await sendCode(user)
    expect(byUser.status).toBe(429)
    expect(Number(byUser.headers.get('Retry-After'))).toBeGreaterThan(21 * 3600)

    const { user: other } = await withPhone(phoneNumber)
    const digits = digitsOf(phoneNumber)
    await spend(`phone-code-send-number-daily:phone:${digits}`, 5, DAY_MS, 5, 2 * HOUR_MS)
    const byNumber = await sendCode(other)
    expect(byNumber.status).toBe(429)
    expect(Number(byNumber.headers.get('Retry-After'))).toBeGreaterThan(21 * 3600)
    expect(await codeMessagesTo(phoneNumber)).toEqual([])
  })
})

describe('POST /users/phone/verify', () => {
  it('verifies the number with the right code, which works only once', async () => {
    const { user, phoneNumber } = await withPhone()
    await sendCode(user)
    const code = await lastCodeTo(phoneNumber)
    const res = await checkCode(user, code)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      message: 'Phone number verified successfully',
      phoneNumber,
      phoneVerified: true,
    })
    expect(await phoneVerified(user)).toBe(true)
    const again = await checkCode(user, code)
    expect(again.status).toBe(400)
    expect(again.body.message).toBe('Invalid or expired code')
  })

  it('refuses a wrong code, and after 3 wrong attempts the right one too', async () => {
    const { user, phoneNumber } = await withPhone()
    await sendCode(user)
    const code = await lastCodeTo(phoneNumber)
    for (let i = 0; i < 3; i++) {
      const wrong = await checkCode(user, wrongCode(code))
      expect(wrong.status).toBe(400)
      expect(wrong.body).toEqual({
        statusCode: 400,
        message: 'Invalid or expired code',
        error: 'Bad Request',
      })
    }
    expect((await checkCode(user, code)).status).toBe(400)
    expect(await phoneVerified(user)).toBe(false)
  })

  it('caps wrong codes across fresh codes for the day, not only per code', async () => {
    const { user, phoneNumber } = await withPhone()
    const ip = nextIp()
    const check = (code: string) =>
      api('POST', '/users/phone/verify', { token: user.accessToken, ip, body: { code } })
    await sendCode(user)
    const first = await lastCodeTo(phoneNumber)
    for (let i = 0; i < 3; i++) expect((await check(wrongCode(first))).status).toBe(400)
    await sendCode(user)
    const second = await lastCodeTo(phoneNumber)
    for (let i = 0; i < 2; i++) expect((await check(wrongCode(second))).status).toBe(400)
    // The sixth failure from this client is refused for the rest of the day, right code or not.
    const refused = await check(second)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3600)
    expect(await phoneVerified(user)).toBe(false)
  })

  it('does not verify a new number with the code sent to the old one', async () => {
    const { user, phoneNumber } = await withPhone()
    await sendCode(user)
    const code = await lastCodeTo(phoneNumber)
    const changed = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { phoneNumber: uniquePhone() },
    })
    expect(changed.status).toBe(200)
    const res = await checkCode(user, code)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Invalid or expired code')
    expect(await phoneVerified(user)).toBe(false)
  })

  it('does not accept a code sent to another account, even for the same number', async () => {
    const phoneNumber = uniquePhone()
    const { user: first } = await withPhone(phoneNumber)
    const { user: second } = await withPhone(phoneNumber)
    await sendCode(first)
    const res = await checkCode(second, await lastCodeTo(phoneNumber))
    expect(res.status).toBe(400)
    expect(await phoneVerified(second)).toBe(false)
  })

  it('refuses malformed codes and unknown keys', async () => {
    const { user } = await withPhone()
    const short = await checkCode(user, '12345')
    expect(short.status).toBe(400)
    expect(short.body.message).toEqual(['code must be a 6-digit string'])
    const extra = await api('POST', '/users/phone/verify', {
      token: user.accessToken,
      body: { code: '123456', phoneNumber: '+15550100' },
    })
    expect(extra.status).toBe(400)
    expect(extra.body.message).toEqual(['property phoneNumber should not exist'])
  })
})

describe('OpenAPI document', () => {
  it('lists both endpoints with bearer security', async () => {
    const { body } = await api('GET', '/openapi.json')
    for (const path of ['/users/phone/verification', '/users/phone/verify']) {
      expect(body.paths[path].post.security).toEqual([{ bearerAuth: [] }])
    }
  })
})

describe('changing the number', () => {
  it('drops the verification; sending the same number again keeps it', async () => {
    const { user, phoneNumber } = await withPhone()
    await verifyPhone(user, phoneNumber)
    expect(await phoneVerified(user)).toBe(true)

    const same = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { phoneNumber },
    })
    expect(same.status).toBe(200)
    expect(await phoneVerified(user)).toBe(true)

    const other = uniquePhone()
    await api('PUT', '/users/profile', { token: user.accessToken, body: { phoneNumber: other } })
    expect(await phoneVerified(user)).toBe(false)
    const row = await env.DB.prepare(
      'SELECT phone_verified_at AS at, phone_verified_number AS number FROM users WHERE id = ?',
    )
      .bind(user.id)
      .first()
    expect(row).toEqual({ at: null, number: null })

    // Going back to the first number needs a new code too.
    await api('PUT', '/users/profile', { token: user.accessToken, body: { phoneNumber } })
    expect(await phoneVerified(user)).toBe(false)
  })

  it('drops the verification when the number is removed', async () => {
    const { user, phoneNumber } = await withPhone()
    await verifyPhone(user, phoneNumber)
    await api('PUT', '/users/profile', { token: user.accessToken, body: { phoneNumber: null } })
    const profile = await api('GET', '/users/profile', { token: user.accessToken })
    expect(profile.body.phoneNumber).toBeUndefined()
    expect(profile.body.phoneVerified).toBe(false)
  })
})
