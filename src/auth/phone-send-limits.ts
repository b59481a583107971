// Per-number limits on phone verification codes. The number is the account's, not part of the
// request, so the rate-limit middleware cannot key on it; the send asks the limiter objects itself.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import type { Env } from '../env.ts'
import { limiterFor, limiterUnavailable, limitsDisabled } from '../http/limiter.ts'
import { refuse } from '../http/rate-limit-response.ts'
import { DAY_MS, HOUR_MS } from '../lib/time.ts'
import type { WindowResult } from '../ports/rate-limiter.ts'

// Each code is a WhatsApp message the operator pays for, and a stranger's number must not be
// flooded from many accounts: the same allowance as per user (http/rate-limit.ts).
const NUMBER_LIMITS = [
  { name: 'phone-code-send-number', windowMs: HOUR_MS, limit: 3 },
  { name: 'phone-code-send-number-daily', windowMs: DAY_MS, limit: 5 },
]

/** Counts one send to `digits`; the windows when one refuses it, otherwise undefined. */
export async function hitNumberLimits(
  env: Env,
  digits: string,
): Promise<WindowResult[] | undefined> {
  if (limitsDisabled(env)) return undefined
  let results: WindowResult[]
  try {
    results = await Promise.all(
      NUMBER_LIMITS.map(({ name, windowMs, limit }) =>
        limiterFor(env, `${name}:phone:${digits}`).hit(limit, windowMs),
      ),
    )
  } catch (error) {
    // Like every strict limit: without the counter, refuse rather than send paid messages.
    throw limiterUnavailable(error)
  }
  return results.some((r) => !r.allowed) ? results : undefined
}

/** The same 429 (and Retry-After) the rate-limit middleware gives. */
export function refuseNumber(c: Context<AppEnv>, results: WindowResult[]): Response {
  return refuse(c, results)
}
