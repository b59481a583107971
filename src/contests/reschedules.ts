// A new start time for a contest that had not started yet is a reschedule: it is kept for the
// notifier, which re-arms the contest's reminders and tells those already reminded. A contest the
// source stopped listing is a cancellation, kept the same way.
import type { Db } from '../db/client.ts'
import { contestCancellations, contestReschedules } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'

export function isReschedule(oldStart: number, newStart: number, now: number): boolean {
  return oldStart !== newStart && oldStart > now
}

export function recordReschedule(
  db: Db,
  contestId: string,
  oldStart: number,
  newStart: number,
  now: number,
) {
  return db.insert(contestReschedules).values({
    id: newId(now),
    contestId,
    oldStartTime: oldStart,
    newStartTime: newStart,
    detectedAt: now,
  })
}

/** A future contest its source stopped listing: kept for the notifier, which tells its followers. */
export function recordCancellation(db: Db, contestId: string, startTime: number, now: number) {
  return db.insert(contestCancellations).values({
    id: newId(now),
    contestId,
    startTime,
    detectedAt: now,
  })
}
