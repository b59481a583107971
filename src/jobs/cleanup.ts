// Daily cleanup: finished contests past the retention period, expired sessions and email codes.
import { removeExpiredAuthRecords } from '../auth/cleanup.ts'
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import { removeFinishedBefore } from '../contests/maintenance.ts'
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { DAY_MS } from '../lib/time.ts'

export async function cleanupJob(env: Env, now: number) {
  const db = createDb(env.DB)
  const cutoff = now - settings(env).CONTEST_RETENTION_DAYS * DAY_MS
  const contestsRemoved = await removeFinishedBefore(db, cutoff)
  if (contestsRemoved > 0) await bumpCatalogueVersion(env.KV)
  const auth = await removeExpiredAuthRecords(db, now)
  return { contestsRemoved, ...auth }
}
