// A list of ids bound as one JSON array and read back with json_each: D1 binds at most 100
// parameters a statement, and a set-based read or write may name thousands of rows.
import { sql, type SQL } from 'drizzle-orm'

/** `(SELECT value FROM json_each(?))`, for `column IN ${idList(ids)}`. */
export function idList(ids: readonly string[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`
}
