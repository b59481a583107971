// What the notifier needs from the catalogue: contests to remind about or list in digests, the
// contest a send is about, the isNotified flag, and reschedules waiting to be announced.
import { and, asc, eq, gt, inArray, isNull, lte, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contestReschedules, contests, type ContestRow } from '../db/schema.ts'

const active = eq(contests.isActive, true)

/** Active contests not yet marked notified that start after `now` and no later than `until`. */
export function listContestsToNotify(db: Db, now: number, until: number, limit: number) {
  return db
    .select()
    .from(contests)
    .where(
      and(
        active,
        eq(contests.isNotified, false),
        gt(contests.startTime, now),
        lte(contests.startTime, until),
      ),
    )
    .orderBy(asc(contests.startTime), asc(contests.id))
    .limit(limit)
}

/** Active contests starting after `from` and no later than `until`, soonest first. */
export function listContestsStartingBetween(db: Db, from: number, until: number, limit: number) {
  return db
    .select()
    .from(contests)
    .where(and(active, gt(contests.startTime, from), lte(contests.startTime, until)))
    .orderBy(asc(contests.startTime), asc(contests.id))
    .limit(limit)
}

/** Marks contests notified; a contest rescheduled meanwhile (new start) is left alone. */
export async function markContestsNotified(
  db: Db,
  marks: readonly { id: string; startTime: number }[],
  now: number,
): Promise<void> {
  if (marks.length === 0) return
  const statements = marks.map((m) =>
    db
      .update(contests)
      .set({ isNotified: true, updatedAt: now })
      .where(and(eq(contests.id, m.id), eq(contests.startTime, m.startTime))),
  )
  await db.batch(statements as [(typeof statements)[0], ...typeof statements])
}

// Ids go into IN lists; D1 binds at most 100 parameters a statement.
const IDS_PER_QUERY = 90

export async function findContestsByIds(db: Db, ids: readonly string[]): Promise<ContestRow[]> {
  const rows: ContestRow[] = []
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY)
    rows.push(...(await db.select().from(contests).where(inArray(contests.id, chunk))))
  }
  return rows
}

/**
 * The statement reading one contest; `id` may be a subquery, so the caller can batch it with the
 * read that names the contest.
 */
export function contestQuery(db: Db, id: string | SQLWrapper) {
  return db.select().from(contests).where(eq(contests.id, id))
}

/** Reschedules the sync recorded and nobody has announced yet, oldest first. */
export function pendingReschedules(db: Db, limit: number) {
  return db
    .select()
    .from(contestReschedules)
    .where(isNull(contestReschedules.handledAt))
    .orderBy(asc(contestReschedules.detectedAt))
    .limit(limit)
}

export async function markReschedulesHandled(db: Db, ids: readonly string[], now: number) {
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    await db
      .update(contestReschedules)
      .set({ handledAt: now })
      .where(inArray(contestReschedules.id, ids.slice(i, i + IDS_PER_QUERY)))
  }
}
