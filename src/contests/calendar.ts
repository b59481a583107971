// Reads of the contests a calendar feed shows: upcoming, running and recently finished.
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import { DAY_MS } from '../lib/time.ts'
import type { ContestType, Platform } from './schemas.ts'

/** How long a finished contest stays in a feed, so a calendar keeps the recent past. */
export const CALENDAR_FINISHED_DAYS = 30

/**
 * At most this many contests a feed. Four platforms hold a few hundred in the window; the bound
 * only keeps a runaway catalogue from building an answer no calendar would load.
 */
export const CALENDAR_LIMIT = 2000

// D1 binds at most 100 parameters per statement.
const IDS_PER_STATEMENT = 90

/** Each field narrows the feed; an absent field does not (an empty list selects nothing). */
export interface CalendarFilters {
  platforms?: readonly Platform[]
  types?: readonly ContestType[]
  minDuration?: number | null
  maxDuration?: number | null
}

const inWindow = (now: number) =>
  and(eq(contests.isActive, true), gte(contests.endTime, now - CALENDAR_FINISHED_DAYS * DAY_MS))

/** Active contests in the window that pass `filters`, by start time. */
export async function calendarContests(
  db: Db,
  filters: CalendarFilters,
  now: number,
): Promise<ContestRow[]> {
  const { platforms, types, minDuration, maxDuration } = filters
  if (platforms?.length === 0 || types?.length === 0) return []
  return db
    .select()
    .from(contests)
    .where(
      and(
        inWindow(now),
        platforms && inArray(contests.platform, [...platforms]),
        types && inArray(contests.type, [...types]),
        minDuration != null ? gte(contests.durationMinutes, minDuration) : undefined,
        maxDuration != null ? lte(contests.durationMinutes, maxDuration) : undefined,
      ),
    )
    .orderBy(asc(contests.startTime), asc(contests.id))
    .limit(CALENDAR_LIMIT)
}

/** The active contests in the window among `ids` (in any order; unknown ids are skipped). */
export async function calendarContestsByIds(
  db: Db,
  ids: readonly string[],
  now: number,
): Promise<ContestRow[]> {
  const reads = []
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT)
    reads.push(
      db
        .select()
        .from(contests)
        .where(and(inWindow(now), inArray(contests.id, chunk))),
    )
  }
  return (await Promise.all(reads)).flat()
}
