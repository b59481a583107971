// Token-bucket counting as a pure function: a burst of `capacity` requests, then one more every
// `refillMs`. The caller passes `now`, so the Durable Object and the tests share one clock rule.
import type { WindowResult } from '../ports/rate-limiter.ts'

/**
 * The bucket's content is kept in milliseconds of refill time (one token = `refillMs`), so with
 * whole-millisecond clocks every step is integer arithmetic and no rounding can cost a token.
 */
export interface BucketState {
  creditMs: number
  updatedAt: number
}

/** When a bucket in `state` holds `capacity` tokens again, i.e. is as good as never used. */
export function bucketFullAt(state: BucketState, capacity: number, refillMs: number): number {
  return state.updatedAt + Math.max(0, capacity * refillMs - state.creditMs)
}

/**
 * Takes one token if the bucket holds one. The result reads like a window's: `reset` is when the
 * bucket is full again, `retryAt` (set when refused) is when the next token arrives.
 */
export function takeToken(
  state: BucketState | undefined,
  capacity: number,
  refillMs: number,
  now: number,
): { state: BucketState; result: WindowResult } {
  const full = capacity * refillMs
  // A clock that steps back must neither mint tokens nor take them away.
  const updatedAt = Math.max(now, state?.updatedAt ?? now)
  const creditMs = state ? Math.min(full, state.creditMs + (updatedAt - state.updatedAt)) : full
  const allowed = creditMs >= refillMs
  const next = { creditMs: allowed ? creditMs - refillMs : creditMs, updatedAt }
  const result: WindowResult = {
    allowed,
    limit: capacity,
    remaining: Math.floor(next.creditMs / refillMs),
    reset: Math.ceil(bucketFullAt(next, capacity, refillMs) / 1000),
  }
  if (!allowed) result.retryAt = Math.ceil((updatedAt + refillMs - next.creditMs) / 1000)
  return { state: next, result }
}

/**
 * Puts back one token taken for a request that then sent nothing. Capped at a full bucket, as
 * time would cap it: a bucket that refilled meanwhile has nothing to give back to.
 */
export function refundToken(state: BucketState, capacity: number, refillMs: number): BucketState {
  return { ...state, creditMs: Math.min(capacity * refillMs, state.creditMs + refillMs) }
}
