// The judges with public results (a `results` module on their descriptor), and what one request to
// such a judge needs: its source's base URL from the environment, fetch, the service's User-Agent.
import { settings, type Env } from '../env.ts'
import type { PlatformModule } from '../platforms/define.ts'
import { PLATFORM_MODULES } from '../platforms/registry.ts'
import type { ResultsModule, ResultsRequest } from '../platforms/results.ts'
import { userAgent } from '../platforms/source.ts'

/** A platform whose descriptor declares results, with both at hand. */
export interface ResultsJudge {
  module: PlatformModule
  results: ResultsModule
}

// A results module is asked under its source's base (the stand-ins serve its fixtures there too),
// so a judge declaring results without a source of its own has nowhere to be asked.
const JUDGES: readonly ResultsJudge[] = PLATFORM_MODULES.flatMap((module: PlatformModule) =>
  module.results && module.source ? [{ module, results: module.results }] : [],
)

const BY_ID = new Map(JUDGES.map((judge) => [judge.module.id, judge]))

/** Every judge with results, in registry order. */
export function resultsJudges(): readonly ResultsJudge[] {
  return JUDGES
}

/** The judge's results, or undefined for a platform that publishes none the service reads. */
export function resultsJudge(platform: string): ResultsJudge | undefined {
  return BY_ID.get(platform)
}

/** The refusal of a platform without results, naming those that have them. */
export function noResultsMessage(platform: string): string {
  const ids = JUDGES.map((judge) => judge.module.id)
  return ids.length === 0
    ? `${platform} has no results the service reads; no judge has them yet`
    : `${platform} has no results the service reads; platform must be one of: ${ids.join(', ')}`
}

/**
 * One request's context for the judge, built from the environment as a sync's is
 * (sync/deps.ts): the base URL from the source's setting, else its default.
 */
export function resultsRequest(env: Env, judge: ResultsJudge, now: number): ResultsRequest {
  const vars = env as unknown as Record<string, string | undefined>
  const source = judge.module.source!
  return {
    baseUrl: vars[source.setting] || source.defaultUrl,
    fetchFn: (input, init) => fetch(input, init),
    userAgent: userAgent(settings(env).APP_URL),
    now,
  }
}
