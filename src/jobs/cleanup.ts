// Daily cleanup: finished contests past the retention period leave the catalogue.
import { bumpCatalogueVersion } from '../contests/catalogue-version'
import { removeFinishedBefore } from '../contests/maintenance'
import { createDb } from '../db/client'
import { settings, type Env } from '../env'
import { DAY_MS } from '../lib/time'

export async function cleanupJob(env: Env, now: number) {
  const cutoff = now - settings(env).CONTEST_RETENTION_DAYS * DAY_MS
  const contestsRemoved = await removeFinishedBefore(createDb(env.DB), cutoff)
  if (contestsRemoved > 0) await bumpCatalogueVersion(env.KV)
  return { contestsRemoved }
}
