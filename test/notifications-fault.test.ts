// Fault injection: with the providers failing 30% of calls at random, every due delivery ends
// SENT or FAILED and recorded; none is lost and none is sent twice.
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
import { standIn } from './helpers/stand-in.ts'

beforeEach(resetNotifications)

// wrangler.toml: max_retries = 3, so a message retried on its 4th attempt goes to the DLQ.
const MAX_ATTEMPTS = 4
const USERS = 16

describe('providers failing 30% of calls', () => {
  it('settle every delivery as SENT or FAILED, each sent at most once', async () => {
    const e = testEnv()
    const users = []
    for (let i = 0; i < USERS; i++) {
      const whatsapp = i % 2 === 0
      users.push(
        await recipient({
          channels: { email: true, whatsapp },
          ...(whatsapp && { phoneNumber: `+1555010${String(i).padStart(2, '0')}` }),
        }),
      )
    }
    await addContests([contest(2), contest(4)])
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
    expect(due).toBe(USERS * 2 + (USERS / 2) * 2)
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
    for (const user of users) {
      const notifications = await notificationsOf(user.id)
      expect(notifications).toHaveLength(2)
      for (const n of notifications) {
        deliveries.push(...n.deliveries)
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
    for (const d of deliveries) {
      expect(perDelivery.get(d.id), `requests for delivery ${d.id}`).toBe(d.attempts)
      expect(d.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS)
      if (d.status === 'FAILED') expect(d.retryCount).toBe(3)
    }
    // 16 accounts made through the API, 8 of them verifying a phone number: longer than the
    // default 5 s on a loaded machine.
  }, 30_000)
})
