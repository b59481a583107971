// What the notifier needs from the catalogue: contests to remind about or list in digests, the
// contest a send is about, the isNotified flag, and reschedules and cancellations waiting to be
// announced.
import { and, asc, eq, gt, isNull, lte, sql, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { idList } from '../db/id-list.ts'
import {
  contestCancellations,
  contestReschedules,
  contests,
  type ContestRow,
} from '../db/schema.ts'

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

export async function findContestsByIds(db: Db, ids: readonly string[]): Promise<ContestRow[]> {
  if (ids.length === 0) return []
  return contestsQuery(db, idList(ids))
}

/**
 * The statement reading contests by id; `ids` is a subquery (or a bound list), so the caller can
 * batch it with the read that names the contests.
 */
export function contestsQuery(db: Db, ids: SQLWrapper) {
  return db
    .select()
    .from(contests)
    .where(sql`${contests.id} IN ${ids}`)
}

/**
 * Takes a contest's notified mark back (its reminders could not all be made), so the next run
 * walks its followers again; a contest rescheduled meanwhile (new start) is left alone.
 */
export async function unmarkContestNotified(
  db: Db,
  mark: { id: string; startTime: number },
  now: number,
) {
  await db
    .update(contests)
    .set({ isNotified: false, updatedAt: now })
    .where(and(eq(contests.id, mark.id), eq(contests.startTime, mark.startTime)))
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
  if (ids.length === 0) return
  await db
    .update(contestReschedules)
    .set({ handledAt: now })
    .where(sql`${contestReschedules.id} IN ${idList(ids)}`)
}

/** Cancellations the sync recorded and nobody has announced yet, oldest first. */
export function pendingCancellations(db: Db, limit: number) {
  return db
    .select()
    .from(contestCancellations)
    .where(isNull(contestCancellations.handledAt))
    .orderBy(asc(contestCancellations.detectedAt))
    .limit(limit)
}

export async function markCancellationsHandled(db: Db, ids: readonly string[], now: number) {
  if (ids.length === 0) return
  await db
    .update(contestCancellations)
    .set({ handledAt: now })
    .where(sql`${contestCancellations.id} IN ${idList(ids)}`)
}
