// Catalogue writes shared by the admin endpoints, the sync job and the test helpers.
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'
import { phaseAt } from './serialize.ts'
import { cleanContestInput, type ContestInput } from './contest-input.ts'
import { contestSyncHash } from './sync-hash.ts'

/**
 * The columns that describe a contest as its platform gives it (absent fields stored as null),
 * its texts cleaned: every write of a contest's fields goes through here or newContestRow.
 */
export function contestFields(raw: ContestInput, now: number) {
  const input = cleanContestInput(raw)
  return {
    name: input.name,
    phase: phaseAt(input.startTime, input.endTime, now),
    type: input.type,
    startTime: input.startTime,
    endTime: input.endTime,
    durationMinutes: Math.round((input.endTime - input.startTime) / 60_000),
    description: input.description ?? null,
    websiteUrl: input.websiteUrl ?? null,
    registrationUrl: input.registrationUrl ?? null,
    difficulty: input.difficulty ?? null,
    participantCount: input.participantCount ?? null,
    problemCount: input.problemCount ?? null,
    platformMetadata: input.platformMetadata ?? null,
  }
}

/**
 * The `sequence` of a row an UPDATE gives `startTime` and `endTime`: one more when either moves, so
 * calendars replace their copy. Compared with the stored times inside the same statement (SQLite
 * evaluates every SET expression against the row as it was), so concurrent writers never lose a
 * step and nothing is read first.
 */
export function sequenceAfter(startTime: number, endTime: number): SQL {
  return sql`${contests.sequence} + CASE WHEN ${contests.startTime} <> ${startTime}
    OR ${contests.endTime} <> ${endTime} THEN 1 ELSE 0 END`
}

export function newContestRow(raw: ContestInput, now: number): ContestRow {
  const input = cleanContestInput(raw)
  return {
    id: newId(now),
    platformId: input.platformId,
    platform: input.platform,
    ...contestFields(input, now),
    isActive: input.isActive ?? true,
    isNotified: false,
    sequence: 0,
    syncHash: contestSyncHash(input),
    lastSyncedAt: now,
    createdAt: now,
    updatedAt: now,
  }
}

// D1 binds at most 100 parameters per statement; 23 columns a row leaves room for 4 rows.
export const ROWS_PER_INSERT = 4

/**
 * Inserts contests in one D1 batch, so they are written all together or not at all. `syncHash`,
 * when given, replaces each row's digest (an admin's entries carry ADMIN_ENTRY).
 */
export async function insertContests(
  db: Db,
  inputs: ContestInput[],
  now: number,
  syncHash?: string,
): Promise<ContestRow[]> {
  const rows = inputs.map((input) => ({
    ...newContestRow(input, now),
    ...(syncHash !== undefined && { syncHash }),
  }))
  if (rows.length === 0) return rows
  const statements = []
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    statements.push(db.insert(contests).values(rows.slice(i, i + ROWS_PER_INSERT)))
  }
  await db.batch(statements as [(typeof statements)[0], ...typeof statements])
  return rows
}
