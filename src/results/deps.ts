// What the results consumer needs from the outside, built once from the environment: D1, the
// results queue, each platform's results module and upstream base (its source's var, as a sync
// reads it), and the judge's pace, one token bucket per platform in the RateLimiter Durable Object.
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { limiterFor, limitsDisabled } from '../http/limiter.ts'
import { isPlatform, PLATFORM_MODULES, platformModule } from '../platforms/registry.ts'
import { UPSTREAM_TIMEOUT_MS, userAgent } from '../platforms/source.ts'
import type { OnPublished, Pace, ResultsDeps, ResultsMessage } from './consumer.ts'
import type { QueueProducer } from '../ports/queue.ts'

/** The counter of a platform's pace: a key of its own, so judges never wait on each other. */
export const paceKey = (platform: string) => `results:${platform}`

/**
 * One request of the platform's pace: a bucket of one token refilled every `minIntervalMs`, kept
 * by the Durable Object across invocations and isolates. Refused: when the token is back.
 */
export function paceOf(env: Env) {
  return async (platform: string, minIntervalMs: number): Promise<Pace> => {
    if (limitsDisabled(env) || minIntervalMs <= 0) return { allowed: true }
    const taken = await limiterFor(env, paceKey(platform)).take(1, minIntervalMs)
    if (taken.allowed) return { allowed: true }
    return { allowed: false, retryAt: (taken.retryAt ?? taken.reset) * 1000 }
  }
}

export function resultsDeps(env: Env, onPublished: readonly OnPublished[]): ResultsDeps {
  const config = settings(env)
  const vars = env as unknown as Record<string, string | undefined>
  const agent = userAgent(config.APP_URL)
  return {
    db: createDb(env.DB),
    queue: env.RESULTS_QUEUE as QueueProducer<ResultsMessage>,
    module: (platform) => (isPlatform(platform) ? platformModule(platform).results : undefined),
    request: (platform, now) => {
      const source = isPlatform(platform) ? platformModule(platform).source : undefined
      return {
        baseUrl: source ? vars[source.setting] || source.defaultUrl : '',
        fetchFn: (input, init) => fetch(input, init),
        now,
        userAgent: agent,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }
    },
    pace: paceOf(env),
    onPublished,
  }
}

/** The platforms whose judge declares results: those the scheduler makes checks for. */
export function platformsWithResults(): string[] {
  return PLATFORM_MODULES.filter((m) => m.results).map((m) => m.id)
}
