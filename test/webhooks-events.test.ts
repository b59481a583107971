// Webhook events: contest.created from admin writes and syncs, contest.starting and
// contest.finished from the half-hourly detection, notification.sent, contest.results_published,
// each fired once per occurrence; and the upkeep that re-queues lost messages and drops old deliveries.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { runCron } from '../src/jobs/cron.ts'
import { webhookEventsJob } from '../src/jobs/webhook-events.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { FINISHED_WATERMARK_KEY } from '../src/webhooks/detection.ts'
import { emitResultsPublished } from '../src/webhooks/result-events.ts'
import {
  emitWebhookEvents,
  emitWebhookEventsSafely,
  type WebhookMessage,
} from '../src/webhooks/emit.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import {
  capturingSyncQueue,
  runSyncQueue,
  serveAllPlatforms,
  servePlatform,
} from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, type TestUser } from './helpers/users.ts'
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
  await clearWebhooks()
  await clearContests()
  await standIn.reset()
  await env.DB.prepare('DELETE FROM job_locks').run()
  held = holdingQueue()
})

const jobEnv = (): Env => ({ ...env, ...localRun(held) })

async function subscribe(events: string[]) {
  const hook = await receiver([200])
  const made = await createWebhook(admin, { url: hook.url, events }, localRun(held))
  return { hook, made }
}

async function deliveryPage(endpointId: string) {
  const res = await api('GET', `/webhooks/${endpointId}/deliveries?limit=100`, {
    token: admin.accessToken,
  })
  return res.body as { data: Record<string, any>[]; pagination: { total: number } }
}

const deliveriesOf = async (endpointId: string) => (await deliveryPage(endpointId)).data
const deliveryCount = async (endpointId: string) =>
  (await deliveryPage(endpointId)).pagination.total

const payloads = async (hook: { requests: () => Promise<{ body: string }[]> }) =>
  (await hook.requests()).map((r) => JSON.parse(r.body) as Record<string, any>)

function contestBody(i: number) {
  const start = Date.now() + (24 + i) * HOUR_MS
  return {
    platform: 'atcoder',
    platformId: `abc-wh-${i}-${crypto.randomUUID().slice(0, 6)}`,
    name: `AtCoder Beginner Contest ${i}`,
    type: 'ABC',
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + 100 * MINUTE_MS).toISOString(),
  }
}

describe('contest.created', () => {
  it('fires once per contest an admin adds, only to endpoints subscribed to it', async () => {
    const { hook, made } = await subscribe(['contest.created'])
    const other = await subscribe(['contest.finished'])
    const res = await api('POST', '/contests/bulk', {
      token: admin.accessToken,
      body: { contests: [contestBody(1), contestBody(2)] },
      bindings: localRun(held),
    })
    expect(res.status).toBe(201)
    await drain(held, localRun(held))
    const received = await payloads(hook)
    expect(received.map((p) => p.type)).toEqual(['contest.created', 'contest.created'])
    expect(received.map((p) => p.data).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      res.body.contests,
    )
    expect(await deliveriesOf(made.id)).toHaveLength(2)
    expect(await other.hook.requests()).toEqual([])
  })

  it('fires for the contests an admin-triggered sync creates, and not again on a resync', async () => {
    const { made } = await subscribe(['contest.created'])
    await servePlatform('codeforces')
    const sync = () =>
      api('POST', '/contests/sync/codeforces', {
        token: admin.accessToken,
        bindings: localRun(held),
      })
    const first = await sync()
    const created = first.body.results[0].created
    expect(created).toBeGreaterThan(0)
    expect(held.take()).toHaveLength(created)
    const second = await sync()
    expect(second.body.results[0].created).toBe(0)
    expect(held.take()).toEqual([])
    expect(await deliveryCount(made.id)).toBe(created)
  })

  it('fires for the contests the scheduled sync creates', async () => {
    const { made } = await subscribe(['contest.created'])
    await serveAllPlatforms(Date.now())
    const { queue, sent } = capturingSyncQueue()
    await runCron('0 */6 * * *', { ...jobEnv(), SYNC_QUEUE: queue }, Date.now())
    await runSyncQueue(sent, jobEnv())
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM contests').first<{ n: number }>()
    expect(stored!.n).toBeGreaterThan(0)
    expect(await deliveryCount(made.id)).toBe(stored!.n)
  })

  it('never fails the admin write when the webhook queue is down', async () => {
    const { made } = await subscribe(['contest.created'])
    const broken = {
      send: async () => {
        throw new Error('queue unavailable')
      },
      sendBatch: async () => {
        throw new Error('queue unavailable')
      },
    } as unknown as Queue
    const res = await api('POST', '/contests', {
      token: admin.accessToken,
      body: contestBody(3),
      bindings: { ...localRun(held), WEBHOOKS_QUEUE: broken },
    })
    expect(res.status).toBe(201)
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 })
  })
})

describe('contest.starting', () => {
  it('fires for a contest starting before the next half-hourly run', async () => {
    const now = Date.now()
    const { hook } = await subscribe(['contest.starting'])
    const [soon] = await addContests([contest(20 / 60, {}, now), contest(2, {}, now)], now)
    const counts = await webhookEventsJob(jobEnv(), now)
    expect(counts).toMatchObject({ webhookStarting: 1, webhookQueued: 1 })
    await drain(held, localRun(held))
    const [payload] = await payloads(hook)
    expect(payload.type).toBe('contest.starting')
    expect(payload.data).toMatchObject({ id: soon.id, phase: 'BEFORE', name: soon.name })
  })

  it('fires once however many runs see the contest: two detections, one delivery', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.starting'])
    await addContests([contest(25 / 60, {}, now)], now)
    await webhookEventsJob(jobEnv(), now)
    const again = await webhookEventsJob(jobEnv(), now)
    const later = await webhookEventsJob(jobEnv(), now + 10 * MINUTE_MS)
    expect(again.webhookStarting).toBe(1)
    expect(again.webhookQueued).toBe(0)
    expect(later.webhookQueued).toBe(0)
    expect(held.take()).toHaveLength(1)
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })

  it('waits for the run before the start of a contest further away', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.starting'])
    await addContests([contest(45 / 60, {}, now)], now)
    expect((await webhookEventsJob(jobEnv(), now)).webhookStarting).toBe(0)
    expect((await webhookEventsJob(jobEnv(), now + 30 * MINUTE_MS)).webhookStarting).toBe(1)
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })

  it('fires again for a contest moved to a new start time', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.starting'])
    const [row] = await addContests([contest(10 / 60, {}, now)], now)
    await webhookEventsJob(jobEnv(), now)
    const moved = new Date(row.startTime + 10 * MINUTE_MS).toISOString()
    const res = await api('PATCH', `/contests/${row.id}`, {
      token: admin.accessToken,
      body: { startTime: moved, endTime: new Date(row.endTime + 10 * MINUTE_MS).toISOString() },
    })
    expect(res.status).toBe(200)
    await webhookEventsJob(jobEnv(), now)
    const deliveries = await deliveriesOf(made.id)
    expect(deliveries.map((d) => d.payload.data.startTime).sort()).toEqual(
      [new Date(row.startTime).toISOString(), moved].sort(),
    )
  })

  it('leaves out inactive contests', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.starting'])
    await addContests([contest(10 / 60, { isActive: false }, now)], now)
    await webhookEventsJob(jobEnv(), now)
    expect(await deliveriesOf(made.id)).toEqual([])
  })
})

describe('contest.finished', () => {
  it('fires for a contest that ended since the previous run', async () => {
    const now = Date.now()
    const { hook } = await subscribe(['contest.finished'])
    const [ended] = await addContests(
      [contest(-2, { endTime: now - 10 * MINUTE_MS }, now), contest(-1, {}, now)],
      now,
    )
    const counts = await webhookEventsJob(jobEnv(), now)
    expect(counts).toMatchObject({ webhookFinished: 1, webhookQueued: 1 })
    await drain(held, localRun(held))
    const [payload] = await payloads(hook)
    expect(payload.type).toBe('contest.finished')
    expect(payload.data).toMatchObject({ id: ended.id, phase: 'FINISHED' })
  })

  it('fires once: a later run moves past it, and one that looks again sends nothing new', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.finished'])
    await addContests([contest(-2, { endTime: now - 10 * MINUTE_MS }, now)], now)
    await webhookEventsJob(jobEnv(), now)
    const next = await webhookEventsJob(jobEnv(), now + 30 * MINUTE_MS)
    expect(next.webhookFinished).toBe(0)
    // A lost watermark makes a run look back again; the event id keeps it from a second delivery.
    await env.KV.delete(FINISHED_WATERMARK_KEY)
    const again = await webhookEventsJob(jobEnv(), now)
    expect(again).toMatchObject({ webhookFinished: 1, webhookQueued: 0 })
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })

  it('catches a contest that ended between two runs at the next one', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.finished'])
    await webhookEventsJob(jobEnv(), now)
    await addContests([contest(-1, { endTime: now + 5 * MINUTE_MS }, now)], now)
    expect((await webhookEventsJob(jobEnv(), now + 30 * MINUTE_MS)).webhookFinished).toBe(1)
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })

  it('does not announce contests that ended long before the first run', async () => {
    const now = Date.now()
    const { made } = await subscribe(['contest.finished'])
    await addContests([contest(-50, {}, now)], now)
    expect((await webhookEventsJob(jobEnv(), now)).webhookFinished).toBe(0)
    expect(await deliveriesOf(made.id)).toEqual([])
  })
})

describe('notification.sent', () => {
  it('fires once per notification, with the notification as given', async () => {
    const { hook, made } = await subscribe(['notification.sent'])
    const notification = { id: '6745a1f03c9e4b2a1d0e7f11', status: 'SENT', channels: ['email'] }
    const event = {
      type: 'notification.sent' as const,
      subject: notification.id,
      data: notification,
    }
    await emitWebhookEventsSafely(jobEnv(), [event], Date.now())
    await emitWebhookEventsSafely(jobEnv(), [event], Date.now())
    await drain(held, localRun(held))
    const received = await payloads(hook)
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ type: 'notification.sent', data: notification })
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })
})

describe('upkeep of deliveries', () => {
  it('queues again a delivery whose message was lost', async () => {
    const { made } = await subscribe(['contest.created'])
    const lost = holdingQueue()
    await api('POST', '/contests', {
      token: admin.accessToken,
      body: contestBody(4),
      bindings: { ...localRun(held), WEBHOOKS_QUEUE: lost.queue },
    })
    const [delivery] = await deliveriesOf(made.id)
    const soon = await webhookEventsJob(jobEnv(), Date.now())
    expect(soon.webhookRequeued).toBe(0)
    const later = await webhookEventsJob(jobEnv(), Date.now() + 20 * MINUTE_MS)
    expect(later.webhookRequeued).toBe(1)
    expect(held.take()).toEqual([{ deliveryId: delivery.id } satisfies WebhookMessage])
  })

  it('removes deliveries older than 30 days', async () => {
    const { made } = await subscribe(['notification.sent'])
    const now = Date.now()
    const event = (id: string) => ({
      type: 'notification.sent' as const,
      subject: id,
      data: { id },
    })
    await emitWebhookEvents(jobEnv(), [event('old')], now - 31 * DAY_MS)
    await emitWebhookEvents(jobEnv(), [event('new')], now - 29 * DAY_MS)
    const counts = await webhookEventsJob(jobEnv(), now)
    expect(counts.webhookRemoved).toBe(1)
    const left = await deliveriesOf(made.id)
    expect(left.map((d) => d.payload.data.id)).toEqual(['new'])
  })
})

describe('contest.results_published', () => {
  it('is delivered once per contest, signed, with the contest, platform, participants and rated', async () => {
    const { hook, made } = await subscribe(['contest.results_published'])
    const other = await subscribe(['contest.finished'])
    const [row] = await addContests([contest(-3, { platform: 'codeforces', platformId: '2289' })])
    const published = { contest: row, rated: true, participants: 30_000 }
    await emitResultsPublished(jobEnv(), published, Date.now())
    // A retried consumer emits again: the same event id, nothing new.
    await emitResultsPublished(jobEnv(), published, Date.now())
    await drain(held, localRun(held))
    const received = await payloads(hook)
    expect(received.map((p) => p.type)).toEqual(['contest.results_published'])
    expect(received[0].data).toMatchObject({
      contest: { id: row.id, platform: 'codeforces' },
      platform: 'codeforces',
      participants: 30_000,
      rated: true,
    })
    expect(await deliveryCount(made.id)).toBe(1)
    expect(await other.hook.requests()).toEqual([])
  })
})
