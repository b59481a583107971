// When a contest's results are asked for again: on a backoff while they are awaited, a few
// re-checks after they are published (a rollback or re-calculation shows there), and when to give
// up. Decisions in docs/decisions.md (D136).
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/time.ts'

/** The first check, after the contest's end: AtCoder often publishes within minutes. */
export const FIRST_CHECK_AFTER_MS = 10 * MINUTE_MS

/**
 * The wait after the n-th unanswered check (n from 1): 10, 20, 40 minutes, 1, 2, 4 hours, then
 * 6 hours each time. Codeforces publishes ratings one to a few hours after a round, sometimes a
 * day or more; the first hours are asked often, the later days four times a day.
 */
const WAITS_MS = [10, 20, 40, 60, 120, 240].map((m) => m * MINUTE_MS)
export const MAX_WAIT_MS = 6 * HOUR_MS

export function waitAfter(attempts: number): number {
  return WAITS_MS[attempts - 1] ?? MAX_WAIT_MS
}

/** Results not published this long after the contest's end are given up (state GAVE_UP). */
export const GIVE_UP_AFTER_MS = 10 * DAY_MS

/**
 * Re-checks after the first publication, counted from it: a day later and three days later
 * (Codeforces rolls back or re-calculates a round's ratings within a day or two, when it does).
 */
export const RECHECKS_AFTER_MS = [DAY_MS, 3 * DAY_MS]

/** next_check_at of a check with nothing left to ask: never due. */
export const NEVER = Number.MAX_SAFE_INTEGER

/** The next re-check of results first published at `publishedAt`, or NEVER. */
export function nextRecheck(publishedAt: number, now: number): number {
  return RECHECKS_AFTER_MS.map((ms) => publishedAt + ms).find((at) => at > now) ?? NEVER
}

/** How long a consumer holds a check it asks about (longer than an invocation runs). */
export const CLAIM_MS = 5 * MINUTE_MS

/** Contests ended within this long are given a check (a missed scheduler run catches up). */
export const CHECK_CREATION_WINDOW_MS = 2 * DAY_MS
