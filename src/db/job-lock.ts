// Leases in D1 that keep two runs of one job from overlapping, across isolates and locations; the
// job_locks table belongs to this mechanism.
import { and, eq, lt } from 'drizzle-orm'
import type { Db } from './client.ts'
import { jobLocks } from './schema.ts'

/** Takes the lease `name` unless someone holds an unexpired one; true when taken. */
export async function acquireLock(
  db: Db,
  name: string,
  holder: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .insert(jobLocks)
    .values({ name, holder, expiresAt: now + leaseMs })
    .onConflictDoUpdate({
      target: jobLocks.name,
      set: { holder, expiresAt: now + leaseMs },
      // An expired lease belongs to a run that crashed; it may be taken over.
      setWhere: lt(jobLocks.expiresAt, now),
    })
  return result.meta.changes === 1
}

export async function releaseLock(db: Db, name: string, holder: string): Promise<void> {
  await db.delete(jobLocks).where(and(eq(jobLocks.name, name), eq(jobLocks.holder, holder)))
}
