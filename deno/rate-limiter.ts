// The rate limiter on Deno KV: the Durable Object namespace's shape, each counter kept exact
// under concurrency by check-and-set on its key's versionstamp, with the Durable Object's arithmetic.
import type { LimiterStub, Reservation, WindowResult } from '../src/ports/rate-limiter.ts'
import {
  bucketFullAt,
  refundToken,
  takeToken,
  type BucketState,
} from '../src/rate-limit/token-bucket.ts'
import { consumeWindow, type WindowState } from '../src/rate-limit/window.ts'

/** Like RateLimiter's methods: `now` may be passed so tests can step the clock. */
export interface KvLimiterStub extends LimiterStub {
  hit(limit: number, windowMs: number, now?: number): Promise<WindowResult>
  take(capacity: number, refillMs: number, now?: number): Promise<WindowResult>
  refund(capacity: number, refillMs: number): Promise<void>
  reserve(limit: number, windowMs: number, now?: number): Promise<Reservation>
  release(window: number): Promise<void>
}

export interface KvLimiterId {
  readonly name: string
  toString(): string
}

/** The part of `DurableObjectNamespace<RateLimiter>` that src/http/limiter.ts uses. */
export interface KvLimiterNamespace {
  idFromName(name: string): KvLimiterId
  get(id: KvLimiterId): KvLimiterStub
}

interface WindowEntry extends WindowState {
  /** Wall-clock time the key expires, so a release keeps the hit's expiry. */
  expiresAt: number
}

/** A check-and-set loop gives up after this many lost races (each loss is another's success). */
const MAX_ATTEMPTS = 1000

/** Reads `key`, lets `change` compute the next value, and commits it unless the key moved. */
async function update<T, R>(
  kv: Deno.Kv,
  key: Deno.KvKey,
  change: (current: T | null) => { next?: { value: T; expireIn: number }; result: R },
): Promise<R> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<T>(key)
    const { next, result } = change(entry.value)
    if (!next) return result
    const expireIn = Math.max(1, Math.ceil(next.expireIn))
    const { ok } = await kv.atomic().check(entry).set(key, next.value, { expireIn }).commit()
    if (ok) return result
  }
  throw new Error(`Rate limiter counter ${JSON.stringify(key)} is too contended`)
}

function stub(kv: Deno.Kv, prefix: Deno.KvKey, name: string): KvLimiterStub {
  const windowKey = [...prefix, name, 'window']
  const bucketKey = [...prefix, name, 'bucket']

  const count = (limit: number, windowMs: number, now: number) =>
    update<WindowEntry, ReturnType<typeof consumeWindow>>(kv, windowKey, (stored) => {
      const counted = consumeWindow(stored ?? undefined, limit, windowMs, now)
      const { start, count } = counted.state
      // The key lives until its window ends, as the Durable Object's alarm frees its storage.
      const expireIn = start + windowMs - now
      const value = { start, count, expiresAt: Date.now() + expireIn }
      return { next: { value, expireIn }, result: counted }
    })

  return {
    async hit(limit, windowMs, now = Date.now()) {
      return (await count(limit, windowMs, now)).result
    },

    async reserve(limit, windowMs, now = Date.now()) {
      const { state, result } = await count(limit, windowMs, now)
      return result.allowed ? { ...result, window: state.start } : result
    },

    async release(window) {
      await update<WindowEntry, void>(kv, windowKey, (stored) => {
        // A window that has ended is not given back to: the new one never counted it.
        if (stored?.start !== window || stored.count <= 0) return { result: undefined }
        const value = { ...stored, count: stored.count - 1 }
        return { next: { value, expireIn: stored.expiresAt - Date.now() }, result: undefined }
      })
    },

    take(capacity, refillMs, now = Date.now()) {
      return update<BucketState, WindowResult>(kv, bucketKey, (stored) => {
        const { state, result } = takeToken(stored ?? undefined, capacity, refillMs, now)
        // A full bucket is the same as no bucket, so the key expires once it has refilled.
        const expireIn = bucketFullAt(state, capacity, refillMs) - now
        return { next: { value: state, expireIn }, result }
      })
    },

    async refund(capacity, refillMs) {
      await update<BucketState, void>(kv, bucketKey, (stored) => {
        // An expired bucket is a full one: nothing to give back to.
        if (!stored) return { result: undefined }
        const value = refundToken(stored, capacity, refillMs)
        const expireIn = bucketFullAt(value, capacity, refillMs) - Date.now()
        return { next: { value, expireIn }, result: undefined }
      })
    },
  }
}

/** Counters under `[...prefix, name]` in `kv`, reached as the app reaches the Durable Object. */
export function limiterNamespace(
  kv: Deno.Kv,
  prefix: Deno.KvKey = ['rate-limiter'],
): KvLimiterNamespace {
  return {
    idFromName: (name) => ({ name, toString: () => name }),
    get: (id) => stub(kv, prefix, id.name),
  }
}
