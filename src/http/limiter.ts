// Access to the RateLimiter Durable Object (one object per counter key) and the switch that
// turns every limit off.
import { settings, type Env } from '../env.ts'
import { ApiError } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import type { LimiterStub, Reservation } from '../ports/rate-limiter.ts'

/**
 * The counter of `key`: the Durable Object's typed stub, which satisfies the port, so a change to
 * RateLimiter's methods fails the type check here.
 */
export function limiterFor(env: Env, key: string): LimiterStub {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key))
}

export function limitsDisabled(env: Env): boolean {
  return settings(env).RATE_LIMIT_DISABLED
}

export function logLimiterFailure(error: unknown) {
  log.error('rate-limiter-failed', { error })
}

/** Gives back the places `reserved` holds on `stubs` (one each; undefined for none). */
export async function giveBack(stubs: LimiterStub[], reserved: (Reservation | undefined)[]) {
  try {
    await Promise.all(
      reserved.map((r, i) => (r?.window === undefined ? undefined : stubs[i].release(r.window))),
    )
  } catch (error) {
    // A lost give-back counts one request too many; the answer stands.
    logLimiterFailure(error)
  }
}

/**
 * A claim that succeeds once per key within `ttlSeconds`: one Durable Object counts it, so two
 * requests racing from different locations cannot both win, as they could with a KV read and
 * delete (KV is eventually consistent). Without its counter it refuses rather than allows.
 */
export function claimOnce(env: Env) {
  return async (key: string, ttlSeconds: number): Promise<boolean> => {
    try {
      return (await limiterFor(env, `once:${key}`).hit(1, ttlSeconds * 1000)).allowed
    } catch (error) {
      throw limiterUnavailable(error)
    }
  }
}

/** Limits that guard secrets or cost refuse without their counter rather than allow. */
export function limiterUnavailable(error: unknown): ApiError {
  logLimiterFailure(error)
  return new ApiError(503, 'Service temporarily unavailable')
}
