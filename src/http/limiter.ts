// Access to the RateLimiter Durable Object (one object per counter key) and the switch that
// turns every limit off.
import { settings, type Env } from '../env.ts'
import { ApiError } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import type { Reservation, WindowResult } from '../rate-limit/window.ts'

/**
 * The object's methods as the app calls them (RPC), without naming the Workers class. limiterFor
 * returns the typed stub as this, so a change to RateLimiter's methods fails the type check here.
 */
export interface LimiterStub {
  hit(limit: number, windowMs: number): Promise<WindowResult>
  take(capacity: number, refillMs: number): Promise<WindowResult>
  reserve(limit: number, windowMs: number): Promise<Reservation>
  release(window: number): Promise<void>
}

export function limiterFor(env: Env, key: string): LimiterStub {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key))
}

export function limitsDisabled(env: Env): boolean {
  return settings(env).RATE_LIMIT_DISABLED
}

export function logLimiterFailure(error: unknown) {
  log.error('rate-limiter-failed', { error })
}

/** Limits that guard secrets or cost refuse without their counter rather than allow. */
export function limiterUnavailable(error: unknown): ApiError {
  logLimiterFailure(error)
  return new ApiError(503, 'Service temporarily unavailable')
}
