// Webhook delivery through the queue: Standard Webhooks signatures a receiver verifies, retries
// with growing delays, disabling (410, three days of failures), and SSRF refused at delivery.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test'
import { Webhook } from 'standardwebhooks'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DAY_MS, HOUR_MS } from '../src/lib/time.ts'
import { consumeWebhookDeliveries } from '../src/webhooks/consumer.ts'
import type { WebhookMessage } from '../src/webhooks/emit.ts'
import { RETRY_DELAYS_SECONDS } from '../src/webhooks/retry-schedule.ts'
import { clearContests } from './helpers/contests.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, rememberSecret, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  deployed,
  drain,
  holdingQueue,
  localRun,
  receiver,
  signatureHeaders,
  type HoldingQueue,
} from './helpers/webhooks.ts'
import { runQueue } from './helpers/queue.ts'

let admin: TestUser
let held: HoldingQueue
let seq = 0

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(async () => {
  await clearWebhooks()
  await clearContests()
  await standIn.reset()
  held = holdingQueue()
})

function newContest() {
  const start = Date.now() + 48 * HOUR_MS
  return {
    platform: 'codeforces',
    platformId: `wh-${++seq}-${crypto.randomUUID().slice(0, 6)}`,
    name: `Webhook Round ${seq}`,
    type: 'CF',
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + 2 * HOUR_MS).toISOString(),
  }
}

const asAdmin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: admin.accessToken, body, bindings: localRun(held) })

/** An endpoint on a fresh stand-in receiver answering `statuses` in turn. */
async function endpointAnswering(statuses: number[], events = ['contest.created']) {
  const hook = await receiver(statuses)
  const made = await createWebhook(admin, { url: hook.url, events }, localRun(held))
  return { hook, made }
}

/** Queues one webhook.test delivery to the endpoint; answers its message. */
async function queueTestEvent(endpointId: string): Promise<WebhookMessage> {
  const res = await asAdmin('POST', `/webhooks/${endpointId}/test`)
  expect(res.status).toBe(202)
  const [message] = held.take()
  return message
}

async function deliveriesOf(endpointId: string) {
  const res = await asAdmin('GET', `/webhooks/${endpointId}/deliveries`)
  return res.body.data as Record<string, any>[]
}

const endpoint = async (id: string) => (await asAdmin('GET', `/webhooks/${id}`)).body

describe('signatures', () => {
  it('signs a contest.created delivery so a Standard Webhooks receiver verifies it', async () => {
    const { hook, made } = await endpointAnswering([200])
    const created = await asAdmin('POST', '/contests', newContest())
    expect(created.status).toBe(201)
    await drain(held, localRun(held))

    const [request] = await hook.requests()
    expect(request.method).toBe('POST')
    expect(request.headers['content-type']).toBe('application/json')
    const payload = new Webhook(made.secret).verify(
      request.body,
      signatureHeaders(request.headers),
    ) as Record<string, any>
    expect(payload.type).toBe('contest.created')
    expect(payload.id).toBe(request.headers['webhook-id'])
    expect(payload.id).toMatch(/^evt_[0-9a-f]{32}$/)
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(payload.data).toEqual(created.body)
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
      300,
    )
  })

  it('a receiver refuses a tampered body', async () => {
    const { hook, made } = await endpointAnswering([200])
    await asAdmin('POST', '/contests', newContest())
    await drain(held, localRun(held))
    const [request] = await hook.requests()
    const tampered = request.body.replace('"contest.created"', '"contest.finished"')
    expect(tampered).not.toBe(request.body)
    expect(() =>
      new Webhook(made.secret).verify(tampered, signatureHeaders(request.headers)),
    ).toThrow()
  })

  it('signs with the new secret once it is rotated, and no longer with the old one', async () => {
    const { hook, made } = await endpointAnswering([200])
    const rotated = await asAdmin('POST', `/webhooks/${made.id}/rotate-secret`)
    rememberSecret(rotated.body.secret)
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    const [request] = await hook.requests()
    const headers = signatureHeaders(request.headers)
    expect(new Webhook(rotated.body.secret).verify(request.body, headers)).toBeTruthy()
    expect(() => new Webhook(made.secret).verify(request.body, headers)).toThrow()
  })
})

describe('outcomes and retries', () => {
  it('records a success with its attempt, status and delivery time, and acknowledges it', async () => {
    const { made } = await endpointAnswering([204])
    const message = await queueTestEvent(made.id)
    const { batch, result } = await runQueue([message], localRun(held))
    expect(result.explicitAcks).toEqual([batch.messages[0].id])
    expect(result.retryMessages).toEqual([])
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastResponseStatus: 204 })
    expect(delivery).not.toHaveProperty('lastError')
    expect(delivery).not.toHaveProperty('nextAttemptAt')
  })

  it('retries failures through message.retry with growing delays, then gives up', async () => {
    const { hook, made } = await endpointAnswering([500])
    const message = await queueTestEvent(made.id)
    const delays: number[] = []
    for (let attempt = 1; attempt <= RETRY_DELAYS_SECONDS.length; attempt++) {
      const { batch, result } = await runQueue([message], localRun(held), { attempts: attempt })
      expect(result.retryMessages).toEqual([
        { msgId: batch.messages[0].id, delaySeconds: expect.any(Number) },
      ])
      delays.push(result.retryMessages[0].delaySeconds!)
      const [delivery] = await deliveriesOf(made.id)
      expect(delivery).toMatchObject({ status: 'retrying', attempts: attempt })
      expect(delivery.nextAttemptAt).toMatch(/Z$/)
    }
    expect(delays).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000])
    expect(delays.every((d, i) => i === 0 || d >= delays[i - 1])).toBe(true)

    const last = await runQueue([message], localRun(held), { attempts: delays.length + 1 })
    expect(last.result.retryMessages).toEqual([])
    expect(last.result.explicitAcks).toEqual([last.batch.messages[0].id])
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 8,
      lastResponseStatus: 500,
      lastError: 'HTTP 500',
    })
    expect(await hook.requests()).toHaveLength(8)
    // Failing for about a day is not yet three days: the endpoint stays enabled.
    expect((await endpoint(made.id)).enabled).toBe(true)
  })

  it('retries a receiver that cannot be reached, recording the error', async () => {
    const made = await createWebhook(
      admin,
      { url: 'http://127.0.0.1:1/hooks/closed', events: ['contest.created'] },
      localRun(held),
    )
    const { result } = await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(result.retryMessages[0].delaySeconds).toBe(5)
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery.status).toBe('retrying')
    expect(delivery.lastError).toMatch(/^Request failed: /)
    expect(delivery).not.toHaveProperty('lastResponseStatus')
  })

  it('does not follow a redirect, which counts as a failure', async () => {
    const hook = await receiver([200])
    const redirecting = await receiver([200])
    await standIn.script({
      pathPrefix: redirecting.path,
      responses: [{ status: 302, headers: { location: hook.url } }],
    })
    const made = await createWebhook(
      admin,
      { url: redirecting.url, events: ['contest.created'] },
      localRun(held),
    )
    const { result } = await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(result.retryMessages).toHaveLength(1)
    expect(await hook.requests()).toEqual([])
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({
      lastResponseStatus: 302,
      lastError: 'Redirects are not followed (HTTP 302)',
    })
  })

  it('sends a redelivered message of a finished delivery no second time', async () => {
    const { hook, made } = await endpointAnswering([200])
    const message = await queueTestEvent(made.id)
    await runQueue([message], localRun(held))
    const again = await runQueue([message], localRun(held), { attempts: 2 })
    expect(again.result.explicitAcks).toHaveLength(1)
    expect(await hook.requests()).toHaveLength(1)
  })

  it('marks a delivery failed when its message reaches the dead-letter queue', async () => {
    const { made } = await endpointAnswering([500])
    const message = await queueTestEvent(made.id)
    await runQueue([message], localRun(held))
    const dead = await runQueue([message], localRun(held), { queue: 'webhooks-dlq' })
    expect(dead.result.explicitAcks).toHaveLength(1)
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Gave up: the queue ran out of retries',
    })
  })
})

describe('disabling', () => {
  it('disables the endpoint at once when it answers 410 Gone', async () => {
    const { made } = await endpointAnswering([410])
    const { result } = await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(result.retryMessages).toEqual([])
    const after = await endpoint(made.id)
    expect(after).toMatchObject({
      enabled: false,
      disabledReason: 'The endpoint answered 410 Gone',
    })
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({ status: 'failed', lastResponseStatus: 410 })
  })

  it('queues nothing for a disabled endpoint', async () => {
    const { made } = await endpointAnswering([410])
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    const created = await asAdmin('POST', '/contests', newContest())
    expect(created.status).toBe(201)
    expect(held.take()).toEqual([])
    expect(await deliveriesOf(made.id)).toHaveLength(1)
  })

  it('does not send a delivery already queued when its endpoint was disabled meanwhile', async () => {
    const { hook, made } = await endpointAnswering([200])
    const message = await queueTestEvent(made.id)
    await asAdmin('PATCH', `/webhooks/${made.id}`, { enabled: false })
    const { result } = await runQueue([message], localRun(held))
    expect(result.explicitAcks).toHaveLength(1)
    expect(await hook.requests()).toEqual([])
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 0,
      lastError: 'Not sent: the endpoint is disabled',
    })
  })

  it('disables an endpoint whose failures began more than three days ago', async () => {
    const { made } = await endpointAnswering([503])
    const first = await queueTestEvent(made.id)
    const longAgo = Date.now() - 3 * DAY_MS - HOUR_MS
    // The first failure, three days and an hour ago, starts the endpoint's failure clock.
    const batch = createMessageBatch<WebhookMessage>('webhooks', [
      { id: 'old-attempt', timestamp: new Date(longAgo), attempts: 1, body: first },
    ])
    const ctx = createExecutionContext()
    await consumeWebhookDeliveries(batch, { ...env, ...localRun(held) }, { clock: () => longAgo })
    expect((await getQueueResult(batch, ctx)).retryMessages).toHaveLength(1)
    expect((await endpoint(made.id)).failingSince).toBe(new Date(longAgo).toISOString())

    // Any failure now, past the three days, disables it rather than retrying.
    const { result } = await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(result.retryMessages).toEqual([])
    const after = await endpoint(made.id)
    expect(after.enabled).toBe(false)
    expect(after.disabledReason).toBe(
      `The endpoint has been failing since ${new Date(longAgo).toISOString()}`,
    )
  })

  it('a success clears the failure clock', async () => {
    const { made } = await endpointAnswering([500, 200])
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect((await endpoint(made.id)).failingSince).toMatch(/Z$/)
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(await endpoint(made.id)).not.toHaveProperty('failingSince')
  })

  it('re-enabling clears the failure state and deliveries resume', async () => {
    const { hook, made } = await endpointAnswering([410, 200])
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    const disabled = await endpoint(made.id)
    expect(disabled.failingSince).toMatch(/Z$/)
    const on = await asAdmin('PATCH', `/webhooks/${made.id}`, { enabled: true })
    expect(on.body.enabled).toBe(true)
    expect(on.body).not.toHaveProperty('disabledReason')
    expect(on.body).not.toHaveProperty('failingSince')
    await runQueue([await queueTestEvent(made.id)], localRun(held))
    expect(await hook.requests()).toHaveLength(2)
  })
})

describe('targets refused at delivery (SSRF)', () => {
  it('records a failure and sends nothing to a loopback http target outside local runs', async () => {
    const { hook, made } = await endpointAnswering([200])
    const message = await queueTestEvent(made.id)
    const { result } = await runQueue([message], deployed(held))
    expect(result.retryMessages).toEqual([])
    expect(await hook.requests()).toEqual([])
    const [delivery] = await deliveriesOf(made.id)
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Not sent: url must use https',
    })
    expect(delivery).not.toHaveProperty('lastResponseStatus')
  })

  // Link-local and metadata addresses are refused when the webhook is made, local runs included
  // (security-outbound.test.ts), so only loopback targets can be stored by a local run.
  it.each(['https://127.0.0.1/hook', 'https://[::1]/hook'])(
    'refuses %s at delivery too',
    async (url) => {
      const made = await createWebhook(admin, { url, events: ['contest.created'] }, localRun(held))
      const { result } = await runQueue([await queueTestEvent(made.id)], deployed(held))
      expect(result.explicitAcks).toHaveLength(1)
      const [delivery] = await deliveriesOf(made.id)
      expect(delivery).toMatchObject({
        status: 'failed',
        lastError: 'Not sent: url must not point to a private, loopback or link-local address',
      })
    },
  )
})
