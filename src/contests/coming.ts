// Reads of the contests running now or starting soon, narrowed by platforms, type and search words.
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import { toFtsQuery } from './queries.ts'
import type { ContestType, Platform } from './schemas.ts'

/** Each field narrows the list; an absent one does not. */
export interface ComingFilters {
  platforms?: readonly Platform[]
  type?: ContestType
  /** Free text, matched as the catalogue's search matches it (every word a prefix). */
  text?: string
  /** Shortest and longest duration shown, in minutes, as the feeds' minDuration/maxDuration. */
  minDuration?: number
  maxDuration?: number
  /** The last start time shown (epoch ms). */
  until: number
  limit: number
}

// The catalogue's own search (the FTS5 index and its query words), kept to the rows in the window,
// so a match among finished contests never crowds out the ones still to come.
const matching = (match: string) =>
  sql`${contests}.rowid IN (SELECT rowid FROM contests_fts WHERE contests_fts MATCH ${match})`

/**
 * The statement of comingContests (active contests that end at or after `now` and start by
 * `until`, by start time), or undefined when the filters can match nothing.
 */
export function comingContestsQuery(db: Db, filters: ComingFilters, now: number) {
  const { platforms, type, text, minDuration, maxDuration, until, limit } = filters
  const match = text === undefined ? undefined : toFtsQuery(text)
  // Words the search cannot use (only punctuation) match nothing, as GET /contests/search answers.
  if (platforms?.length === 0 || (text !== undefined && !match)) return undefined
  return (
    db
      .select()
      .from(contests)
      .where(
        and(
          eq(contests.isActive, true),
          lte(contests.startTime, until),
          gte(contests.endTime, now),
          platforms && inArray(contests.platform, [...platforms]),
          type && eq(contests.type, type),
          minDuration !== undefined ? gte(contests.durationMinutes, minDuration) : undefined,
          maxDuration !== undefined ? lte(contests.durationMinutes, maxDuration) : undefined,
          match ? matching(match) : undefined,
        ),
      )
      // By start time alone, as GET /contests/upcoming: the index gives that order without a sort.
      .orderBy(asc(contests.startTime))
      .limit(limit)
  )
}

export async function comingContests(
  db: Db,
  filters: ComingFilters,
  now: number,
): Promise<ContestRow[]> {
  return (await comingContestsQuery(db, filters, now)) ?? []
}

/**
 * A subquery of the active contests starting after `fromParam` and by `untilParam` (SQL
 * parameters of the caller's statement), with what matching reads of them, for the set-based
 * statements of other features (community announcements): id, platform, type, its division (or
 * ''), start_time, duration_minutes and the lower-cased name (ASCII only, as SQLite folds it).
 */
export const startingContestsSql = (fromParam: string, untilParam: string) =>
  `SELECT id, platform, type, coalesce(json_extract(platform_metadata, '$.division'), '') AS division,
      start_time, duration_minutes, lower(name) AS name
    FROM contests
    WHERE is_active = 1 AND start_time > ${fromParam} AND start_time <= ${untilParam}`
