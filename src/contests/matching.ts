// Which contests a user's free-text contestTypes and noise filters select, decided the same way in
// SQL and in code.
//
// Matching: a user with no contestTypes gets every contest of the platforms they follow. Otherwise
// a contest matches when one of the user's values equals one of the contest's tags, ignoring ASCII
// letter case and the separators space, _, -, ., + and /. A contest's tags are its type (CF, ICPC,
// WEEKLY, COOK_OFF -> "cookoff", STARTERS, ABC, ...) and, where the sync read one, the division in
// platformMetadata.division (Codeforces div1..div4, educational, global; CodeChef div1..div4). A
// combined "div1+div2" round is tagged div1, div2 and div1div2, since it is open to both (CodeChef
// writes a round rated for several divisions the same way: "div2+div3+div4").

const SEPARATORS = /[ _\-.+/]/g

/** A type or preference value reduced to the form both sides are compared in. */
export function normalizeContestType(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(SEPARATORS, '')
}

/** The same reduction in SQL (SQLite's lower() folds ASCII only, like the code above). */
export function normalizedSql(column: string): string {
  let expr = `lower(${column})`
  for (const sep of [' ', '_', '-', '.', '+', '/']) expr = `replace(${expr}, '${sep}', '')`
  return expr
}

export interface TaggableContest {
  type: string
  platformMetadata?: Record<string, unknown> | null
}

export function contestTags(contest: TaggableContest): string[] {
  const tags = new Set([normalizeContestType(contest.type)])
  const division = contest.platformMetadata?.division
  if (typeof division === 'string' && division) {
    tags.add(normalizeContestType(division))
    for (const part of division.split('+')) tags.add(normalizeContestType(part))
  }
  return [...tags].filter(Boolean)
}

/** True when the user's contestTypes let this contest through. */
export function typesAllow(userTypes: readonly string[], tags: readonly string[]): boolean {
  if (userTypes.length === 0) return true
  return userTypes.some((t) => tags.includes(normalizeContestType(t)))
}

/**
 * SQL condition: the JSON array in `typesColumn` is empty or holds a value among the JSON array
 * of tags bound at `tagsParam`.
 */
export function typesAllowSql(typesColumn: string, tagsParam: string): string {
  return `(${typesColumn} = '[]' OR EXISTS (SELECT 1 FROM json_each(${typesColumn}) ut
    WHERE ${normalizedSql('ut.value')} IN (SELECT value FROM json_each(${tagsParam}))))`
}

/** The contest facts the noise filters look at. */
export interface FilterableContest {
  durationMinutes: number
  name: string
}

/** A user's noise filters (preferences.filters); excludeWords are stored lower-cased. */
export interface ContestFilters {
  minDuration: number | null
  maxDuration: number | null
  excludeWords: readonly string[]
}

/** True when the contest passes the user's noise filters. */
export function filtersPass(filters: ContestFilters, contest: FilterableContest): boolean {
  const { minDuration, maxDuration, excludeWords } = filters
  if (minDuration !== null && contest.durationMinutes < minDuration) return false
  if (maxDuration !== null && contest.durationMinutes > maxDuration) return false
  const name = contest.name.toLowerCase()
  return !excludeWords.some((word) => name.includes(word))
}

/**
 * The same in SQL over the user `u`: the contest's duration in minutes bound at `durationParam`
 * and its name, lower-cased by the caller (JavaScript folds more than ASCII), at `nameParam`.
 */
export function filtersPassSql(durationParam: string, nameParam: string): string {
  return `(u.min_duration IS NULL OR ${durationParam} >= u.min_duration)
    AND (u.max_duration IS NULL OR ${durationParam} <= u.max_duration)
    AND NOT EXISTS (SELECT 1 FROM json_each(u.exclude_words) xw
      WHERE instr(${nameParam}, xw.value) > 0)`
}
