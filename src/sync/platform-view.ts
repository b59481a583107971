// Each platform as GET /platforms and /contests/health show it: how fresh its contests are and
// where they come from.
import type { PlatformView } from '../contests/schemas.ts'
import { upcomingByPlatform } from '../contests/stats.ts'
import { createDb, type Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { syncedPlatforms, syncDeps } from './job.ts'
import { HOUR_MS, toIso, toIsoOrUndefined } from '../lib/time.ts'
import { PLATFORM_MODULES, type Platform } from '../platforms/registry.ts'
import { readPlatformStatuses } from './platform-status.ts'

// Two missed six-hourly syncs: past this a platform's list is shown as stale.
export const STALE_AFTER_MS = 12 * HOUR_MS

/** Every platform of the registry, in its order; `synced` says which ones a sync covers. */
export async function listPlatforms(
  db: Db,
  synced: readonly Platform[],
  now: number,
): Promise<PlatformView[]> {
  const [statuses, upcoming] = await Promise.all([
    readPlatformStatuses(db),
    upcomingByPlatform(db, now),
  ])
  return PLATFORM_MODULES.map((module) => {
    const status = statuses.get(module.id)
    const enabled = synced.includes(module.id as Platform)
    const lastSuccess = status?.lastSuccessAt ?? null
    return {
      id: module.id as Platform,
      name: module.name,
      homeUrl: module.homeUrl,
      enabled,
      upcoming: upcoming.get(module.id) ?? 0,
      state: status?.state ?? 'ok',
      source: status?.source ?? (module.source ? 'own' : 'clist'),
      stale: enabled && (lastSuccess === null || now - lastSuccess > STALE_AFTER_MS),
      ...(lastSuccess !== null && { lastSuccess: toIso(lastSuccess) }),
      ...(status && { lastAttempt: toIsoOrUndefined(status.lastAttemptAt) }),
    }
  })
}

/** The platforms of `env`'s catalogue, for the routes: /platforms and /contests/health. */
export function platformsOf(env: Env, now: number): Promise<PlatformView[]> {
  return listPlatforms(createDb(env.DB), syncedPlatforms(syncDeps(env)), now)
}
