// An account's recent results (GET /users/results): the stored rows of its own proven handles,
// each with its contest, newest contest first, a page at a time. One read joins contest_results to
// judge_handles (by platform and handle key, the results join's index) and to the contest; the
// count beside it in the same batch. The judge's titles are read in JS from its results module.
import {
  CONTEST_OF_RESULT_COLUMNS,
  CONTEST_OF_RESULT_ORDER,
  joinContestOfResultSql,
} from '../contests/ended.ts'
import type { Db } from '../db/client.ts'
import { isPlatform, platformModule } from '../platforms/registry.ts'

/** A page holds at most this many results. */
export const MAX_RESULTS_PAGE = 50

/** One stored result as the list reads it. */
export interface RecentResultRow {
  contestId: string
  contestName: string
  platform: string
  startTime: number
  websiteUrl: string | null
  handleId: string
  handle: string
  rated: number
  rank: number | null
  solved: number | null
  oldRating: number | null
  newRating: number | null
  participants: number | null
}

// The account's own proven handles only: an unproven own handle (or a friend's) shows nothing,
// though rows of it may be stored for another account that holds or follows it.
const FROM_OWN_RESULTS = `judge_handles h
  JOIN contest_results r ON r.platform = h.platform AND r.handle_key = h.handle_key
  ${joinContestOfResultSql('r.contest_id')}
  WHERE h.user_id = ?1 AND h.relation = 'OWN' AND h.state = 'PROVEN'`

export const RECENT_RESULTS_SQL = `SELECT r.contest_id AS contestId, ${CONTEST_OF_RESULT_COLUMNS},
    h.id AS handleId, r.handle, r.rated, r.rank, r.solved, r.old_rating AS oldRating,
    r.new_rating AS newRating,
    (SELECT k.participants FROM result_checks k WHERE k.contest_id = r.contest_id) AS participants
  FROM ${FROM_OWN_RESULTS}
  ORDER BY ${CONTEST_OF_RESULT_ORDER}, r.handle_key
  LIMIT ?2 OFFSET ?3`

const COUNT_SQL = `SELECT count(*) AS n FROM ${FROM_OWN_RESULTS}`

/** A page of the account's results and how many there are in all. */
export async function recentResults(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: RecentResultRow[]; total: number }> {
  const d1 = db.$client
  const [rows, count] = await d1.batch<RecentResultRow | { n: number }>([
    d1.prepare(RECENT_RESULTS_SQL).bind(userId, page.limit, page.offset),
    d1.prepare(COUNT_SQL).bind(userId),
  ])
  return {
    rows: rows.results as RecentResultRow[],
    total: (count.results[0] as { n: number } | undefined)?.n ?? 0,
  }
}

/** A stored result as the API shows it: the delta, and the judge's title when it changed. */
export function toApiResult(row: RecentResultRow, iso: (ms: number) => string) {
  const rated = row.oldRating !== null && row.newRating !== null
  const rank = isPlatform(row.platform) ? platformModule(row.platform).results?.rank : undefined
  const oldTitle = rated && rank ? rank(row.oldRating!).title : undefined
  const newTitle = rated && rank ? rank(row.newRating!).title : undefined
  return {
    contest: {
      id: row.contestId,
      name: row.contestName,
      platform: row.platform,
      startTime: iso(row.startTime),
      ...(row.websiteUrl && { url: row.websiteUrl }),
    },
    handleId: row.handleId,
    handle: row.handle,
    rated: row.rated === 1,
    rank: row.rank,
    participants: row.participants,
    solved: row.solved,
    oldRating: row.oldRating,
    newRating: row.newRating,
    delta: rated ? row.newRating! - row.oldRating! : null,
    titleChange:
      newTitle && newTitle !== oldTitle ? { from: oldTitle ?? null, to: newTitle } : null,
  }
}
