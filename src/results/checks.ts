// The result checks (result_checks): one row per ended contest whose results the service awaits,
// made set-based by the scheduler, claimed by the results queue's consumer while it asks the
// judge, and moved on by the backoff (backoff.ts).
import { listContestsEndedBetween } from '../contests/ended.ts'
import type { Db } from '../db/client.ts'
import {
  CHECK_CREATION_WINDOW_MS,
  CLAIM_MS,
  FIRST_CHECK_AFTER_MS,
  GIVE_UP_AFTER_MS,
  NEVER,
  nextRecheck,
  waitAfter,
} from './backoff.ts'
import { platformHasLinkedSql } from './handles-sql.ts'

export interface CheckRow {
  contestId: string
  platform: string
  state: 'WAITING' | 'PUBLISHED' | 'GAVE_UP'
  attempts: number
  nextCheckAt: number
  rated: number | null
  participants: number | null
  resultsDigest: string | null
  publishedAt: number | null
  /** Results asked per handle: the last handle key asked, null before the walk's first. */
  walkAfter: string | null
}

const CHECK_COLUMNS = `contest_id AS contestId, platform, state, attempts,
  next_check_at AS nextCheckAt, rated, participants, results_digest AS resultsDigest,
  published_at AS publishedAt, walk_after AS walkAfter`

// Contests a scheduler run looks at; ended contests are few (a few hundred a day at most).
const CONTESTS_PER_RUN = 1000

/**
 * A check for each contest of `platforms` (those whose judge declares results) that ended within
 * the creation window, on a platform where some account linked a handle (own proven, or a
 * friend's): one INSERT OR IGNORE over the contests bound as JSON, so a second run or a
 * concurrent one adds nothing. Answers how many were made.
 */
export async function createResultChecks(
  db: Db,
  platforms: readonly string[],
  now: number,
): Promise<number> {
  const ended = await listContestsEndedBetween(
    db,
    platforms,
    now - CHECK_CREATION_WINDOW_MS,
    now,
    CONTESTS_PER_RUN,
  )
  if (ended.length === 0) return 0
  const { meta } = await db.$client
    .prepare(
      `INSERT OR IGNORE INTO result_checks (contest_id, platform, state, attempts, next_check_at,
          created_at, updated_at)
        SELECT c.value ->> 0, c.value ->> 1, 'WAITING', 0, (c.value ->> 2) + ?2, ?3, ?3
        FROM json_each(?1) c
        WHERE ${platformHasLinkedSql('c.value ->> 1')}`,
    )
    .bind(
      JSON.stringify(ended.map((c) => [c.id, c.platform, c.endTime])),
      FIRST_CHECK_AFTER_MS,
      now,
    )
    .run()
  return meta.changes
}

/** Checks due at `now` that nobody holds: the ids the scheduler queues. */
export async function dueChecks(db: Db, now: number, limit = 500): Promise<string[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT contest_id AS id FROM result_checks
        WHERE state IN ('WAITING', 'PUBLISHED') AND next_check_at <= ?1
          AND (claimed_until IS NULL OR claimed_until <= ?1)
        ORDER BY next_check_at LIMIT ?2`,
    )
    .bind(now, limit)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}

/**
 * Takes the check for one ask: due (or, for the message going on with a walk over handles from
 * where it stopped, `walkAfter`, whenever), not held by another consumer. Undefined when it is
 * not (a duplicate message, a walk message the walk went past, a check another invocation holds,
 * or one not due yet).
 */
export async function claimCheck(
  db: Db,
  contestId: string,
  now: number,
  { walkAfter }: { walkAfter?: string } = {},
): Promise<CheckRow | undefined> {
  const row = await db.$client
    .prepare(
      `UPDATE result_checks SET claimed_until = ?2, updated_at = ?3
        WHERE contest_id = ?1 AND state IN ('WAITING', 'PUBLISHED')
          AND (next_check_at <= ?3 OR walk_after = ?4)
          AND (claimed_until IS NULL OR claimed_until <= ?3)
        RETURNING ${CHECK_COLUMNS}`,
    )
    .bind(contestId, now + CLAIM_MS, now, walkAfter ?? null)
    .first<CheckRow>()
  return row ?? undefined
}

/**
 * A walk over handles stops until `at`, after the handle key `after`: the check let go, and not
 * due for the scheduler's sweep until a while after, so only the walk's own message goes on with
 * it. A message lost makes it due again, and the sweep's goes on from `after` too.
 */
export async function pauseWalk(
  db: Db,
  contestId: string,
  at: number,
  after: string | null,
): Promise<void> {
  await db.$client
    .prepare(
      `UPDATE result_checks SET claimed_until = NULL, next_check_at = ?2, walk_after = ?3
        WHERE contest_id = ?1`,
    )
    .bind(contestId, at + CLAIM_MS, after)
    .run()
}

/** The walk over handles has asked up to `after` (its last handle), whatever comes next. */
export async function keepWalk(db: Db, contestId: string, after: string): Promise<void> {
  await db.$client
    .prepare('UPDATE result_checks SET walk_after = ?2 WHERE contest_id = ?1')
    .bind(contestId, after)
    .run()
}

/** Lets go of a check without asking (the judge's pace), for the message queued again. */
export async function releaseCheck(db: Db, contestId: string): Promise<void> {
  await db.$client
    .prepare('UPDATE result_checks SET claimed_until = NULL WHERE contest_id = ?1')
    .bind(contestId)
    .run()
}

/**
 * Nothing final yet (or asking failed): the next check after the backoff's wait, or GAVE_UP once
 * the contest ended GIVE_UP_AFTER_MS ago. A published contest whose results went away (a
 * Codeforces rollback empties ratingChanges) keeps its rows and its re-check schedule, with the
 * backoff's wait in between. Answers the next check's time, undefined when given up.
 */
export async function recordUnanswered(
  db: Db,
  check: CheckRow,
  endTime: number,
  now: number,
  error: string | null,
): Promise<number | undefined> {
  const attempts = check.attempts + 1
  const pastGiveUp = now + waitAfter(attempts) > endTime + GIVE_UP_AFTER_MS
  const giveUp = check.state === 'WAITING' && pastGiveUp
  // A published contest past the same bound keeps what it has and is asked no more.
  const next = giveUp ? now : pastGiveUp ? NEVER : now + waitAfter(attempts)
  await db.$client
    .prepare(
      `UPDATE result_checks SET attempts = ?2, next_check_at = ?3, state = ?4, error = ?5,
          claimed_until = NULL, updated_at = ?6
        WHERE contest_id = ?1`,
    )
    .bind(check.contestId, attempts, next, giveUp ? 'GAVE_UP' : check.state, error, now)
    .run()
  return giveUp || next === NEVER ? undefined : next
}

export interface Publication {
  rated: boolean
  /** Participants the judge counted; null when it does not say (results asked per handle). */
  participants: number | null
  digest: string
}

/**
 * The results are published: recorded with their digest (first publication time kept), the next
 * re-check set (backoff.ts), the claim let go. Results asked per handle are re-checked never
 * (`walkAfter`, the walk's last handle, given): a re-check would ask every linked handle again,
 * against the pace's one request per handle per contest. Answers the next re-check's time.
 */
export async function recordPublished(
  db: Db,
  check: CheckRow,
  publication: Publication,
  now: number,
  { walkAfter }: { walkAfter?: string | null } = {},
): Promise<number> {
  const publishedAt = check.publishedAt ?? now
  const next = walkAfter === undefined ? nextRecheck(publishedAt, now) : NEVER
  await db.$client
    .prepare(
      `UPDATE result_checks SET state = 'PUBLISHED', attempts = ?2, next_check_at = ?3, rated = ?4,
          participants = ?5, results_digest = ?6, published_at = ?7, error = NULL,
          claimed_until = NULL, updated_at = ?8, walk_after = ?9
        WHERE contest_id = ?1`,
    )
    .bind(
      check.contestId,
      check.attempts + 1,
      next,
      publication.rated ? 1 : 0,
      publication.participants,
      publication.digest,
      publishedAt,
      now,
      walkAfter ?? null,
    )
    .run()
  return next
}

/** A check's row as it is (tests, and the consumer's view after a write). */
export async function findCheck(db: Db, contestId: string): Promise<CheckRow | undefined> {
  const row = await db.$client
    .prepare(`SELECT ${CHECK_COLUMNS} FROM result_checks WHERE contest_id = ?1`)
    .bind(contestId)
    .first<CheckRow>()
  return row ?? undefined
}

/** How many took part in the contest, as its judge counted them at the last publication. */
export async function contestParticipants(db: Db, contestId: string): Promise<number | null> {
  const row = await db.$client
    .prepare('SELECT participants FROM result_checks WHERE contest_id = ?1')
    .bind(contestId)
    .first<{ participants: number | null }>()
  return row?.participants ?? null
}

/** A check whose platform has no results module any more: given up at once. */
export async function giveUpCheck(db: Db, contestId: string, reason: string, now: number) {
  await db.$client
    .prepare(
      `UPDATE result_checks SET state = 'GAVE_UP', error = ?2, claimed_until = NULL,
          updated_at = ?3 WHERE contest_id = ?1`,
    )
    .bind(contestId, reason, now)
    .run()
}

/**
 * An operator's "ask now": the contest's check, awaited or published, made due at `now` (a judge
 * that published early, a re-calculation announced, an outage fixed). The backoff goes on from
 * the answer. Answers the check as it is now, undefined when the contest has none.
 */
export async function makeCheckDue(
  db: Db,
  contestId: string,
  now: number,
): Promise<CheckRow | undefined> {
  const row = await db.$client
    .prepare(
      `UPDATE result_checks SET next_check_at = ?2, updated_at = ?2
        WHERE contest_id = ?1 AND state IN ('WAITING', 'PUBLISHED')
        RETURNING ${CHECK_COLUMNS}`,
    )
    .bind(contestId, now)
    .first<CheckRow>()
  return row ?? (await findCheck(db, contestId))
}
