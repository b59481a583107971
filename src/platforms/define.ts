// What a platform module declares. Everything else (enums, names and links, settings, the seed,
// the stand-ins, the OpenAPI document) derives from these declarations through the registry.
import type { Env } from '../env.ts'
import type { SourceContest } from './contest.ts'
import type { FixtureRoute } from './fixture-route.ts'
import type { ResultsModule } from './results.ts'
import type { AdapterResult, SourceRequest } from './source.ts'

export type { FixtureRoute }

/**
 * A var of wrangler.toml holding an upstream base URL (so a stand-in can replace it). Checked
 * against the generated Env, so a var missing from wrangler.toml does not compile; where that
 * file is not part of the program (the Node-side config of vitest and the scripts, which see no
 * bindings such as DB), any `*_URL` name passes.
 */
export type UpstreamSetting = 'DB' extends keyof Env
  ? Extract<keyof Env, `${string}_URL`>
  : `${string}_URL`

/** A contest as clist.by lists it (API v4, /contest/), times already read as UTC epoch ms. */
export interface ClistContest {
  id: number
  event: string
  href: string
  startTime: number
  endTime: number
}

export interface ClistMapping<T extends string> {
  /** clist.by's resource name of the platform ("codeforces.com"). */
  resource: string
  /** The platform's own id and type for a clist entry, or undefined when it is not a contest. */
  contest(entry: ClistContest): { platformId: string; type: T; websiteUrl?: string } | undefined
}

export interface PlatformModule<P extends string = string, T extends string = string> {
  id: P
  /** As the platform writes its name: "AtCoder", "GeeksforGeeks". */
  name: string
  homeUrl: string
  /** The platform's own list of contests: the link of a contest synced without one. */
  contestsUrl: string
  /** The contest types of this platform; the first list of `type` values the API accepts. */
  types: readonly [T, ...T[]]
  /** Each type in words for pages ("Beginner (ABC)"); platforms sharing a type share its words. */
  typeNames: { readonly [K in T]: string }
  /**
   * The platform's own source: the var naming its base URL, the default, and the fetch. A
   * platform without one (the long tail) comes from clist.by alone.
   */
  source?: {
    setting: UpstreamSetting
    defaultUrl: string
    fetch(request: SourceRequest): Promise<AdapterResult<SourceContest<P, T>>>
    /** The recorded answers, in the order the source asks for them. */
    fixtures: readonly FixtureRoute[]
  }
  clist?: ClistMapping<T>
  /**
   * The judge's public results (results.ts): how a handle is proven an account's and how a
   * contest's results are read after it ends. A platform without it gets results from clist.by's
   * statistics when a key is set, or none.
   */
  results?: ResultsModule
  /**
   * platformMetadata keys that change between two fetches of an unchanged contest (Codeforces
   * counts relativeTimeSeconds from the moment of the call), left out of the change check.
   */
  volatileMetadata?: readonly string[]
  /**
   * The platform ids an earlier version of the parser stored a contest under (CodeChef's division
   * child codes for a round now keyed by its own code). A listed contest with no row of its own
   * takes such a row over, keeping its id (followers, reminders, history), instead of the old row
   * being cancelled for missing from the list.
   */
  formerIds?(platformId: string): readonly string[]
}

/** Declares a platform; the const parameters keep its id and types as literal types. */
export function definePlatform<const P extends string, const T extends string>(
  module: PlatformModule<P, T>,
): PlatformModule<P, T> {
  return module
}
