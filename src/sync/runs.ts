// The record of sync runs: one row per platform per run, and when each platform last synced.
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { syncRuns } from '../db/schema.ts'
import type { Platform } from '../contests/schemas.ts'

export type SyncRunInput = Omit<typeof syncRuns.$inferInsert, 'id'> & { id: string }

// D1 binds at most 100 parameters a statement, and a run has 10 columns.
const RUNS_PER_INSERT = 9

/** One run per platform, written in one batch (succeeds or fails whole). */
export async function recordSyncRuns(db: Db, runs: SyncRunInput[]): Promise<void> {
  const inserts = []
  for (let i = 0; i < runs.length; i += RUNS_PER_INSERT) {
    inserts.push(db.insert(syncRuns).values(runs.slice(i, i + RUNS_PER_INSERT)))
  }
  if (inserts.length > 0) await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts])
}

/** When `platform` last synced successfully (epoch ms), or null if it never has. */
export async function lastSuccessfulSync(db: Db, platform: Platform): Promise<number | null> {
  const row = await db
    .select({ finishedAt: syncRuns.finishedAt })
    .from(syncRuns)
    .where(and(eq(syncRuns.platform, platform), eq(syncRuns.status, 'success')))
    .orderBy(desc(syncRuns.finishedAt))
    .limit(1)
    .get()
  return row?.finishedAt ?? null
}
