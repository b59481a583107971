// The own results a digest carries: for a page of the digest's recipients, the rows of their
// proven handles stored or changed within the digest's period (published since the last digest,
// or re-calculated), each with its contest, in one read. The digest run (notifications/) calls it;
// the judge's titles are read there, by the result kind.
import { CONTEST_OF_RESULT_COLUMNS, joinContestOfResultSql } from '../contests/ended.ts'
import type { Db } from '../db/client.ts'
import { takesOwnResultsSql } from './handles-sql.ts'

export interface DigestResultRow {
  userId: string
  contestId: string
  contestName: string
  platform: string
  startTime: number
  websiteUrl: string | null
  handle: string
  rated: number
  rank: number | null
  solved: number | null
  oldRating: number | null
  newRating: number | null
  participants: number | null
}

// ?1 the users (a JSON array of ids), ?2 and ?3 the period [from, until). Each user's own proven
// handles through the (user, relation, platform, handle) key, their rows through the (platform,
// handle, updated_at) index; an account that turned its own results off gets none here either.
export const DIGEST_RESULTS_SQL = `SELECT h.user_id AS userId, r.contest_id AS contestId,
    ${CONTEST_OF_RESULT_COLUMNS}, r.handle, r.rated, r.rank, r.solved, r.old_rating AS oldRating,
    r.new_rating AS newRating,
    (SELECT k.participants FROM result_checks k WHERE k.contest_id = r.contest_id) AS participants
  FROM json_each(?1) p
    JOIN judge_handles h ON h.user_id = p.value AND h.relation = 'OWN' AND h.state = 'PROVEN'
    JOIN contest_results r ON r.platform = h.platform AND r.handle_key = h.handle_key
      AND r.updated_at >= ?2 AND r.updated_at < ?3
    ${joinContestOfResultSql('r.contest_id')}
  WHERE ${takesOwnResultsSql('h.user_id')}
  ORDER BY h.user_id, c.start_time, c.id, r.handle_key`

/** The results of `userIds` within [from, until), by user, each user's in contest order. */
export async function digestResults(
  db: Db,
  userIds: readonly string[],
  from: number,
  until: number,
): Promise<Map<string, DigestResultRow[]>> {
  const byUser = new Map<string, DigestResultRow[]>()
  if (userIds.length === 0) return byUser
  const { results } = await db.$client
    .prepare(DIGEST_RESULTS_SQL)
    .bind(JSON.stringify(userIds), from, until)
    .all<DigestResultRow>()
  for (const row of results) {
    const list = byUser.get(row.userId)
    if (list) list.push(row)
    else byUser.set(row.userId, [row])
  }
  return byUser
}
