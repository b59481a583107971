// Stores a contest's published results: only the rows of handles some account linked, written
// set-based (the judge's rows bound as JSON, joined to judge_handles in SQL), chunked so no bound
// string nears D1's 2 MB. A row that changed (a re-calculation) is updated; its told delta stays,
// so the alert step sees the change.
import type { Db } from '../db/client.ts'
import { sha256Hex } from '../lib/crypto.ts'
import type { ResultRow } from '../platforms/results.ts'
import { MEMBER_COUNTS_SQL } from './community-members.ts'
import { isLinkedSql, LINKED_HANDLE_SQL } from './handles-sql.ts'

/** Characters of one statement's rows (?5) at most: well below D1's 2 MB a string. */
export const ROW_CHARS_PER_STATEMENT = 500_000

/** A judge's row as bound: [handle key, handle, rank, solved, old, new, performance]. */
type BoundRow = [
  string,
  string,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
]

const bound = (row: ResultRow): BoundRow => [
  row.handle.toLowerCase(),
  row.handle,
  row.rank ?? null,
  row.solved ?? null,
  row.oldRating ?? null,
  row.newRating ?? null,
  row.performance ?? null,
]

/**
 * ?1 contest, ?2 platform, ?3 rated, ?4 now, ?5 the rows. A row changed by a re-calculation is
 * updated (told_delta kept); an unchanged one is left as it is.
 */
export const STORE_RESULTS_SQL = `INSERT INTO contest_results (contest_id, platform, handle_key,
    handle, rank, solved, old_rating, new_rating, performance, rated, told_delta, updated_at)
  SELECT ?1, ?2, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4,
    j.value ->> 5, j.value ->> 6, ?3, NULL, ?4
  FROM json_each(?5) j
  WHERE ${isLinkedSql('?2', 'j.value ->> 0')}
  ON CONFLICT (contest_id, handle_key) DO UPDATE SET handle = excluded.handle,
    rank = excluded.rank, solved = excluded.solved, old_rating = excluded.old_rating,
    new_rating = excluded.new_rating, performance = excluded.performance, rated = excluded.rated,
    updated_at = excluded.updated_at
  WHERE rank IS NOT excluded.rank OR solved IS NOT excluded.solved
    OR old_rating IS NOT excluded.old_rating OR new_rating IS NOT excluded.new_rating
    OR performance IS NOT excluded.performance OR rated IS NOT excluded.rated`

/** Each row as its bound JSON array: made once for both the statements and the digest. */
const boundLines = (rows: readonly ResultRow[]) => rows.map((row) => JSON.stringify(bound(row)))

/** The lines cut into JSON arrays of at most `maxChars` characters each. */
function lineChunks(lines: readonly string[], maxChars: number) {
  const chunks: string[] = []
  let current: string[] = []
  let chars = 2
  for (const text of lines) {
    if (current.length > 0 && chars + text.length + 1 > maxChars) {
      chunks.push(`[${current.join(',')}]`)
      current = []
      chars = 2
    }
    current.push(text)
    chars += text.length + 1
  }
  if (current.length > 0) chunks.push(`[${current.join(',')}]`)
  return chunks
}

async function storeLines(
  db: Db,
  contest: { id: string; platform: string },
  rated: boolean,
  lines: readonly string[],
  now: number,
  maxChars: number,
): Promise<number> {
  const chunks = lineChunks(lines, maxChars)
  if (chunks.length === 0) return 0
  const d1 = db.$client
  const results = await d1.batch(
    chunks.map((chunk) =>
      d1.prepare(STORE_RESULTS_SQL).bind(contest.id, contest.platform, rated ? 1 : 0, now, chunk),
    ),
  )
  return results.reduce((sum, r) => sum + r.meta.changes, 0)
}

/**
 * Writes the linked handles' rows of one answer in one D1 batch (one statement per chunk, never
 * one per handle); answers how many rows were written or changed.
 */
export function storeResults(
  db: Db,
  contest: { id: string; platform: string },
  rated: boolean,
  rows: readonly ResultRow[],
  now: number,
  maxChars = ROW_CHARS_PER_STATEMENT,
): Promise<number> {
  return storeLines(db, contest, rated, boundLines(rows), now, maxChars)
}

/** Stores an answer's rows (storeResults) and answers their digest (resultsDigest). */
export async function storeAnswer(
  db: Db,
  contest: { id: string; platform: string },
  rated: boolean,
  rows: readonly ResultRow[],
  now: number,
): Promise<string> {
  const lines = boundLines(rows)
  await storeLines(db, contest, rated, lines, now, ROW_CHARS_PER_STATEMENT)
  return digestOf(rated, lines)
}

const digestOf = (rated: boolean, lines: readonly string[]) =>
  sha256Hex(`${rated ? 1 : 0}\n${[...lines].sort().join('\n')}`)

/**
 * A digest of an answer's rows, in handle order, to tell a later answer that differs (a rollback
 * or re-calculation) from the same one asked again.
 */
export function resultsDigest(rated: boolean, rows: readonly ResultRow[]): Promise<string> {
  return digestOf(rated, boundLines(rows))
}

/** The stored rows of a contest, for the digest of results asked per handle. */
export async function storedRows(db: Db, contestId: string): Promise<ResultRow[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT handle, rank, solved, old_rating AS oldRating, new_rating AS newRating, performance
        FROM contest_results WHERE contest_id = ?1 ORDER BY handle_key`,
    )
    .bind(contestId)
    .all<Record<string, string | number | null>>()
  return results.map((r) => {
    const row: ResultRow = { handle: String(r.handle) }
    for (const key of ['rank', 'solved', 'oldRating', 'newRating', 'performance'] as const) {
      if (r[key] !== null) row[key] = Number(r[key])
    }
    return row
  })
}

/** The handles linked on a platform, in key order after `after`: those asked one by one. */
export async function linkedHandles(
  db: Db,
  platform: string,
  after: string,
  limit: number,
): Promise<{ handleKey: string; handle: string }[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT handleKey, min(handle) AS handle FROM (
          SELECT h.handle_key AS handleKey, h.handle FROM judge_handles h
            WHERE h.platform = ?1 AND h.handle_key > ?2 AND ${LINKED_HANDLE_SQL}
          UNION ALL
          SELECT m.handle_key, m.handle FROM community_members m
            WHERE m.platform = ?1 AND m.handle_key > ?2 AND ${MEMBER_COUNTS_SQL})
        GROUP BY handleKey ORDER BY handleKey LIMIT ?3`,
    )
    .bind(platform, after, limit)
    .all<{ handleKey: string; handle: string }>()
  return results
}
