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

/**
 * Platforms without a results module whose results clist.by's statistics give (a clist mapping
 * in their descriptor), for friends only: clist shows no profile a proof could be read from. They
 * have results only while CLIST_API_KEY is set.
 */
const CLIST_JUDGES: readonly PlatformModule[] = PLATFORM_MODULES.filter(
  (module: PlatformModule) => !BY_ID.has(module.id) && module.clist !== undefined,
)
const CLIST_BY_ID = new Map(CLIST_JUDGES.map((module) => [module.id, module]))

/** The platforms whose results come from clist.by, in registry order. */
export function clistJudges(): readonly PlatformModule[] {
  return CLIST_JUDGES
}

/** The platform's results come from clist.by (enabled or not). */
export const isClistJudge = (platform: string) => CLIST_BY_ID.has(platform)

/** clist.by can be asked: its key is set. */
export const clistEnabled = (env: Env) => Boolean(settings(env).CLIST_API_KEY)

/** The platforms a friend can be followed on now: every judge, and clist's while it is on. */
export function friendPlatforms(env: Env): string[] {
  return [
    ...JUDGES.map((j) => j.module.id),
    ...(clistEnabled(env) ? CLIST_JUDGES.map((m) => m.id) : []),
  ]
}

/** The refusal of a platform without results, naming those that have them. */
export function noResultsMessage(platform: string, env?: Env): string {
  const ids = env ? friendPlatforms(env) : JUDGES.map((judge) => judge.module.id)
  const why =
    env && isClistJudge(platform)
      ? `${platform}'s results come from clist.by, which is off (CLIST_API_KEY is not set)`
      : `${platform} has no results the service reads`
  return ids.length === 0
    ? `${why}; no judge has them yet`
    : `${why}; platform must be one of: ${ids.join(', ')}`
}

/** Why no own handle is held on a judge whose results come from clist.by. */
const unprovableOnClist = (platform: string) =>
  `${platform}'s results come from clist.by, which shows no profile a proof can be read from, ` +
  'so an own handle there can never be proven'

/** The refusal of an own handle on a judge whose results come from clist.by. */
export const ownOnClistMessage = (platform: string) =>
  `${unprovableOnClist(platform)}: follow the handle as a friend (POST /users/friends)`

/**
 * The refusal to prove an own handle held on such a judge (one linked before its results came
 * from clist.by): removed and followed as a friend, its results are read.
 */
export const proveOnClistMessage = (platform: string) =>
  `${unprovableOnClist(platform)}: remove it (DELETE /users/handles/{id}) and follow it as a ` +
  'friend (POST /users/friends), whose results are read'

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
