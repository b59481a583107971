// Fault injection: with the providers failing 30% of calls at random (Resend, WhatsApp, the
// Telegram Bot API and Discord webhooks), every due delivery ends SENT or FAILED and recorded;
// none is lost and none is sent twice.
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
  testEnv,
  type QueuedMessage,
  type StoredDelivery,
} from './helpers/notifications.ts'
import { discordWebhook } from './helpers/discord.ts'
import { standIn } from './helpers/stand-in.ts'

beforeEach(resetNotifications)

// wrangler.toml: max_retries = 3, so a message retried on its 4th attempt goes to the DLQ.
const MAX_ATTEMPTS = 4
const USERS = 16

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
    const failure = { status: 503, body: { message: 'scripted outage' } }
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 200, body: { id: 'em' } }],
      failRate: 0.3,
      failure,
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
    await runScheduler(e)

    // The queue at work: each batch goes to queue(); retried messages come back with their
    // attempt count raised (their delay honoured by order, not by waiting); a message retried
    // on its last attempt moves to the dead-letter queue. Acked messages are sometimes
    // delivered again, as an at-least-once queue may.
    let pending: QueuedMessage[] = e.NOTIFICATIONS_QUEUE.bodies.map((body) => ({
      body,
      attempts: 1,
    }))
    const due = pending.length
    // Two contests: email for all, WhatsApp for half, Telegram and Discord for a quarter each.
    expect(due).toBe(USERS * 2 + (USERS / 2) * 2 + (USERS / 4) * 2 * 2)
    const delays = new Map<number, Set<number | undefined>>()
    const deadLetters: QueuedMessage[] = []
    let redelivered = 0
    while (pending.length > 0) {
      const results = await consume(e, pending)
      const next: QueuedMessage[] = []
      for (const r of results) {
        if (r.retried) {
          if (!delays.has(r.attempts)) delays.set(r.attempts, new Set())
          delays.get(r.attempts)!.add(r.delaySeconds)
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
      pending = next
    }
    if (deadLetters.length > 0) await consume(e, deadLetters, 'notifications-dlq')

    // Retries waited the policy's delays after attempts 1, 2 and 3.
    for (const [attempt, seen] of delays) {
      expect([...seen]).toEqual([NOTIFICATION_RETRY_DELAYS_SECONDS[attempt - 1]])
    }
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

    // Requests per delivery, told apart by Resend's Idempotency-Key and WhatsApp's callback
    // reference: exactly one request per recorded attempt, and a SENT delivery's last request
    // is its only successful one, so nothing went out twice.
    const emails = await standIn.requests('/resend/emails')
    const whatsapps = await standIn.requests('/whatsapp/')
    const perDelivery = new Map<string, number>()
    for (const r of emails) {
      const key = r.headers['idempotency-key']
      if (key) perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    for (const r of whatsapps) {
      const key = JSON.parse(r.body).biz_opaque_callback_data as string
      perDelivery.set(key, (perDelivery.get(key) ?? 0) + 1)
    }
    const roundOf = (text: string) => rounds.find((r) => text.includes(r.name))!.name
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
