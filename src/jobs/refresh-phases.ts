// Scheduler step: refresh stored contest phases from their times, for readers of D1 (the API
// renders the phase from the clock, so a stale stored one never reaches a client).
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import { refreshPhases } from '../contests/maintenance.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'

export async function refreshPhasesJob(env: Env, now: number) {
  const phasesChanged = await refreshPhases(createDb(env.DB), now)
  if (phasesChanged > 0) await bumpCatalogueVersion(env.KV)
  return { phasesChanged }
}
