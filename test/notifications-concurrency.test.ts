// The consumer against itself: two invocations given the same batch, and a batch whose results
// were lost after its emails went out, each email reaches Resend's outbox once.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import {
  consume,
  resetNotifications,
  runScheduler,
  seedRecipients,
  testEnv,
  type QueuedMessage,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'

beforeEach(resetNotifications)

const USERS = 250

/** The seeded users' email deliveries as stored. */
async function emailDeliveries(tag: string) {
  const { results } = await env.DB.prepare(
    `SELECT d.id, d.status, d.attempts, d.retry_count AS retryCount FROM notification_deliveries d
      JOIN notifications n ON n.id = d.notification_id
      WHERE n.user_id LIKE ?1 || '%' AND d.channel = 'email'`,
  )
    .bind(tag)
    .all<{ id: string; status: string; attempts: number; retryCount: number }>()
  return results
}

/** How many emails Resend created for each address. */
async function createdPerAddress() {
  const counts = new Map<string, number>()
  for (const email of await standIn.emails()) {
    const to = (email.to as string[])[0]
    counts.set(to, (counts.get(to) ?? 0) + 1)
  }
  return counts
}

async function dueReminders() {
  const tag = await seedRecipients(USERS)
  await addContests([contest(2)])
  const e = testEnv()
  await runScheduler(e)
  const messages: QueuedMessage[] = e.NOTIFICATIONS_QUEUE.bodies
    .splice(0)
    .map((body) => ({ body, attempts: 1 }))
  return { e, tag, messages }
}

describe('the notifications consumer run twice at once', () => {
  it('sends each email of the same batch once, the other run waiting in new messages', async () => {
    const { e, tag, messages } = await dueReminders()
    // 250 emails: messages of 100, 100 and 50, each one Resend batch call.
    expect(messages.map((m) => (m.body as { deliveryIds: string[] }).deliveryIds.length)).toEqual([
      100, 100, 50,
    ])
    const [first, second] = await Promise.all([consume(e, messages), consume(e, messages)])
    // One invocation claimed each delivery; the other found it held and put it in a new message
    // to come back when the claim lapses, spending none of the message's retries.
    expect([...first, ...second].every((r) => r.acked && !r.retried)).toBe(true)
    const ids = (bodies: readonly unknown[]) =>
      bodies.flatMap((b) => (b as { deliveryIds: string[] }).deliveryIds).sort()
    expect(ids(e.NOTIFICATIONS_QUEUE.bodies)).toEqual(ids(messages.map((m) => m.body)))
    const counts = await createdPerAddress()
    expect(counts.size).toBe(USERS)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    // Coming back later, the held messages find every delivery settled and send nothing.
    const again = await consume(e, messages)
    expect(again.every((r) => r.acked && !r.retried)).toBe(true)
    expect((await standIn.emails()).length).toBe(USERS)
    const deliveries = await emailDeliveries(tag)
    expect(deliveries).toHaveLength(USERS)
    expect(deliveries.every((d) => d.status === 'SENT' && d.attempts === 1)).toBe(true)
  })

  it('lets Resend answer a batch sent again after its results were lost, sending nothing twice', async () => {
    const { e, tag, messages } = await dueReminders()
    await consume(e, messages)
    expect((await standIn.emails()).length).toBe(USERS)
    // As if the consumer died between Resend's answer and the record: the rows are claimable again,
    // so the same calls go out under the same keys.
    await env.DB.prepare(
      `UPDATE notification_deliveries SET status = 'PENDING', claimed_until = NULL, sent_at = NULL
        WHERE id IN (SELECT value FROM json_each(?1))`,
    )
      .bind(JSON.stringify((await emailDeliveries(tag)).map((d) => d.id)))
      .run()
    const results = await consume(e, messages)
    expect(results.every((r) => r.acked)).toBe(true)
    expect(await standIn.requests('/resend/emails/batch')).toHaveLength(6)
    expect((await standIn.emails()).length).toBe(USERS)
    const deliveries = await emailDeliveries(tag)
    expect(deliveries.every((d) => d.status === 'SENT' && d.attempts === 2)).toBe(true)
  })

  it('takes Resend’s refusal of another payload under the same key as the send it was', async () => {
    const { e, tag, messages } = await dueReminders()
    await consume(e, messages)
    const ids = (await emailDeliveries(tag)).map((d) => d.id)
    // The record was lost, and by the time the message came back the words had changed (here the
    // contest's name; in life the "starts in about..." of the text).
    await env.DB.batch([
      env.DB.prepare(
        `UPDATE notification_deliveries SET status = 'PENDING', claimed_until = NULL, sent_at = NULL
          WHERE id IN (SELECT value FROM json_each(?1))`,
      ).bind(JSON.stringify(ids)),
      env.DB.prepare(`UPDATE contests SET name = name || ' (renamed)'`),
    ])
    await consume(e, messages)
    expect((await standIn.emails()).length).toBe(USERS)
    const deliveries = await emailDeliveries(tag)
    expect(deliveries.every((d) => d.status === 'SENT' && d.attempts === 2)).toBe(true)
  })
})
