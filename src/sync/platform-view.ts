// Each platform as GET /platforms and /contests/health show it: how fresh its contests are and
// where they come from.
import type { PlatformView } from '../contests/schemas.ts'
import { upcomingByPlatform } from '../contests/stats.ts'
import { createDb, type Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import type { KeyValueStore } from '../ports/key-value.ts'
import { syncedPlatforms, syncDeps } from './deps.ts'
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

/** The platforms of `env`'s catalogue as they are now, for GET /platforms. */
export function platformsOf(env: Env, now: number): Promise<PlatformView[]> {
  return listPlatforms(createDb(env.DB), syncedPlatforms(syncDeps(env)), now)
}

// The list as the last sync left it, for /contests/health, which answers without touching D1.
const SNAPSHOT_KEY = 'platforms:snapshot'

export async function publishPlatformsSnapshot(
  db: Db,
  kv: KeyValueStore,
  synced: readonly Platform[],
  now: number,
): Promise<void> {
  await kv.put(SNAPSHOT_KEY, JSON.stringify(await listPlatforms(db, synced, now)))
}

/**
 * The last sync's list; before any sync, each platform as the registry declares it, never synced.
 * Counts are as of that sync: a contest that started since is still counted as upcoming.
 */
export async function platformsSnapshot(env: Env): Promise<PlatformView[]> {
  const stored = await env.KV.get<PlatformView[]>(SNAPSHOT_KEY, 'json')
  if (stored) return stored
  const synced = syncedPlatforms(syncDeps(env))
  return PLATFORM_MODULES.map((module) => {
    const enabled = synced.includes(module.id as Platform)
    return {
      id: module.id as Platform,
      name: module.name,
      homeUrl: module.homeUrl,
      enabled,
      upcoming: 0,
      state: 'ok' as const,
      source: module.source ? ('own' as const) : ('clist' as const),
      stale: enabled,
    }
  })
}
