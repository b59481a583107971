// Reads of the contest catalogue: plain functions of (db, input, now) over D1.
import { and, asc, count, desc, eq, getTableColumns, gt, gte, lt, lte, type SQL } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Db } from '../db/client.ts'
import { contests, type ContestRow } from '../db/schema.ts'
import {
  MAX_SEARCH_TERMS,
  type ContestType,
  type Difficulty,
  type ListFilters,
  type Phase,
  type Platform,
  type PlatformListFilters,
  type SortField,
} from './schemas.ts'

const LIST_LIMIT = 50
export const SEARCH_LIMIT = 20

const active = eq(contests.isActive, true)

/** Phases are derived from the times, so a filter on phase is a filter on times. */
function phaseCondition(phase: Phase, now: number): SQL {
  if (phase === 'BEFORE') return gt(contests.startTime, now)
  if (phase === 'FINISHED') return lt(contests.endTime, now)
  return and(lte(contests.startTime, now), gte(contests.endTime, now)) as SQL
}

const platformIs = (platform?: Platform) => (platform ? eq(contests.platform, platform) : undefined)

export async function findContest(db: Db, id: string): Promise<ContestRow | undefined> {
  return db.select().from(contests).where(eq(contests.id, id)).get()
}

/** The next `limit` contests to start, of one platform or of all (also the bots' answers). */
export function listUpcoming(
  db: Db,
  platform: Platform | undefined,
  now: number,
  limit = LIST_LIMIT,
) {
  return db
    .select()
    .from(contests)
    .where(and(active, gt(contests.startTime, now), platformIs(platform)))
    .orderBy(asc(contests.startTime))
    .limit(limit)
}

export function listRunning(db: Db, platform: Platform | undefined, now: number) {
  return db
    .select()
    .from(contests)
    .where(and(active, phaseCondition('CODING', now), platformIs(platform)))
    .orderBy(asc(contests.startTime))
    .limit(LIST_LIMIT)
}

export function listFinished(db: Db, platform: Platform | undefined, now: number) {
  return db
    .select()
    .from(contests)
    .where(and(active, lt(contests.endTime, now), platformIs(platform)))
    .orderBy(desc(contests.endTime))
    .limit(LIST_LIMIT)
}

export function listByPlatform(
  db: Db,
  platform: Platform,
  filters: PlatformListFilters,
  now: number,
) {
  return db
    .select()
    .from(contests)
    .where(
      and(
        active,
        eq(contests.platform, platform),
        filters.phase && phaseCondition(filters.phase, now),
        filters.type && eq(contests.type, filters.type),
        filters.difficulty && eq(contests.difficulty, filters.difficulty),
      ),
    )
    .orderBy(asc(contests.startTime))
    .limit(filters.limit)
}

export function listByDifficulty(db: Db, difficulty: Difficulty) {
  return db
    .select()
    .from(contests)
    .where(and(active, eq(contests.difficulty, difficulty)))
    .orderBy(asc(contests.startTime))
    .limit(LIST_LIMIT)
}

export function listByType(db: Db, type: ContestType) {
  return db
    .select()
    .from(contests)
    .where(and(active, eq(contests.type, type)))
    .orderBy(asc(contests.startTime))
    .limit(LIST_LIMIT)
}

/**
 * The words a search looks for: runs of letters and digits, lowercased, each once, the first
 * MAX_SEARCH_TERMS of them. FTS5's cost grows with the square of the phrases it is given and with
 * the rows each one matches, so repeats and the count are cut here, where every search (API and
 * home page) passes, and the scan stops at the last word kept. Every term matches as a prefix,
 * so a word that begins another ("c", "con", "contest") narrows nothing: only the longest stays,
 * in the place of the first.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = []
  // The whole text is lowercased before it is split, so a combining mark that a lowercase form
  // adds (İ becomes i and a dot) separates words instead of landing inside a quoted term.
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (terms.some((term) => term.startsWith(word))) continue
    // No kept term begins another, so at most one begins this word.
    const shorter = terms.findIndex((term) => word.startsWith(term))
    if (shorter >= 0) terms[shorter] = word
    else if (terms.push(word) === MAX_SEARCH_TERMS) break
  }
  return terms
}

/**
 * Turns free text into an FTS5 query: special characters are dropped, each remaining word is
 * quoted (so FTS5 operators in the input mean nothing) and matched as a prefix.
 */
export function toFtsQuery(text: string): string | undefined {
  const terms = searchTerms(text)
  return terms.length > 0 ? terms.map((w) => `"${w}"*`).join(' ') : undefined
}

/**
 * The most matches a search ranks. bm25 is worked out for every row ranked, so a word found in
 * half the catalogue made one search cost as much as the catalogue is large; past this many, the
 * most recently added matches are ranked (the highest rowids, which FTS5 yields first and stops).
 */
export const SEARCH_CANDIDATES = 1000

// Every column of a contest, named as ContestRow names it, so the search reads whole rows in the
// statement that ranks them: one D1 call, no second lookup by id.
const CONTEST_COLUMNS = Object.entries(getTableColumns(contests))
export const CONTEST_SELECT = CONTEST_COLUMNS.map(
  ([key, col]) => `c."${col.name}" AS "${key}"`,
).join(', ')

/** A row as D1 returns it, in ContestRow's types (JSON parsed, booleans), as Drizzle maps one. */
export function contestRowOf(raw: Record<string, unknown>): ContestRow {
  const row: Record<string, unknown> = {}
  for (const [key, col] of CONTEST_COLUMNS) {
    const value = raw[key]
    row[key] = value === null || value === undefined ? null : col.mapFromDriverValue(value)
  }
  return row as ContestRow
}

/** bm25's weights: a hit in the name counts ten times one in the description. */
export const SEARCH_WEIGHTS = { name: 10, description: 1 } as const

// CROSS JOIN keeps the matches the outer loop: without statistics the planner would walk every
// active contest instead.
export const SEARCH_SQL = `SELECT ${CONTEST_SELECT} FROM (
    SELECT rowid, bm25(contests_fts, ${SEARCH_WEIGHTS.name}, ${SEARCH_WEIGHTS.description}) AS score
    FROM contests_fts
    WHERE contests_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}
  ) m CROSS JOIN contests c ON c.rowid = m.rowid
  WHERE c.is_active = 1
  ORDER BY m.score, c.start_time
  LIMIT ?2`

export async function searchContests(db: Db, text: string): Promise<ContestRow[]> {
  const match = toFtsQuery(text)
  if (!match) return []
  const { results } = await db.$client
    .prepare(SEARCH_SQL)
    .bind(match, SEARCH_LIMIT)
    .all<Record<string, unknown>>()
  return results.map(contestRowOf)
}

const sortColumns: Record<SortField, AnySQLiteColumn> = {
  startTime: contests.startTime,
  endTime: contests.endTime,
  name: contests.name,
  participantCount: contests.participantCount,
  createdAt: contests.createdAt,
}

/** The count and page statements of GET /contests, run together in one batch. */
export function contestListQueries(db: Db, filters: ListFilters, now: number) {
  const where = and(
    active,
    platformIs(filters.platform),
    filters.phase && phaseCondition(filters.phase, now),
    filters.type && eq(contests.type, filters.type),
    filters.difficulty && eq(contests.difficulty, filters.difficulty),
    filters.startDate ? gte(contests.startTime, Date.parse(filters.startDate)) : undefined,
    filters.endDate ? lte(contests.startTime, Date.parse(filters.endDate)) : undefined,
  )
  const order = filters.sortOrder === 'desc' ? desc : asc
  // The id breaks ties so that pages never overlap or skip rows.
  return {
    total: db.select({ total: count() }).from(contests).where(where),
    page: db
      .select()
      .from(contests)
      .where(where)
      .orderBy(order(sortColumns[filters.sortBy]), order(contests.id))
      .limit(filters.limit)
      .offset(filters.offset),
  }
}

export async function listContests(db: Db, filters: ListFilters, now: number) {
  const queries = contestListQueries(db, filters, now)
  const [[{ total }], rows] = await db.batch([queries.total, queries.page])
  return { rows, total }
}
