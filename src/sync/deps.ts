// What a sync needs from the outside (D1, KV, fetch, each platform's upstream base, clist.by
// access), built once from the environment, and which platforms a sync of everything covers.
import { createDb, type Db } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { limiterFor, limitsDisabled } from '../http/limiter.ts'
import { CLIST_BUDGET_KEY, type BudgetTake } from '../platforms/clist/client.ts'
import type { PlatformModule } from '../platforms/define.ts'
import { PLATFORM_MODULES, type Platform } from '../platforms/registry.ts'
import { userAgent, type FetchFn } from '../platforms/source.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

export interface ClistAccess {
  baseUrl: string
  apiKey: string
  /** Long-tail platforms the operator chose to follow through clist.by. */
  platforms: ReadonlySet<string>
  /** One request of clist.by's budget (10 a minute), shared by every sync in every isolate. */
  takeRequest: () => Promise<BudgetTake>
}

export interface SyncDeps {
  db: Db
  kv: KeyValueStore
  fetchFn: FetchFn
  retentionDays: number
  userAgent: string
  /** Per upstream request; UPSTREAM_TIMEOUT_MS unless given (tests of a stalled source). */
  timeoutMs?: number
  /** Each platform's upstream base: its var in the environment, else the module's default. */
  baseUrl: (module: PlatformModule) => string
  clist?: ClistAccess
}

/** The real dependencies of a sync: D1, KV, the settings and the global fetch. */
export function syncDeps(env: Env): SyncDeps {
  const config = settings(env)
  const vars = env as unknown as Record<string, string | undefined>
  return {
    db: createDb(env.DB),
    kv: env.KV,
    fetchFn: (input, init) => fetch(input, init),
    retentionDays: config.CONTEST_RETENTION_DAYS,
    userAgent: userAgent(config.APP_URL),
    baseUrl: (module) => vars[module.source!.setting] || module.source!.defaultUrl,
    ...(config.CLIST_API_KEY && {
      clist: {
        baseUrl: config.CLIST_API_URL,
        apiKey: config.CLIST_API_KEY,
        platforms: new Set(config.CLIST_PLATFORMS),
        takeRequest: async () => {
          if (limitsDisabled(env)) return { allowed: true }
          const counted = await limiterFor(env, CLIST_BUDGET_KEY).hit(
            config.CLIST_REQUESTS_PER_MINUTE,
            60_000,
          )
          if (counted.allowed) return { allowed: true }
          return { allowed: false, retryAt: (counted.retryAt ?? counted.reset) * 1000 }
        },
      },
    }),
  }
}

/** The platforms a sync of everything covers: those with a source of their own, and the long
 * tail the operator follows through clist.by when it is configured. */
export function syncedPlatforms(deps: Pick<SyncDeps, 'clist'>): Platform[] {
  return PLATFORM_MODULES.filter((m) => m.source || clistServes(deps, m)).map((m) => m.id)
}

/** A platform with no source of its own that clist.by lists: asked for with the others in one
 * request of clist's budget. */
export function isLongTail(deps: Pick<SyncDeps, 'clist'>, module: PlatformModule): boolean {
  return module.source === undefined && clistServes(deps, module)
}

export function clistServes(deps: Pick<SyncDeps, 'clist'>, module: PlatformModule): boolean {
  if (!deps.clist || !module.clist) return false
  return module.source !== undefined || deps.clist.platforms.has(module.id)
}
