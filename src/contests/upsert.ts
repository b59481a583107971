// Brings one platform's contests in line with what the platform lists, writing only what changed.
import { eq, inArray } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import { isReschedule, recordCancellation, recordReschedule } from './reschedules.ts'
import type { Platform } from './schemas.ts'
import { contestSyncHash, writtenBySource } from './sync-hash.ts'
import { cleanContestInput, type ContestInput } from './contest-input.ts'
import { contestFields, newContestRow, ROWS_PER_INSERT, sequenceAfter } from './writes.ts'

export interface UpsertResult {
  created: ContestRow[]
  updated: number
  unchanged: number
  rescheduled: number
  /** Contests still to come that the source no longer lists, now inactive: cancelled. */
  cancelled: string[]
  /** D1 statements written, for the sync benchmark. */
  statements: number
}

// Statements per D1 batch: each batch is one transaction, small enough to stay well inside limits.
const STATEMENTS_PER_BATCH = 50
// D1 binds at most 100 parameters a statement.
const IDS_PER_UPDATE = 90

export async function upsertPlatformContests(
  db: Db,
  platform: Platform,
  listed: ContestInput[],
  now: number,
  volatileMetadataKeys: readonly string[] = [],
  /**
   * The inputs are the source's whole list of what is to come (a healthy answer of the platform's
   * own source), so a synced future contest missing from it was cancelled.
   */
  complete = false,
  /** Ids the platform once stored a contest under (PlatformModule.formerIds). */
  formerIds: (platformId: string) => readonly string[] = () => [],
): Promise<UpsertResult> {
  // Cleaned before anything is compared, so the ids and hashes match what is stored.
  const inputs = listed.map(cleanContestInput)
  // Only the columns needed to decide; a platform's whole list fits easily (~80 bytes a row).
  const existing = await db
    .select({
      id: contests.id,
      platformId: contests.platformId,
      syncHash: contests.syncHash,
      startTime: contests.startTime,
      isActive: contests.isActive,
    })
    .from(contests)
    .where(eq(contests.platform, platform))
  const byPlatformId = new Map(existing.map((row) => [row.platformId, row]))

  const created: ContestRow[] = []
  const statements: BatchItem<'sqlite'>[] = []
  let unchanged = 0
  let rescheduled = 0

  // Rows stored under a former id of a listed contest: taken over, or (when the contest has a row
  // of its own too) left as they are rather than cancelled, since the contest is still on.
  const claimed = new Set<string>()
  for (const input of inputs) {
    const hash = contestSyncHash(input, volatileMetadataKeys)
    const former = formerIds(input.platformId)
    for (const id of former) claimed.add(id)
    let current = byPlatformId.get(input.platformId)
    let renamed = false
    if (!current) {
      current = former.map((id) => byPlatformId.get(id)).find((row) => row !== undefined)
      renamed = current !== undefined
      if (current) byPlatformId.delete(current.platformId)
    }
    if (!current) {
      created.push({ ...newContestRow(input, now), syncHash: hash })
      continue
    }
    if (current.syncHash === hash && !renamed) {
      unchanged++
      continue
    }
    // A new start time for a contest that had not started yet is a reschedule: the notifier
    // re-arms its reminders, so it is no longer "notified".
    const moved = isReschedule(current.startTime, input.startTime, now)
    statements.push(
      db
        .update(contests)
        .set({
          ...contestFields(input, now),
          ...(renamed && { platformId: input.platformId }),
          sequence: sequenceAfter(input.startTime, input.endTime),
          syncHash: hash,
          lastSyncedAt: now,
          updatedAt: now,
          // Listed again after the sync cancelled it (its hash cleared): on after all. A contest
          // an admin deactivated keeps its hash, and stays off.
          ...(current.syncHash === null && { isActive: true }),
          ...(moved && { isNotified: false }),
        })
        .where(eq(contests.id, current.id)),
    )
    if (moved) {
      rescheduled++
      statements.push(recordReschedule(db, current.id, current.startTime, input.startTime, now))
    }
  }
  const updated = statements.length - rescheduled

  // Only rows a sync wrote (they carry a hash): an admin's own entry is no source's to cancel. The
  // hash is cleared with it, which marks the row as the sync's cancellation.
  const listedIds = new Set(inputs.map((input) => input.platformId))
  const gone = complete
    ? existing.filter(
        (r) =>
          r.isActive &&
          writtenBySource(r.syncHash) &&
          r.startTime > now &&
          !listedIds.has(r.platformId) &&
          !claimed.has(r.platformId),
      )
    : []
  const cancelled = gone.map((r) => r.id)
  for (const row of gone) statements.push(recordCancellation(db, row.id, row.startTime, now))
  for (let i = 0; i < cancelled.length; i += IDS_PER_UPDATE) {
    statements.push(
      db
        .update(contests)
        .set({ isActive: false, syncHash: null, updatedAt: now })
        .where(inArray(contests.id, cancelled.slice(i, i + IDS_PER_UPDATE))),
    )
  }

  for (let i = 0; i < created.length; i += ROWS_PER_INSERT) {
    // A platform listing one contest twice must not fail the whole platform.
    statements.push(
      db
        .insert(contests)
        .values(created.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoNothing({ target: [contests.platform, contests.platformId] }),
    )
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const chunk = statements.slice(i, i + STATEMENTS_PER_BATCH)
    await db.batch(chunk as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])
  }
  return { created, updated, unchanged, rescheduled, cancelled, statements: statements.length }
}
