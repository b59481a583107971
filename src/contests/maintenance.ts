// Periodic upkeep of the catalogue: stored phases follow the clock, old contests are removed.
import { and, gt, gte, lt, lte, ne } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests } from '../db/schema.ts'

/** Brings the stored phase in line with the times; returns how many rows changed. */
export async function refreshPhases(db: Db, now: number): Promise<number> {
  const results = await db.batch([
    db
      .update(contests)
      .set({ phase: 'BEFORE', updatedAt: now })
      .where(and(gt(contests.startTime, now), ne(contests.phase, 'BEFORE'))),
    db
      .update(contests)
      .set({ phase: 'CODING', updatedAt: now })
      .where(
        and(lte(contests.startTime, now), gte(contests.endTime, now), ne(contests.phase, 'CODING')),
      ),
    db
      .update(contests)
      .set({ phase: 'FINISHED', updatedAt: now })
      .where(and(lt(contests.endTime, now), ne(contests.phase, 'FINISHED'))),
  ])
  return results.reduce((sum, r) => sum + r.meta.changes, 0)
}

/** Deletes contests that ended before `cutoff`; returns how many went. */
export async function removeFinishedBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.delete(contests).where(lt(contests.endTime, cutoff))
  return result.meta.changes
}
