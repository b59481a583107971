// Admin writes to the catalogue: create (one or up to 100 at once), update and delete.
import { and, eq, or } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import { badRequest, conflict, notFound } from '../lib/errors.ts'
import { contestRuleViolations, type CreateContest, type UpdateContest } from './admin-schemas.ts'
import type { ContestType, Difficulty, Platform } from './schemas.ts'
import { ADMIN_ENTRY, contestSyncHash } from './sync-hash.ts'
import { isReschedule, recordReschedule } from './reschedules.ts'
import { cleanContestInput, type ContestInput } from './contest-input.ts'
import { contestFields, insertContests, sequenceAfter } from './writes.ts'

function toInput(body: CreateContest): ContestInput {
  return { ...body, startTime: Date.parse(body.startTime), endTime: Date.parse(body.endTime) }
}

const keyOf = (c: { platform: string; platformId: string }) => `${c.platform}/${c.platformId}`

/** Creates all the contests or none: duplicates, stored or within the request, are a 409. */
export async function createContests(db: Db, bodies: CreateContest[], now: number) {
  const keys = bodies.map(keyOf)
  const repeated = keys.filter((key, i) => keys.indexOf(key) !== i)
  if (repeated.length > 0) throw conflict(`Contest ${repeated[0]} appears more than once`)
  // Two bound parameters a contest; D1 allows 100 a statement.
  for (let i = 0; i < bodies.length; i += 40) {
    const chunk = bodies.slice(i, i + 40)
    const [first] = await db
      .select({ platform: contests.platform, platformId: contests.platformId })
      .from(contests)
      .where(
        or(
          ...chunk.map((b) =>
            and(eq(contests.platform, b.platform), eq(contests.platformId, b.platformId)),
          ),
        ),
      )
      .limit(1)
    if (first) {
      throw conflict(
        `Contest with platform ${first.platform} and platformId ${first.platformId} already exists`,
      )
    }
  }
  try {
    // Marked as an admin's: no source's list decides whether they stand (sync-hash.ts).
    return await insertContests(db, bodies.map(toInput), now, ADMIN_ENTRY)
  } catch (err) {
    // A concurrent writer got there between the check and the insert; the batch wrote nothing.
    if (String(err).includes('UNIQUE constraint failed')) throw conflict('Contest already exists')
    throw err
  }
}

export async function updateContest(
  db: Db,
  id: string,
  patch: UpdateContest,
  now: number,
): Promise<ContestRow> {
  const current = await db.select().from(contests).where(eq(contests.id, id)).get()
  if (!current) throw notFound(`Contest with ID ${id} not found`)
  const startTime = patch.startTime ? Date.parse(patch.startTime) : current.startTime
  const endTime = patch.endTime ? Date.parse(patch.endTime) : current.endTime
  const type = (patch.type ?? current.type) as ContestType
  const problems = contestRuleViolations({ platform: current.platform, type, startTime, endTime })
  if (problems.length > 0) throw badRequest(problems)

  // Cleaned here too, so the hash is that of what is stored.
  const merged: ContestInput = cleanContestInput({
    platform: current.platform as Platform,
    platformId: current.platformId,
    name: patch.name ?? current.name,
    type,
    startTime,
    endTime,
    description: pick(patch.description, current.description),
    websiteUrl: pick(patch.websiteUrl, current.websiteUrl),
    registrationUrl: pick(patch.registrationUrl, current.registrationUrl),
    difficulty: pick(patch.difficulty, current.difficulty) as Difficulty | undefined,
    participantCount: pick(patch.participantCount, current.participantCount),
    problemCount: pick(patch.problemCount, current.problemCount),
    platformMetadata: pick(patch.platformMetadata, current.platformMetadata),
  })
  const update = db
    .update(contests)
    .set({
      ...contestFields(merged, now),
      sequence: sequenceAfter(startTime, endTime),
      isActive: patch.isActive ?? current.isActive,
      // A new start time re-arms reminders.
      ...(startTime !== current.startTime && { isNotified: false }),
      // An admin's own entry stays one; a source's row keeps a digest for the next sync to compare.
      syncHash: current.syncHash === ADMIN_ENTRY ? ADMIN_ENTRY : contestSyncHash(merged),
      updatedAt: now,
    })
    .where(eq(contests.id, id))
    .returning()
  if (!isReschedule(current.startTime, startTime, now)) return (await update)[0]
  // The update and the record of the reschedule are written together or not at all.
  const [[row]] = await db.batch([
    update,
    recordReschedule(db, id, current.startTime, startTime, now),
  ])
  return row
}

/** undefined keeps the stored value; null clears it. */
function pick<T>(patch: T | null | undefined, stored: T | null): T | undefined {
  if (patch === null) return undefined
  return patch ?? stored ?? undefined
}

export async function deleteContest(db: Db, id: string): Promise<void> {
  const result = await db.delete(contests).where(eq(contests.id, id))
  if (result.meta.changes === 0) throw notFound(`Contest with ID ${id} not found`)
}
