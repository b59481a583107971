// Webhook events raised by the live paths: the half-hourly cron announces starting contests and a
// reminder delivered through the queue announces notification.sent, each exactly once.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { createAdmin, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  drain,
  holdingQueue,
  localRun,
  receiver,
  type HoldingQueue,
} from './helpers/webhooks.ts'

let admin: TestUser
let held: HoldingQueue

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(async () => {
  await resetNotifications()
  await clearWebhooks()
  held = holdingQueue()
})

async function subscribe(events: string[]) {
  const hook = await receiver([200])
  await createWebhook(admin, { url: hook.url, events }, localRun(held))
  return async () => (await hook.requests()).map((r) => JSON.parse(r.body) as Record<string, any>)
}

describe('events from the live paths', () => {
  it('a reminder delivered by the queue consumer fires notification.sent once', async () => {
    const received = await subscribe(['notification.sent'])
    const e = testEnv(localRun(held))
    const ada = await recipient()
    await addContests([contest(5, { name: 'Codeforces Round 2000 (Div. 2)' })])

    await runScheduler(e)
    const first = await deliverQueued(e)
    expect(first.every((m) => m.acked)).toBe(true)
    await runScheduler(e)
    await deliverQueued(e)
    await drain(held, localRun(held))

    const [notification] = await notificationsOf(ada.id)
    expect(notification.status).toBe('SENT')
    const events = await received()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'notification.sent',
      data: { id: notification.id, status: 'SENT', userId: ada.id },
    })
  })

  it('the half-hourly cron fires contest.starting once for a contest about to start', async () => {
    const received = await subscribe(['contest.starting'])
    const e = testEnv(localRun(held))
    const [soon] = await addContests([contest(0.25, { name: 'Starting Soon Round' })])
    await addContests([contest(5, { name: 'Later Round' })])

    await runScheduler(e)
    await runScheduler(e)
    await drain(held, localRun(held))

    const events = await received()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'contest.starting',
      data: { id: soon.id, name: 'Starting Soon Round' },
    })
  })
})
