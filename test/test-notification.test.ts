// POST /users/test-notification and the settings page's test buttons: a real message through the
// user's own destination by the channel's own send code, against the stand-ins in their wire
// formats; the provider's answer in words; 3 an hour per channel (429 with Retry-After after);
// 400 with nowhere to send, 409 when the channel is off here, and nothing sent either way.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { discordPosts, discordWebhook, scriptUnknownWebhook } from './helpers/discord.ts'
import { selectOne } from './helpers/html.ts'
import { PROVIDERS, recipient, resetNotifications } from './helpers/notifications.ts'
import { uniquePhone } from './helpers/phone.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, type TestUser } from './helpers/users.ts'
import { expectPage, signedInBrowser } from './helpers/web-app.ts'

beforeEach(resetNotifications)

// Every provider at the stand-in, which is a loopback address (a local run's ALLOW_LOCAL_TARGETS).
const BINDINGS: Partial<Env> = { ...PROVIDERS, ALLOW_LOCAL_TARGETS: 'true' }

const testSend = (user: TestUser, body: unknown, bindings: Partial<Env> = BINDINGS) =>
  api('POST', '/users/test-notification', { token: user.accessToken, body, bindings })

let chatSeq = 0
/** Links a Telegram chat as the linking flow leaves it (users.telegram_chat_id). */
async function linkTelegram(user: TestUser) {
  const chatId = String(7_000_000 + ++chatSeq * 13 + Math.floor(Math.random() * 1000))
  await env.DB.prepare('UPDATE users SET telegram_chat_id = ?1 WHERE id = ?2')
    .bind(chatId, user.id)
    .run()
  return chatId
}

const telegramSends = async () =>
  (await standIn.requests('/telegram/bot')).filter((r) => r.path.endsWith('/sendMessage'))

async function discordUser() {
  const user = await recipient()
  const webhook = discordWebhook()
  const set = await api('PUT', '/users/profile', {
    token: user.accessToken,
    body: { preferences: { discordWebhookUrl: webhook.url } },
    bindings: BINDINGS,
  })
  expect(set.status, JSON.stringify(set.body)).toBe(200)
  return { user, webhook }
}

describe('a test send', () => {
  it('goes once to the linked Telegram chat and answers "Telegram: delivered"', async () => {
    const user = await recipient()
    const chatId = await linkTelegram(user)
    const res = await testSend(user, { channel: 'telegram' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({
      channel: 'telegram',
      outcome: 'delivered',
      message: 'Telegram: delivered',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const sends = await telegramSends()
    expect(sends).toHaveLength(1)
    const sent = JSON.parse(sends[0].body)
    expect(sent.chat_id).toBe(chatId)
    expect(sent.text).toContain('This is a test message from Contest Alerts')
    // The channel's own rendering: Bot API HTML, as a reminder is sent.
    expect(sent.parse_mode).toBe('HTML')
  })

  it('sends an email to the account’s address, whether or not email alerts are on', async () => {
    const user = await recipient({ channels: { email: false } })
    const before = (await standIn.emails()).length
    const res = await testSend(user, { channel: 'email' })
    expect(res.body).toMatchObject({ channel: 'email', outcome: 'delivered' })
    expect(res.body.message).toBe('Email: accepted by Resend for delivery')
    const emails = (await standIn.emails()).slice(before)
    expect(emails.map((e) => e.to)).toEqual([[user.email]])
    expect(emails[0].subject).toBe('Contest Alerts test message')
  })

  it('says a deleted Discord webhook in words, and forgets it as a delivery would', async () => {
    const { user, webhook } = await discordUser()
    await scriptUnknownWebhook(webhook.path)
    const res = await testSend(user, { channel: 'discord' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      channel: 'discord',
      outcome: 'destination_gone',
      message: 'Discord: the webhook was deleted',
    })
    expect(await discordPosts(webhook.path)).toHaveLength(1)
    // The same send code as a reminder's: the dead webhook is forgotten with its block.
    const profile = await api('GET', '/users/profile', { token: user.accessToken })
    expect(profile.body.discord).toEqual({ webhookSet: false, maskedWebhookUrl: null })
    expect(profile.body.channelStatus.discord).toMatchObject({ reason: 'webhook-unknown' })
  })

  it('says "WhatsApp: the number is not on WhatsApp" for the Cloud API’s 131026', async () => {
    const phoneNumber = uniquePhone()
    const user = await recipient({ phoneNumber })
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [
        {
          status: 400,
          body: {
            error: {
              message: `(#131026) Message undeliverable to ${phoneNumber.replace('+', '')}`,
              type: 'OAuthException',
              code: 131026,
            },
          },
        },
      ],
    })
    const res = await testSend(user, { channel: 'whatsapp' })
    expect(res.body).toMatchObject({
      channel: 'whatsapp',
      outcome: 'refused',
      message: 'WhatsApp: the number is not on WhatsApp',
    })
    const sent = await standIn.requests('/whatsapp/')
    expect(sent).toHaveLength(1)
    expect(JSON.parse(sent[0].body).to).toBe(phoneNumber.replace('+', ''))
  })

  it('says a refused address in words, without the provider’s whole answer', async () => {
    const user = await recipient()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [
        {
          status: 422,
          body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
        },
      ],
    })
    const res = await testSend(user, { channel: 'email' })
    expect(res.body).toMatchObject({
      outcome: 'refused',
      message: 'Email: the address was refused',
    })
  })

  it('names the failure’s kind with the answer when the provider’s words are unknown', async () => {
    const user = await recipient()
    await linkTelegram(user)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/telegram/bot',
      responses: [{ status: 502, body: { ok: false, description: 'Bad Gateway' } }],
    })
    const res = await testSend(user, { channel: 'telegram' })
    expect(res.body).toMatchObject({
      outcome: 'temporary_failure',
      message: 'Telegram: Telegram is having trouble',
    })
  })
})

describe('limits', () => {
  it('allows 3 an hour per channel: the 4th is 429 with Retry-After; other channels go on', async () => {
    const user = await recipient()
    await linkTelegram(user)
    for (let i = 0; i < 3; i++) {
      const res = await testSend(user, { channel: 'telegram' })
      expect(res.status).toBe(200)
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3')
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(2 - i))
    }
    const fourth = await testSend(user, { channel: 'telegram' })
    expect(fourth.status).toBe(429)
    expect(fourth.body).toEqual({
      statusCode: 429,
      message: 'Too Many Requests',
      error: 'Too Many Requests',
    })
    expect(Number(fourth.headers.get('Retry-After'))).toBeGreaterThan(3000)
    expect(fourth.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect(Number(fourth.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000)
    expect(await telegramSends()).toHaveLength(3)
    // Email has its own counter.
    expect((await testSend(user, { channel: 'email' })).status).toBe(200)
  })

  it('gives a refused request its place back: nothing was sent', async () => {
    const user = await recipient()
    for (let i = 0; i < 4; i++) {
      expect((await testSend(user, { channel: 'telegram' })).status).toBe(400)
    }
    await linkTelegram(user)
    const res = await testSend(user, { channel: 'telegram' })
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('2')
  })
})

describe('refusals', () => {
  it('is 400 when the account has nowhere on the channel to send to, and sends nothing', async () => {
    const user = await recipient()
    await standIn.reset()
    const cases = [
      ['telegram', 'The account has no linked Telegram chat'],
      ['discord', 'The account has no Discord webhook'],
      ['slack', 'The account has no Slack webhook'],
      ['whatsapp', 'The account has no phone number'],
      ['push', 'No browser is subscribed to push notifications: turn push on in one first'],
    ] as const
    for (const [channel, message] of cases) {
      const res = await testSend(user, { channel })
      expect(res.status, channel).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' })
    }
    expect(await standIn.requests('/')).toEqual([])
  })

  it('is 400 for a number that is not verified', async () => {
    const user = await recipient({ phoneNumber: uniquePhone(), phoneVerified: false })
    const res = await testSend(user, { channel: 'whatsapp' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('The phone number is not verified')
  })

  it('is 409 when the channel is off on this server, with no pretend success', async () => {
    const { user, webhook } = await discordUser()
    const res = await testSend(
      user,
      { channel: 'discord' },
      { ...BINDINGS, DISCORD_ENABLED: 'false' },
    )
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      statusCode: 409,
      message: 'Discord is not available on this server',
      error: 'Conflict',
    })
    const status = await api('GET', '/notifications/status', {
      token: user.accessToken,
      bindings: { DISCORD_ENABLED: 'false' },
    })
    expect(status.body.discord.enabled).toBe(false)
    expect(await discordPosts(webhook.path)).toEqual([])
  })

  it('takes only {channel}, one of the channels, and a signed-in caller', async () => {
    const user = await recipient()
    await standIn.reset()
    const unknownKey = await testSend(user, { channel: 'email', to: 'someone@example.test' })
    expect(unknownKey.status).toBe(400)
    const unknownChannel = await testSend(user, { channel: 'pigeon' })
    expect(unknownChannel.status).toBe(400)
    expect(unknownChannel.body.message).toEqual([
      'channel must be one of the following values: email, whatsapp, push, telegram, discord, slack',
    ])
    const anonymous = await api('POST', '/users/test-notification', { body: { channel: 'email' } })
    expect(anonymous.status).toBe(401)
    expect(await standIn.emails()).toEqual([])
  })
})

describe('the settings page’s test buttons', () => {
  it('shows a button per channel with a destination, and answers with the provider’s words', async () => {
    const user = await recipient()
    await linkTelegram(user)
    const browser = await signedInBrowser(user, BINDINGS)
    const page = await browser.get('/app/settings')
    expectPage(page, 200)
    const form = await selectOne(page.html, 'form[action="/app/settings/test/telegram"]')
    expect(form.text).toContain('Send a test by Telegram')
    // Nowhere to send on Discord: no button that could only be refused.
    expect(page.html).not.toContain('/app/settings/test/discord')
    const answer = await browser.post('/app/settings/test/telegram', {}, { csrf: page.csrf })
    expectPage(answer, 200)
    expect((await selectOne(answer.html, '#channels #notice')).text).toBe(
      'Test result: Telegram: delivered.',
    )
    expect(await telegramSends()).toHaveLength(1)
  })

  it('shares the API’s counter, and says a refusal on the page with its status', async () => {
    const user = await recipient()
    await linkTelegram(user)
    for (let i = 0; i < 3; i++)
      expect((await testSend(user, { channel: 'telegram' })).status).toBe(200)
    const browser = await signedInBrowser(user, BINDINGS)
    const page = await browser.get('/app/settings')
    const refused = await browser.post('/app/settings/test/telegram', {}, { csrf: page.csrf })
    expect(refused.status).toBe(429)
    const none = await browser.post('/app/settings/test/slack', {}, { csrf: page.csrf })
    expectPage(none, 400)
    expect((await selectOne(none.html, '#channels #notice')).text).toBe(
      'Test not sent: The account has no Slack webhook',
    )
    expect(await telegramSends()).toHaveLength(3)
  })
})
