// Scheduler step: refresh stored contest phases from their times (DESIGN section 9).
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import { refreshPhases } from '../contests/maintenance.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'

export async function refreshPhasesJob(env: Env, now: number) {
  const phasesChanged = await refreshPhases(createDb(env.DB), now)
  if (phasesChanged > 0) await bumpCatalogueVersion(env.KV)
  return { phasesChanged }
}
