// SQL fragments of the results tables for set-based statements of the features above (the
// notifier's result alerts, the communities' rank posts): which linked handles count, and who
// takes which result alerts. These tables' names appear in SQL only under src/results
// (scripts/check-table-owners.mjs).
import { isMemberHandleSql, platformHasMemberSql } from './community-members.ts'

/** A linked handle `h` whose results are kept: an own proven one, or a friend's. */
export const LINKED_HANDLE_SQL = `(h.relation = 'FRIEND' OR h.state = 'PROVEN')`

/**
 * Some account linked the handle `keyExpr` of the platform `platformExpr` (LINKED_HANDLE_SQL), or
 * a community's member proved it there (its rank posts need the row).
 */
export const isLinkedSql = (platformExpr: string, keyExpr: string) =>
  `(EXISTS (SELECT 1 FROM judge_handles h WHERE h.platform = ${platformExpr}
    AND h.handle_key = ${keyExpr} AND ${LINKED_HANDLE_SQL})
    OR ${isMemberHandleSql(platformExpr, keyExpr)})`

/** Some account linked a handle of the platform `platformExpr`, or a community's member did. */
export const platformHasLinkedSql = (platformExpr: string) =>
  `(EXISTS (SELECT 1 FROM judge_handles h WHERE h.platform = ${platformExpr}
    AND ${LINKED_HANDLE_SQL}) OR ${platformHasMemberSql(platformExpr)})`

/**
 * The stored results of one contest (?1) a result alert tells, as `r`, with the handle linked to
 * an account as `h` (its user_id is the recipient): `relation` 'OWN' (proven) for the personal
 * alert, 'FRIEND' for the friends' summary. A row is told when its delta differs from the one told
 * (none yet, or a re-calculation changed it); an unrated row's delta is 0.
 */
export const resultsToTellFrom = (relation: 'OWN' | 'FRIEND') => `contest_results r
  JOIN judge_handles h ON h.platform = r.platform AND h.handle_key = r.handle_key
    AND h.relation = '${relation}' AND ${LINKED_HANDLE_SQL}`

/** The delta of the result row `r` as told: new minus old rating, 0 when unrated. */
export const RESULT_DELTA_SQL = `coalesce(r.new_rating - r.old_rating, 0)`

/** The row `r` has a delta not told yet. */
export const UNTOLD_SQL = `(r.told_delta IS NULL OR r.told_delta <> ${RESULT_DELTA_SQL})`

/** The user `userExpr` takes its own handles' results (on unless turned off). */
export const takesOwnResultsSql = (userExpr: string) => `coalesce((SELECT p.own_results
    FROM result_preferences p WHERE p.user_id = ${userExpr}), 1) = 1`

/** The user `u` takes result alerts of its own handles (on unless turned off). */
export const TAKES_OWN_RESULTS_SQL = takesOwnResultsSql('u.id')

/** The user `u` takes its friends' summary (off unless turned on). */
export const TAKES_FRIEND_RESULTS_SQL = `coalesce((SELECT p.friend_results FROM result_preferences p
    WHERE p.user_id = u.id), 0) = 1`

/**
 * Marks every result of the contest (?1) told with its delta now: the last statement of the batch
 * that made its alerts, so a retry after a failure finds them still untold.
 */
export const MARK_TOLD_SQL = `UPDATE contest_results AS r SET told_delta = ${RESULT_DELTA_SQL}
  WHERE r.contest_id = ?1 AND ${UNTOLD_SQL}`

/**
 * The accounts (as `due(user_id)`) that follow, as a friend, a handle whose result in the contest
 * (?1) is not told yet: their friends' summary is due (again). Made once a statement, so the
 * summary's read looks each account's friends up by the (user, relation, platform, handle) key
 * rather than the contest's rows once per friend.
 */
export const FRIENDS_DUE_CTE = `due(user_id) AS MATERIALIZED (SELECT DISTINCT h.user_id
    FROM ${resultsToTellFrom('FRIEND')} WHERE r.contest_id = ?1 AND ${UNTOLD_SQL})`

/**
 * Every result in the contest (?1, on the platform ?2) of the friends of the account `due`, as
 * `r` with the link as `h`. CROSS JOIN keeps `due` outermost: otherwise SQLite may walk every
 * handle of the platform (100,000 rows read for no summary due) and look each up in `due`.
 */
export const DUE_FRIENDS_RESULTS_FROM = `due
  CROSS JOIN judge_handles h ON h.user_id = due.user_id AND h.relation = 'FRIEND' AND h.platform = ?2
  JOIN contest_results r ON r.contest_id = ?1 AND r.handle_key = h.handle_key`
