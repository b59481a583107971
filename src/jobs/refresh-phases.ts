// Scheduler step: refresh stored contest phases from their times (DESIGN section 9).
import { bumpCatalogueVersion } from '../contests/catalogue-version'
import { refreshPhases } from '../contests/maintenance'
import { createDb } from '../db/client'
import type { Env } from '../env'

export async function refreshPhasesJob(env: Env, now: number) {
  const phasesChanged = await refreshPhases(createDb(env.DB), now)
  if (phasesChanged > 0) await bumpCatalogueVersion(env.KV)
  return { phasesChanged }
}
