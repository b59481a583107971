// The delivery log: every attempt of a delivery recorded by the delivery code with the provider's
// answer in words (and an email's later bounce), bounded (a sentence, 8 attempts a delivery, no
// phone numbers), gone with its notification; shown by the API's history (deliveryStatus[].
// attempts, filtered by channel and status) and the history page, without JavaScript.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { MAX_LOGGED_ATTEMPTS } from '../src/notifications/attempt-log.ts'
import { cleanupNotifications } from '../src/notifications/cleanup.ts'
import { deleteUserNotificationStatements } from '../src/notifications/deletion.ts'
import { addContests, contest } from './helpers/contests.ts'
import { discordWebhook, scriptUnknownWebhook } from './helpers/discord.ts'
import { select, selectOne } from './helpers/html.ts'
import {
  attemptAt,
  consume,
  deliverQueued,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { uniquePhone } from './helpers/phone.ts'
import { postResendEvent, resendEvent, svixHeaders } from './helpers/resend-events.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, type TestUser } from './helpers/users.ts'
import { expectPage, signedInBrowser } from './helpers/web-app.ts'

beforeEach(resetNotifications)

const SEND_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/sendMessage`
const LOCAL: Partial<Env> = { ...PROVIDERS, ALLOW_LOCAL_TARGETS: 'true' }

let chatSeq = 0
/** A reminder recipient on Telegram only (the chat as the linking flow leaves it). */
async function telegramUser() {
  const user = await recipient({ channels: { email: false } })
  await env.DB.prepare('UPDATE users SET telegram_chat_id = ?1, notify_telegram = 1 WHERE id = ?2')
    .bind(String(8_000_000 + ++chatSeq), user.id)
    .run()
  return user
}

const history = async (user: TestUser, query = '') =>
  (await api('GET', `/notifications/notifications${query}`, { token: user.accessToken })).body

const deliveryOf = async (user: TestUser, channel: string) =>
  (await history(user)).notifications[0].deliveryStatus.find(
    (d: { channel: string }) => d.channel === channel,
  )

const loggedRows = async (userId: string) =>
  (
    await env.DB.prepare(
      `SELECT a.* FROM delivery_attempts a JOIN notifications n ON n.id = a.notification_id
       WHERE n.user_id = ? ORDER BY a.id`,
    )
      .bind(userId)
      .all<Record<string, unknown>>()
  ).results

/** One reminder for `user`, made by the scheduler; its queue messages handed back. */
async function oneReminder(e: ReturnType<typeof testEnv>) {
  await addContests([contest(3)])
  await runScheduler(e)
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  e.NOTIFICATIONS_QUEUE.delays.splice(0)
  return bodies
}

describe('each attempt is logged with the provider’s answer in words', () => {
  it('a 429 then a delivery: two lines, in order, and the status says how it ended', async () => {
    const e = testEnv()
    const user = await telegramUser()
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        {
          status: 429,
          body: {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 120',
            parameters: { retry_after: 120 },
          },
        },
        { status: 200, body: { ok: true, result: { message_id: 77 } } },
      ],
    })
    const [message] = await oneReminder(e)
    const [first] = await consume(e, [{ body: message, attempts: 1 }])
    expect(first).toMatchObject({ retried: true })
    const later = Date.now() + 121_000
    expect(await attemptAt(e, message, later)).toEqual([{ kind: 'sent' }])
    const telegram = await deliveryOf(user, 'telegram')
    expect(telegram).toMatchObject({ status: 'SENT', retryCount: 1 })
    expect(telegram.attempts).toEqual([
      {
        at: expect.any(String),
        outcome: 'temporary_failure',
        message: 'Telegram: Telegram asked to wait before the next message',
      },
      { at: new Date(later).toISOString(), outcome: 'delivered', message: 'Telegram: delivered' },
    ])
    expect(Date.parse(telegram.attempts[0].at)).toBeLessThan(later)
  })

  it('a delivery the queue gave up on ends with a line saying so, once', async () => {
    const e = testEnv()
    const user = await telegramUser()
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [{ status: 502, body: 'Bad Gateway' }],
    })
    const [message] = await oneReminder(e)
    await consume(e, [{ body: message, attempts: 1 }])
    // The dead-letter queue takes it, and takes it again (a redelivered dead letter).
    await consume(e, [{ body: message, attempts: 1 }], 'notifications-dlq')
    await consume(e, [{ body: message, attempts: 1 }], 'notifications-dlq')
    const telegram = await deliveryOf(user, 'telegram')
    expect(telegram.status).toBe('FAILED')
    expect(telegram.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'temporary_failure',
      'given_up',
    ])
    expect(telegram.attempts[1].message).toBe(
      'Telegram: not sent, the retries ran out after 1 attempt',
    )
  })

  it('a deleted Discord webhook and a delivered email, one line per channel', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: true } })
    const webhook = discordWebhook()
    const set = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { preferences: { discordWebhookUrl: webhook.url } },
      bindings: LOCAL,
    })
    expect(set.status).toBe(200)
    await scriptUnknownWebhook(webhook.path)
    await addContests([contest(3)])
    await runScheduler(e)
    await deliverQueued(e)
    const [n] = (await history(user)).notifications
    const lines = Object.fromEntries(
      n.deliveryStatus.map((d: any) => [d.channel, d.attempts.map((a: any) => a.message)]),
    )
    expect(lines).toEqual({
      email: ['Email: accepted by Resend for delivery'],
      discord: ['Discord: the webhook was deleted'],
    })
    const discord = n.deliveryStatus.find((d: any) => d.channel === 'discord')
    expect(discord.attempts[0].outcome).toBe('destination_gone')
    // The log says it in words; the error keeps the provider's own answer, as before.
    expect(discord.error).toBe('Discord answered 404 (code 10015): Unknown Webhook')
  })

  it('an email’s bounce, reported later by Resend, is a line of its own', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: true } })
    await oneReminder(e).then((bodies) =>
      consume(
        e,
        bodies.map((body) => ({ body, attempts: 1 })),
      ),
    )
    const { id } = (await env.DB.prepare(
      `SELECT d.provider_message_id AS id FROM notification_deliveries d
       JOIN notifications n ON n.id = d.notification_id WHERE n.user_id = ?`,
    )
      .bind(user.id)
      .first<{ id: string }>())!
    const body = resendEvent('email.bounced', id, { type: 'Permanent', subType: 'General' })
    expect((await postResendEvent(body, svixHeaders(body))).status).toBe(200)
    const email = await deliveryOf(user, 'email')
    expect(email.attempts.map((a: any) => [a.outcome, a.message])).toEqual([
      ['delivered', 'Email: accepted by Resend for delivery'],
      ['destination_gone', 'Email: the address bounced'],
    ])
    // The same event again (Svix retries) adds nothing.
    await postResendEvent(body, svixHeaders(body))
    expect((await deliveryOf(user, 'email')).attempts).toHaveLength(2)
  })
})

describe('bounds', () => {
  it('keeps no phone number and no more than a sentence of a provider’s answer', async () => {
    const e = testEnv()
    const phoneNumber = uniquePhone()
    const user = await recipient({ phoneNumber, channels: { whatsapp: true } })
    const digits = phoneNumber.replace('+', '')
    await standIn.script({
      method: 'POST',
      pathPrefix: '/whatsapp/',
      responses: [
        {
          status: 400,
          body: {
            error: {
              code: 131009,
              message: `Parameter value is not valid for ${phoneNumber} ${'x'.repeat(400)}`,
            },
          },
        },
      ],
    })
    await oneReminder(e).then((bodies) =>
      consume(
        e,
        bodies.map((body) => ({ body, attempts: 1 })),
      ),
    )
    const [line] = (await deliveryOf(user, 'whatsapp')).attempts
    expect(line.outcome).toBe('refused')
    expect(line.message).toMatch(/^WhatsApp: not sent \(WhatsApp answered 400 \(code 131009\)/)
    expect(line.message).toContain(`…${digits.slice(-2)}`)
    expect(line.message).not.toContain(digits.slice(0, 8))
    expect(line.message.length).toBeLessThanOrEqual(240)
  })

  it(`logs at most ${MAX_LOGGED_ATTEMPTS} attempts of a delivery`, async () => {
    const e = testEnv()
    const user = await telegramUser()
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [{ status: 502, body: { ok: false, description: 'Bad Gateway' } }],
    })
    const [message] = await oneReminder(e)
    await attemptAt(e, message, Date.now())
    // Attempts past the log's bound, as many retries would leave it (manual ones add up).
    await env.DB.prepare(
      `UPDATE notification_deliveries SET attempts = ?1, retry_count = 0
       WHERE notification_id IN (SELECT id FROM notifications WHERE user_id = ?2)`,
    )
      .bind(MAX_LOGGED_ATTEMPTS - 1, user.id)
      .run()
    await attemptAt(e, message, Date.now() + 61_000)
    expect(await loggedRows(user.id)).toHaveLength(2)
    await attemptAt(e, message, Date.now() + 400_000)
    const rows = await loggedRows(user.id)
    expect(rows).toHaveLength(2)
    expect(rows.map((r) => r.message)).toEqual([
      'Telegram: Telegram is having trouble',
      'Telegram: Telegram is having trouble',
    ])
    // The delivery went on: only its log stopped.
    expect(await standIn.requests(SEND_PATH)).toHaveLength(3)
  })

  it('goes with its notification: cleanup and account deletion remove the lines', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: true } })
    const other = await recipient({ channels: { email: true } })
    await addContests([contest(3), contest(5)])
    await runScheduler(e)
    await deliverQueued(e)
    expect((await loggedRows(user.id)).length).toBe(2)
    expect((await loggedRows(other.id)).length).toBe(2)
    await cleanupNotifications(env.DB, Date.now() + 1000, user.id)
    expect(await loggedRows(user.id)).toEqual([])
    const db = createDb(env.DB)
    await db.batch(deleteUserNotificationStatements(db, other.id))
    expect(await loggedRows(other.id)).toEqual([])
    const { n } = (await env.DB.prepare('SELECT count(*) AS n FROM delivery_attempts').first<{
      n: number
    }>())!
    expect(n).toBe(0)
  })
})

describe('filters and the history page', () => {
  /** Two reminders: one delivered by email and Telegram, one whose Telegram send failed. */
  async function mixed() {
    const e = testEnv()
    const user = await telegramUser()
    await env.DB.prepare('UPDATE users SET notify_email = 1 WHERE id = ?').bind(user.id).run()
    await addContests([contest(3)])
    await runScheduler(e)
    await deliverQueued(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        {
          status: 403,
          body: {
            ok: false,
            error_code: 403,
            description: 'Forbidden: bot was blocked by the user',
          },
        },
      ],
    })
    await addContests([contest(5)])
    await runScheduler(e)
    await deliverQueued(e)
    return { user, e }
  }

  it('filters the API’s history by channel, and by that channel’s status', async () => {
    const { user } = await mixed()
    expect((await history(user)).pagination.total).toBe(2)
    expect((await history(user, '?channel=telegram')).pagination.total).toBe(2)
    const failed = await history(user, '?channel=telegram&status=FAILED')
    expect(failed.pagination.total).toBe(1)
    const telegram = failed.notifications[0].deliveryStatus.find(
      (d: any) => d.channel === 'telegram',
    )
    expect(telegram.attempts.map((a: any) => a.message)).toEqual([
      'Telegram: the bot was blocked in this chat',
    ])
    // The notification itself was sent (by email): the channel's status is what was asked.
    expect(failed.notifications[0].status).toBe('SENT')
    expect((await history(user, '?channel=email&status=FAILED')).pagination.total).toBe(0)
    expect((await history(user, '?channel=slack')).pagination.total).toBe(0)
    const bad = await api('GET', '/notifications/notifications?channel=pigeon', {
      token: user.accessToken,
    })
    expect(bad.status).toBe(400)
  })

  it('shows each channel’s attempts and the time from due to sent, filtered by a plain form', async () => {
    const { user } = await mixed()
    const browser = await signedInBrowser(user, LOCAL)
    const page = await browser.get('/app/history?channel=telegram&status=FAILED')
    expectPage(page, 200)
    expect((await selectOne(page.html, '#count')).text).toBe('1 matching notification')
    // The filter form is a GET form: the page works without its script.
    const form = await selectOne(page.html, 'form#history-filters')
    expect(form.attrs.method).toBe('get')
    const channel = await selectOne(page.html, 'select#channel option[selected]')
    expect(channel.attrs.value).toBe('telegram')
    const lines = await select(page.html, 'li[data-channel="telegram"] ol.attempts li')
    expect(lines.map((l) => l.text)).toEqual([
      expect.stringMatching(/Telegram: the bot was blocked in this chat$/),
    ])
    expect(lines[0].attrs['data-outcome']).toBe('destination_gone')

    const all = await browser.get('/app/history')
    const email = await select(all.html, 'li[data-channel="email"]')
    expect(email).toHaveLength(2)
    for (const li of email) {
      expect(li.text).toMatch(/Sent, (under a second|\d+ s|\d+ min( \d+ s)?) after it was due/)
      expect(li.text).toContain('Email: accepted by Resend for delivery')
    }
  })
})
