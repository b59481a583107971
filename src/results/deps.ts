// What the results consumer needs from the outside, built once from the environment: D1, the
// results queue, each platform's results reader and upstream base (its source's var, as a sync
// reads it; clist.by's, with the key and its shared budget, for a platform clist reads), and the
// judge's pace, one token bucket per platform in the RateLimiter Durable Object.
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { limiterFor, limitsDisabled } from '../http/limiter.ts'
import { isPlatform, PLATFORM_MODULES, platformModule } from '../platforms/registry.ts'
import { CLIST_BUDGET_KEY, type BudgetTake } from '../platforms/clist/client.ts'
import { clistResultsReader } from '../platforms/clist/results.ts'
import type { ResultsReader } from '../platforms/results.ts'
import { UPSTREAM_TIMEOUT_MS, userAgent } from '../platforms/source.ts'
import { clistEnabled, clistJudges, isClistJudge } from './judges.ts'
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

/**
 * The share of clist's budget results may take: half of CLIST_REQUESTS_PER_MINUTE, rounded down,
 * so the contest source (a broken source's fallback, the long tail) always has the other half.
 */
export const clistResultsShare = (perMinute: number) => Math.floor(perMinute / 2)

/**
 * One request of clist's budget for results: the same fixed window as the contest source's
 * (CLIST_BUDGET_KEY), counted against the results' share. A refused request is not counted, so
 * results stop at their share and the contest source goes on up to the whole budget.
 */
export function clistResultsBudget(env: Env) {
  return async (): Promise<BudgetTake> => {
    if (limitsDisabled(env)) return { allowed: true }
    const share = clistResultsShare(settings(env).CLIST_REQUESTS_PER_MINUTE)
    if (share <= 0) return { allowed: false, retryAt: Date.now() + 60_000 }
    const counted = await limiterFor(env, CLIST_BUDGET_KEY).hit(share, 60_000)
    if (counted.allowed) return { allowed: true }
    return { allowed: false, retryAt: (counted.retryAt ?? counted.reset) * 1000 }
  }
}

const CLIST_READERS = new Map(clistJudges().map((m) => [m.id, clistResultsReader(m)]))

/** The reader of a platform's results now: its own module, or clist's while the key is set. */
export function resultsReaderOf(env: Env, platform: string): ResultsReader | undefined {
  if (!isPlatform(platform)) return undefined
  const own = platformModule(platform).results
  if (own) return own
  return clistEnabled(env) ? CLIST_READERS.get(platform) : undefined
}

export function resultsDeps(env: Env, onPublished: readonly OnPublished[]): ResultsDeps {
  const config = settings(env)
  const vars = env as unknown as Record<string, string | undefined>
  const agent = userAgent(config.APP_URL)
  const budget = clistResultsBudget(env)
  return {
    db: createDb(env.DB),
    queue: env.RESULTS_QUEUE as QueueProducer<ResultsMessage>,
    module: (platform) => resultsReaderOf(env, platform),
    request: (platform, now) => {
      const module = isPlatform(platform) ? platformModule(platform) : undefined
      const source = module?.source
      const viaClist = module && !module.results && isClistJudge(platform)
      const base = {
        fetchFn: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
        now,
        userAgent: agent,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }
      if (viaClist && config.CLIST_API_KEY) {
        return {
          ...base,
          baseUrl: config.CLIST_API_URL,
          clist: { apiKey: config.CLIST_API_KEY, takeRequest: budget },
        }
      }
      return { ...base, baseUrl: source ? vars[source.setting] || source.defaultUrl : '' }
    },
    pace: paceOf(env),
    onPublished,
  }
}

/**
 * The platforms whose results are read: those the scheduler makes checks for. A judge's own
 * module always; the platforms clist.by reads only while CLIST_API_KEY is set.
 */
export function platformsWithResults(env?: Env): string[] {
  return PLATFORM_MODULES.filter((m) =>
    m.results ? true : env !== undefined && resultsReaderOf(env, m.id) !== undefined,
  ).map((m) => m.id)
}
