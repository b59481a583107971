// Tests of the Deno KV ports (store, rate limiter, queues) against a temporary KV database file.
import assert from 'node:assert/strict'
import type { QueueBatch } from '../src/ports/queue.ts'
import { kvStore } from './kv-store.ts'
import { consumeQueues, queueProducer, type QueueConfig } from './queues.ts'
import { limiterNamespace } from './rate-limiter.ts'

async function withKv(run: (kv: Deno.Kv) => Promise<void>) {
  const dir = await Deno.makeTempDir()
  const kv = await Deno.openKv(`${dir}/kv.sqlite`)
  try {
    await run(kv)
  } finally {
    try {
      kv.close()
    } catch {
      // A queue test closed it already, to end its consumer loop.
    }
    await Deno.remove(dir, { recursive: true })
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits for `done` for at most `timeoutMs`, polling. */
async function until(done: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms`)
    await sleep(10)
  }
}

Deno.test('store: round trip, json, and missing keys', () =>
  withKv(async (kv) => {
    const store = kvStore(kv)
    assert.equal(await store.get('absent'), null)
    await store.put('catalogue:version', '7')
    assert.equal(await store.get('catalogue:version'), '7')
    await store.put('doc', JSON.stringify({ a: 1 }))
    assert.deepEqual(await store.get<{ a: number }>('doc', 'json'), { a: 1 })
  }),
)

Deno.test('store: delete forgets a key and leaves the others', () =>
  withKv(async (kv) => {
    const store = kvStore(kv)
    await store.put('google:flow:a', '{}', { expirationTtl: 600 })
    await store.put('google:flow:b', '{}')
    await store.delete('google:flow:a')
    await store.delete('never-stored')
    assert.equal(await store.get('google:flow:a'), null)
    assert.equal(await store.get('google:flow:b'), '{}')
  }),
)

Deno.test('store: expirationTtl becomes expireIn, and an expired key reads as missing', () =>
  withKv(async (kv) => {
    const sets: { key: Deno.KvKey; expireIn?: number }[] = []
    const spy = new Proxy(kv, {
      get(target, prop) {
        if (prop !== 'set') {
          const member = Reflect.get(target, prop, target)
          return typeof member === 'function' ? member.bind(target) : member
        }
        return (key: Deno.KvKey, value: unknown, options?: { expireIn?: number }) => {
          sets.push({ key, expireIn: options?.expireIn })
          return target.set(key, value, options)
        }
      },
    })
    const store = kvStore(spy, ['app'])
    await store.put('short', 'x', { expirationTtl: 0.2 })
    await store.put('long', 'y', { expirationTtl: 60 })
    await store.put('forever', 'z')
    assert.deepEqual(sets, [
      { key: ['app', 'short'], expireIn: 200 },
      { key: ['app', 'long'], expireIn: 60_000 },
      { key: ['app', 'forever'], expireIn: undefined },
    ])
    await sleep(250)
    assert.equal(await store.get('short'), null)
    assert.equal(await store.get('long'), 'y')
    assert.deepEqual((await store.list({ prefix: '' })).keys, [
      { name: 'forever' },
      { name: 'long' },
    ])
  }),
)

Deno.test('store: list by string prefix, with a limit', () =>
  withKv(async (kv) => {
    const store = kvStore(kv)
    for (const key of ['outbox:2', 'outbox:1', 'outbox:3', 'outboy', 'outbo', 'rl:x', 'a']) {
      await store.put(key, '1')
    }
    await kv.set(['other', 'outbox:9'], 'not the store')
    const names = async (prefix: string, limit?: number) =>
      (await store.list({ prefix, limit })).keys.map((key) => key.name)
    assert.deepEqual(await names('outbox:'), ['outbox:1', 'outbox:2', 'outbox:3'])
    assert.deepEqual(await names('outbox:', 2), ['outbox:1', 'outbox:2'])
    assert.deepEqual(await names('outbo'), ['outbo', 'outbox:1', 'outbox:2', 'outbox:3', 'outboy'])
    assert.deepEqual(await names('zzz'), [])
  }),
)

Deno.test('limiter: refuses request N+1 with remaining and reset, then a new window', () =>
  withKv(async (kv) => {
    const ns = limiterNamespace(kv)
    const limiter = ns.get(ns.idFromName('ip:1'))
    const now = 1_700_000_000_000
    for (let i = 1; i <= 3; i++) {
      const result = await limiter.hit(3, 60_000, now + i)
      assert.deepEqual(result, {
        allowed: true,
        limit: 3,
        remaining: 3 - i,
        reset: Math.ceil((now + 1 + 60_000) / 1000),
      })
    }
    const refused = await limiter.hit(3, 60_000, now + 10)
    assert.deepEqual(refused, {
      allowed: false,
      limit: 3,
      remaining: 0,
      reset: Math.ceil((now + 1 + 60_000) / 1000),
    })
    // Another key has its own counter.
    assert.equal((await ns.get(ns.idFromName('ip:2')).hit(3, 60_000, now)).allowed, true)
    const next = await limiter.hit(3, 60_000, now + 1 + 60_000)
    assert.equal(next.allowed, true)
    assert.equal(next.remaining, 2)
  }),
)

Deno.test('limiter: a reservation given back frees its place, only in its window', () =>
  withKv(async (kv) => {
    const ns = limiterNamespace(kv)
    const limiter = ns.get(ns.idFromName('signin:a@b'))
    const now = 1_700_000_000_000
    const first = await limiter.reserve(2, 60_000, now)
    const second = await limiter.reserve(2, 60_000, now + 1)
    assert.equal(first.window, now)
    assert.equal(second.remaining, 0)
    const refused = await limiter.reserve(2, 60_000, now + 2)
    assert.equal(refused.allowed, false)
    assert.equal(refused.window, undefined)
    await limiter.release(second.window!)
    const again = await limiter.reserve(2, 60_000, now + 3)
    assert.equal(again.allowed, true)
    assert.equal(again.remaining, 0)
    // A release naming another window changes nothing.
    await limiter.release(now - 60_000)
    assert.equal((await limiter.hit(2, 60_000, now + 4)).allowed, false)
  }),
)

Deno.test('limiter: a token bucket refills on its clock', () =>
  withKv(async (kv) => {
    const ns = limiterNamespace(kv)
    const bucket = ns.get(ns.idFromName('push:1'))
    const now = 1_700_000_000_000
    assert.equal((await bucket.take(2, 1000, now)).remaining, 1)
    assert.equal((await bucket.take(2, 1000, now)).remaining, 0)
    const refused = await bucket.take(2, 1000, now + 500)
    assert.deepEqual(refused, {
      allowed: false,
      limit: 2,
      remaining: 0,
      reset: Math.ceil((now + 2000) / 1000),
      retryAt: Math.ceil((now + 1000) / 1000),
    })
    const refilled = await bucket.take(2, 1000, now + 1000)
    assert.equal(refilled.allowed, true)
    assert.equal(refilled.remaining, 0)
    assert.equal((await bucket.take(2, 1000, now + 3000)).remaining, 1)
  }),
)

Deno.test('limiter: a refunded token can be taken again, never past a full bucket', () =>
  withKv(async (kv) => {
    const ns = limiterNamespace(kv)
    const bucket = ns.get(ns.idFromName('contact:1'))
    // The real clock: a refund keeps the key until the bucket is full by it.
    const now = Date.now()
    assert.equal((await bucket.take(2, 60_000, now)).remaining, 1)
    assert.equal((await bucket.take(2, 60_000, now)).remaining, 0)
    assert.equal((await bucket.take(2, 60_000, now)).allowed, false)
    await bucket.refund(2, 60_000)
    const again = await bucket.take(2, 60_000, now)
    assert.equal(again.allowed, true)
    assert.equal(again.remaining, 0)
    for (let i = 0; i < 5; i++) await bucket.refund(2, 60_000)
    assert.equal((await bucket.take(2, 60_000, now)).remaining, 1)
    assert.equal((await bucket.take(2, 60_000, now)).remaining, 0)
    assert.equal((await bucket.take(2, 60_000, now)).allowed, false)
    // Nothing to give back to: a bucket nobody took from.
    await ns.get(ns.idFromName('contact:2')).refund(2, 60_000)
    assert.equal((await ns.get(ns.idFromName('contact:2')).take(2, 60_000, now)).remaining, 1)
  }),
)

Deno.test('limiter: exact under concurrency (20 parallel hits, limit 10)', () =>
  withKv(async (kv) => {
    const ns = limiterNamespace(kv)
    // Separate stubs, as separate requests would hold.
    const hits = Array.from({ length: 20 }, () => ns.get(ns.idFromName('burst')).hit(10, 60_000))
    const results = await Promise.all(hits)
    assert.equal(results.filter((result) => result.allowed).length, 10)
    const remaining = results.filter((r) => r.allowed).map((r) => r.remaining)
    assert.deepEqual(
      remaining.sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
    const takes = Array.from({ length: 20 }, () =>
      ns.get(ns.idFromName('burst-bucket')).take(10, 60_000),
    )
    const taken = await Promise.all(takes)
    assert.equal(taken.filter((result) => result.allowed).length, 10)
  }),
)

interface Delivery {
  queue: string
  id: string
  body: unknown
  attempts: number
}

const record = (deliveries: Delivery[], batch: QueueBatch) => {
  assert.equal(batch.messages.length, 1)
  const [message] = batch.messages
  deliveries.push({
    queue: batch.queue,
    id: message.id,
    body: message.body,
    attempts: message.attempts,
  })
  return message
}

const CONFIG: QueueConfig = {
  jobs: { maxRetries: 2, deadLetterQueue: 'jobs-dlq' },
  'jobs-dlq': { maxRetries: 0 },
}

Deno.test('queue: delivers a message, and a retry arrives again with attempts 2', () =>
  withKv(async (kv) => {
    const deliveries: Delivery[] = []
    const env = { name: 'env' }
    const seenEnv: unknown[] = []
    const listening = consumeQueues(
      kv,
      CONFIG,
      async (batch, handlerEnv) => {
        seenEnv.push(handlerEnv)
        const message = record(deliveries, batch)
        const body = message.body as { kind: string }
        if (body.kind === 'flaky' && message.attempts === 1) message.retry({ delaySeconds: 0.05 })
        else message.ack()
      },
      env,
    )
    await queueProducer(kv, 'jobs').send({ kind: 'plain' })
    await queueProducer(kv, 'jobs').sendBatch([{ body: { kind: 'flaky' } }])
    await until(() => deliveries.length === 3)
    const plain = deliveries.filter((d) => (d.body as { kind: string }).kind === 'plain')
    const flaky = deliveries.filter((d) => (d.body as { kind: string }).kind === 'flaky')
    assert.deepEqual(
      plain.map((d) => [d.queue, d.attempts]),
      [['jobs', 1]],
    )
    assert.deepEqual(
      flaky.map((d) => [d.queue, d.attempts]),
      [
        ['jobs', 1],
        ['jobs', 2],
      ],
    )
    assert.equal(flaky[0].id, flaky[1].id)
    assert.ok(seenEnv.every((seen) => seen === env))
    // No further deliveries once everything is acknowledged.
    await sleep(200)
    assert.equal(deliveries.length, 3)
    kv.close()
    await listening
  }),
)

Deno.test('queue: a delayed send waits for its delay', () =>
  withKv(async (kv) => {
    const arrived: number[] = []
    const listening = consumeQueues(kv, CONFIG, async () => void arrived.push(Date.now()), {})
    const sent = Date.now()
    await queueProducer(kv, 'jobs').send('later', { delaySeconds: 0.3 })
    await until(() => arrived.length === 1)
    assert.ok(arrived[0] - sent >= 250, `arrived after ${arrived[0] - sent} ms`)
    kv.close()
    await listening
  }),
)

Deno.test('queue: a message out of retries (throws count) lands on the dead-letter queue', () =>
  withKv(async (kv) => {
    const deliveries: Delivery[] = []
    const listening = consumeQueues(
      kv,
      CONFIG,
      async (batch) => {
        record(deliveries, batch)
        if (batch.queue === 'jobs') throw new Error('always fails')
      },
      {},
    )
    await queueProducer(kv, 'jobs').send({ n: 1 })
    await until(() => deliveries.some((d) => d.queue === 'jobs-dlq'))
    assert.deepEqual(
      deliveries.map((d) => [d.queue, d.attempts, d.body]),
      [
        ['jobs', 1, { n: 1 }],
        ['jobs', 2, { n: 1 }],
        ['jobs', 3, { n: 1 }],
        ['jobs-dlq', 1, { n: 1 }],
      ],
    )
    // The dead-letter queue's consumer returned, so nothing more arrives.
    await sleep(200)
    assert.equal(deliveries.length, 4)
    kv.close()
    await listening
  }),
)
