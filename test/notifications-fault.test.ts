// Fault injection: with the providers failing 30% of calls at random (Resend, WhatsApp, the
// Telegram Bot API and Discord webhooks), every due delivery ends SENT or FAILED and recorded;
// none is lost and none is sent twice: on every channel with a few users, and at 10,000 deliveries.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../src/notifications/delivery/status.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  consume,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  seedRecipients,
  testEnv,
  type QueuedMessage,
  type RecordingQueue,
  type StoredDelivery,
} from './helpers/notifications.ts'
import { discordWebhook } from './helpers/discord.ts'
import { standIn } from './helpers/stand-in.ts'
import type { Env } from '../src/env.ts'

beforeEach(resetNotifications)

// wrangler.toml: max_retries = 3, so a message retried on its 4th attempt goes to the DLQ.
const MAX_ATTEMPTS = 4
// wrangler.toml: max_batch_size of the notifications queue.
const BATCH_SIZE = 10
const USERS = 16

/**
 * The queue at work until it is empty: messages go to queue() in batches; a retried message comes
 * back with its attempt count raised (its delay honoured by order, not by waiting) and moves to the
 * dead-letter queue when retried on its last attempt; messages the consumer sends (deliveries
 * handed on to wait) come in as new ones. Acked messages are sometimes delivered again, as an
 * at-least-once queue may. Returns every wait asked for.
 */
async function drainQueue(e: Env & { NOTIFICATIONS_QUEUE: RecordingQueue }) {
  const delays: (number | undefined)[] = []
  const fresh = (): QueuedMessage[] => {
    delays.push(...e.NOTIFICATIONS_QUEUE.delays.splice(0).filter((d) => d !== undefined))
    return e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 }))
  }
  // The scheduler's own delays (none for contests due now) are not the consumer's.
  e.NOTIFICATIONS_QUEUE.delays.splice(0)
  let pending: QueuedMessage[] = e.NOTIFICATIONS_QUEUE.bodies
    .splice(0)
    .map((body) => ({ body, attempts: 1 }))
  const deadLetters: QueuedMessage[] = []
  let redelivered = 0
  while (pending.length > 0) {
    const next: QueuedMessage[] = []
    for (let i = 0; i < pending.length; i += BATCH_SIZE) {
      for (const r of await consume(e, pending.slice(i, i + BATCH_SIZE))) {
        if (r.retried) {
          delays.push(r.delaySeconds)
          if (r.attempts >= MAX_ATTEMPTS) deadLetters.push(r)
          else next.push({ body: r.body, attempts: r.attempts + 1 })
        } else {
          expect(r.acked).toBe(true)
          if (redelivered < 10 && Math.random() < 0.3) {
            redelivered++
            next.push({ body: r.body, attempts: r.attempts + 1 })
          }
        }
      }
    }
    pending = [...next, ...fresh()]
  }
  if (deadLetters.length > 0) await consume(e, deadLetters, 'notifications-dlq')
  return { delays, deadLetters: deadLetters.length }
}

/** Resend, WhatsApp, the Telegram Bot API and Discord webhooks fail 30% of calls at random. */
async function failThirtyPercent() {
  await standIn.script({
    method: 'POST',
    pathPrefix: '/resend/emails',
    responses: [],
    failRate: 0.3,
    failure: { status: 503, body: { message: 'scripted outage' } },
  })
  await standIn.script({
    method: 'POST',
    pathPrefix: '/whatsapp/',
    responses: [{ status: 200, body: { messages: [{ id: 'wamid.x' }] } }],
    failRate: 0.3,
    failure: {
      status: 500,
      body: { error: { code: 2, message: 'Service temporarily unavailable' } },
    },
  })
  await standIn.script({
    method: 'POST',
    pathPrefix: '/telegram/bot',
    responses: [{ status: 200, body: { ok: true, result: { message_id: 1, date: 0 } } }],
    failRate: 0.3,
    failure: { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } },
  })
  await standIn.script({
    method: 'POST',
    pathPrefix: '/discord/api/webhooks/',
    responses: [{ status: 200, body: { id: '1200000000000000001', channel_id: '1' } }],
    failRate: 0.3,
    failure: { status: 503, body: { message: 'upstream connect error' } },
  })
}

/** Every email the Resend stand-in was asked to send, one entry per request it was in. */
async function emailsRequested(): Promise<{ to: string; subject: string }[]> {
  const requests = await standIn.requests('/resend/emails')
  return requests.flatMap((r) => {
    const body = JSON.parse(r.body)
    return (Array.isArray(body) ? body : [body]).map((m) => ({ to: m.to[0], subject: m.subject }))
  })
}

describe('providers failing 30% of calls', () => {
  it('settle every delivery as SENT or FAILED, each sent at most once', async () => {
    const e = testEnv()
    const users = []
    // Per user: the chat or webhook path its Telegram or Discord messages go to.
    const chatOf = new Map<string, string>()
    const webhookOf = new Map<string, string>()
    for (let i = 0; i < USERS; i++) {
      const whatsapp = i % 2 === 0
      const user = await recipient({
        channels: { email: true, whatsapp },
        ...(whatsapp && { phoneNumber: `+1555010${String(i).padStart(2, '0')}` }),
      })
      users.push(user)
      // A quarter linked to Telegram, a quarter with a Discord webhook (set as the bot and the
      // profile would set them).
      if (i % 4 === 1) {
        const chat = String(7_000_000 + i)
        chatOf.set(user.id, chat)
        await env.DB.prepare(
          'UPDATE users SET telegram_chat_id = ?1, notify_telegram = 1 WHERE id = ?2',
        )
          .bind(chat, user.id)
          .run()
      } else if (i % 4 === 3) {
        const hook = discordWebhook()
        webhookOf.set(user.id, hook.path)
        await env.DB.prepare(
          'UPDATE users SET discord_webhook_url = ?1, notify_discord = 1 WHERE id = ?2',
        )
          .bind(hook.url, user.id)
          .run()
      }
    }
    const rounds = await addContests([contest(2), contest(4)])
    await failThirtyPercent()
    await runScheduler(e)

    const due = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds).length
    // Two contests: email for all, WhatsApp for half, Telegram and Discord for a quarter each.
    expect(due).toBe(USERS * 2 + (USERS / 2) * 2 + (USERS / 4) * 2 * 2)
    const { delays } = await drainQueue(e)

    // Every wait was one of the policy's delays.
    for (const delay of delays) expect(NOTIFICATION_RETRY_DELAYS_SECONDS).toContain(delay)
    const deliveries: StoredDelivery[] = []
    // Telegram and Discord requests carry no delivery id: they are told apart by their chat or
    // webhook and the contest named in the text.
    const chatDelivery = new Map<string, string>()
    for (const user of users) {
      const notifications = await notificationsOf(user.id)
      expect(notifications).toHaveLength(2)
      for (const n of notifications) {
        deliveries.push(...n.deliveries)
        const name = rounds.find((r) => r.id === n.contestId)!.name
        for (const d of n.deliveries as StoredDelivery[]) {
          if (d.channel === 'telegram') chatDelivery.set(`${chatOf.get(user.id)}|${name}`, d.id)
          if (d.channel === 'discord') chatDelivery.set(`${webhookOf.get(user.id)}|${name}`, d.id)
        }
        const statuses = n.deliveries.map((d: StoredDelivery) => d.status)
        expect(n.status).toBe(statuses.includes('SENT') ? 'SENT' : 'FAILED')
      }
    }
    expect(deliveries).toHaveLength(due)
    for (const d of deliveries) expect(['SENT', 'FAILED']).toContain(d.status)

    // Requests per delivery, told apart by the address and contest of each email (a batch carries
    // many) and WhatsApp's callback reference: exactly one request per recorded attempt, and a
    // SENT delivery's last request is its only successful one, so nothing went out twice.
    const roundOf = (text: string) => rounds.find((r) => text.includes(r.name))!.name
    const emailDelivery = new Map<string, string>()
    for (const user of users) {
      for (const n of await notificationsOf(user.id)) {
        const name = rounds.find((r) => r.id === n.contestId)!.name
        const email = n.deliveries.find((d: StoredDelivery) => d.channel === 'email')
        emailDelivery.set(`${user.email}|${name}`, email.id)
      }
    }
    const perDelivery = new Map<string, number>()
    // The sign-up code emails of the 16 accounts went to Resend too: only reminders count.
    const reminders = (await emailsRequested()).filter((m) =>
      rounds.some((r) => m.subject.includes(r.name)),
    )
    for (const { to, subject } of reminders) {
      const key = emailDelivery.get(`${to}|${roundOf(subject)}`)!
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    const whatsapps = await standIn.requests('/whatsapp/')
    for (const r of whatsapps) {
      const key = JSON.parse(r.body).biz_opaque_callback_data as string
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    for (const r of await standIn.requests('/telegram/bot')) {
      const body = JSON.parse(r.body)
      const key = chatDelivery.get(`${body.chat_id}|${roundOf(body.text)}`)!
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    for (const r of await standIn.requests('/discord/api/webhooks/')) {
      const title = JSON.parse(r.body).embeds[0].title as string
      const key = chatDelivery.get(`${r.path.split('?')[0]}|${roundOf(title)}`)!
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    const channels = new Set(deliveries.map((d) => d.channel))
    expect([...channels].sort()).toEqual(['discord', 'email', 'telegram', 'whatsapp'])
    for (const d of deliveries) {
      expect(perDelivery.get(d.id), `requests for delivery ${d.id}`).toBe(d.attempts)
      expect(d.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS)
      if (d.status === 'FAILED') expect(d.retryCount).toBe(3)
    }
    // 16 accounts made through the API, 8 of them verifying a phone number: longer than the
    // default 5 s on a loaded machine.
  }, 30_000)
})

describe('providers failing 30% of calls at 10,000 deliveries', () => {
  const USERS_AT_SCALE = 4_600
  const WHATSAPP_EVERY = 5

  it('settle every delivery as SENT or FAILED, each email created once at most', async () => {
    const e = testEnv()
    const tag = await seedRecipients(USERS_AT_SCALE, { whatsappEvery: WHATSAPP_EVERY })
    const rounds = await addContests([contest(2), contest(4)])
    await failThirtyPercent()
    await runScheduler(e)
    const queued = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)
    const whatsapp = Math.ceil(USERS_AT_SCALE / WHATSAPP_EVERY)
    expect(queued).toHaveLength(2 * (USERS_AT_SCALE + whatsapp))
    expect(queued.length).toBeGreaterThanOrEqual(10_000)

    const { delays } = await drainQueue(e)
    for (const delay of delays) expect(NOTIFICATION_RETRY_DELAYS_SECONDS).toContain(delay)

    const { results: deliveries } = await env.DB.prepare(
      `SELECT d.id, d.channel, d.status, d.attempts, d.retry_count AS retryCount,
          u.email, n.contest_id AS contestId, n.status AS notificationStatus
        FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
        JOIN users u ON u.id = n.user_id WHERE u.id LIKE ?1 || '%'`,
    )
      .bind(tag)
      .all<Record<string, any>>()
    expect(deliveries).toHaveLength(queued.length)
    const statuses = new Map<string, string[]>()
    for (const d of deliveries) {
      expect(['SENT', 'FAILED']).toContain(d.status)
      expect(d.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS)
      if (d.status === 'FAILED') expect(d.retryCount).toBe(3)
      const key = `${d.email}|${d.contestId}`
      statuses.set(key, [...(statuses.get(key) ?? []), d.status])
    }
    // A notification is SENT when a channel was delivered, FAILED when none was.
    for (const d of deliveries) {
      const any = statuses.get(`${d.email}|${d.contestId}`)!.includes('SENT')
      expect(d.notificationStatus).toBe(any ? 'SENT' : 'FAILED')
    }

    // Each email delivery was in one request per attempt, and Resend created one email for each
    // SENT delivery and none for a FAILED one: nothing lost, nothing sent twice.
    const nameOf = new Map(rounds.map((r) => [r.id, r.name]))
    const roundOf = (subject: string) => rounds.find((r) => subject.includes(r.name))!.name
    const requested = new Map<string, number>()
    for (const { to, subject } of await emailsRequested()) {
      const key = `${to}|${roundOf(subject)}`
      requested.set(key, (requested.get(key) ?? 0) + 1)
    }
    const created = new Map<string, number>()
    for (const email of await standIn.emails()) {
      const key = `${(email.to as string[])[0]}|${roundOf(email.subject as string)}`
      created.set(key, (created.get(key) ?? 0) + 1)
    }
    const emails = deliveries.filter((d) => d.channel === 'email')
    for (const d of emails) {
      const key = `${d.email}|${nameOf.get(d.contestId)}`
      expect(requested.get(key), key).toBe(d.attempts)
      expect(created.get(key) ?? 0, key).toBe(d.status === 'SENT' ? 1 : 0)
    }
    expect([...created.values()].reduce((a, b) => a + b, 0)).toBe(
      emails.filter((d) => d.status === 'SENT').length,
    )
    // The faults were real: some deliveries needed retries, and a few used them all up.
    expect(deliveries.some((d) => d.retryCount > 0)).toBe(true)
  }, 240_000)
})
