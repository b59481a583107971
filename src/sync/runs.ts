// The record of sync runs: one row per platform per run, and when each platform last synced.
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { syncRuns } from '../db/schema.ts'
import type { Platform } from '../contests/schemas.ts'

export type SyncRunInput = Omit<typeof syncRuns.$inferInsert, 'id'> & { id: string }

export async function recordSyncRuns(db: Db, runs: SyncRunInput[]): Promise<void> {
  if (runs.length > 0) await db.insert(syncRuns).values(runs)
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
