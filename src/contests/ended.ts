// What the results pipeline needs from the catalogue: the contests of some platforms that ended
// within a stretch of time, whose results it will wait for.
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contests } from '../db/schema.ts'

/** Active contests of `platforms` that ended after `from` and no later than `until`. */
export function listContestsEndedBetween(
  db: Db,
  platforms: readonly string[],
  from: number,
  until: number,
  limit: number,
) {
  if (platforms.length === 0) return Promise.resolve([])
  return db
    .select({ id: contests.id, platform: contests.platform, endTime: contests.endTime })
    .from(contests)
    .where(
      and(
        eq(contests.isActive, true),
        gt(contests.endTime, from),
        lte(contests.endTime, until),
        inArray(contests.platform, [...platforms]),
      ),
    )
    .orderBy(asc(contests.endTime), asc(contests.id))
    .limit(limit)
}

/**
 * The contest of a result row (`idExpr`, a column of the caller's SQL) joined as `c`, for the
 * results layer's reads of a handle's recent results; CONTEST_OF_RESULT_COLUMNS names what they
 * show of it.
 */
export const joinContestOfResultSql = (idExpr: string) => `JOIN contests c ON c.id = ${idExpr}`

export const CONTEST_OF_RESULT_COLUMNS = `c.name AS contestName, c.platform AS platform,
  c.start_time AS startTime, c.website_url AS websiteUrl`

/** The order of those reads: the newest contest first, ties by id. */
export const CONTEST_OF_RESULT_ORDER = `c.start_time DESC, c.id DESC`
