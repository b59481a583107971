// CodeChef's contest codes: a series' code (START134, COOK152, LTIME120, NOV261) and the division
// children it is listed under (START134B), shared by the contest list and the rating history.

export const MONTH_CODE =
  '(?:JAN|FEB|MARCH|MAR|APRIL|APR|MAY|JUNE|JUN|JULY|JUL|AUG|SEPT|SEP|OCT|NOV|DEC)'
// A series code with its division child letter, if any: A is Division 1 through D, Division 4.
export const SERIES_CODE = new RegExp(
  `^(?:(?:START|COOK|LTIME)\\d+|${MONTH_CODE}\\d{2,3})([A-D])?$`,
)

/**
 * The code of the round a listed code stands for. CodeChef lists a round to come under one of
 * its division children (START134B, Starters 134's Division 2) and the same round, once over,
 * under its own code (START134); its banners, clist.by's copy and the catalogue use the round's
 * own code, while a rating history names the division a handle was rated in (START79D). Keyed by
 * it, a round keeps one id before and after it ends.
 */
export function codechefRoundCode(code: string): string {
  return SERIES_CODE.exec(code.toUpperCase())?.[1] ? code.slice(0, -1) : code
}
