// The end of a queue message's attempt at the row it claimed, shared by the senders that claim one
// row per message (community announcements, rank posts, message changes and events; reminder
// edits): a failure tried again after the retry policy's wait or a 429's own, the row held until
// then, or FAILED for good; a message that found the row held comes back when the hold is over;
// the dead-letter queue's rows FAILED. Each sender keeps its own SQL: a feature owns its tables.
import { automaticRetryDelay } from './retry-policy.ts'

// Cloudflare Queues delay a message by at most 12 hours.
export const MAX_DELAY_SECONDS = 12 * 60 * 60

/**
 * What the queue message should do next: done with; tried again after a wait (a retry); or
 * waiting, which is not an attempt (its turn under a bot's pace, or the time a RETRYING row's next
 * attempt may go), so it is sent again as a new message and spends none of its retries.
 */
export type ClaimedOutcome =
  | { done: true }
  | { done: false; delaySeconds: number }
  | { done: false; waiting: true; delaySeconds: number }

/** An attempt that failed: worth another try (a timeout, a 5xx, a 429) or not, and a 429's wait. */
export interface FailedAttempt {
  error: string
  transient: boolean
  retryAfterSeconds?: number
}

/** Writes the row's end: FAILED for good, or RETRYING held until its next attempt may go. */
export type RecordFailure = (
  status: 'FAILED' | 'RETRYING',
  result: { error: string; retried?: boolean; heldUntil?: number },
) => Promise<unknown>

/**
 * Settles a claimed row whose attempt failed: FAILED when it never gets better or its retries are
 * used up, else RETRYING and held until the wait is over (a duplicate or early message meanwhile
 * cannot claim it and send before then). `calledAt` is when the call to the provider began.
 */
export async function settleClaimed(
  failed: FailedAttempt,
  attempt: { retryCount: number; calledAt: number },
  record: RecordFailure,
  now: number,
): Promise<ClaimedOutcome> {
  const policy = failed.transient ? automaticRetryDelay(attempt.retryCount) : undefined
  if (policy === undefined) {
    await record('FAILED', { error: failed.error })
    return { done: true }
  }
  // A 429 says when to come back: then, no sooner (Telegram bans a bot that comes early, for all
  // its chats) and no later (a one-minute wait for a 3 s flood wait only makes the post late).
  // The retry count still bounds how often. Other failures wait the policy's delay.
  const delaySeconds = failed.retryAfterSeconds ?? policy
  // The wait counts from the answer, which comes after `now` by the time the call took.
  const heldUntil = now + Math.max(0, Date.now() - attempt.calledAt) + delaySeconds * 1000
  await record('RETRYING', { error: failed.error, retried: true, heldUntil })
  return { done: false, delaySeconds }
}

/**
 * A message that claimed nothing (`held`: the owner's SELECT of the row's `claimedUntil` while it
 * is RETRYING and still held, bound): done, unless the row waits for its next attempt. This
 * message may be the row's own retry come a little early, or a duplicate; acked, it could be the
 * only one left, so it comes back when the hold is over (the claim lets one of them send then, and
 * the others find it done).
 */
export async function unclaimed(held: D1PreparedStatement, now: number): Promise<ClaimedOutcome> {
  const row = await held.first<{ claimedUntil: number }>()
  if (!row) return { done: true }
  const seconds = Math.ceil((row.claimedUntil - now) / 1000)
  return {
    done: false,
    waiting: true,
    delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(1, seconds)),
  }
}

/**
 * The SET and WHERE of the dead-letter queue's UPDATE, after the owner's `UPDATE <table> `: the
 * rows still to send are FAILED and let go. ?1 now, ?2 the ids as JSON.
 */
export const GAVE_UP_SQL = `SET status = 'FAILED', error = 'The queue gave up on it',
    claimed_until = NULL, updated_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND status IN ('PENDING', 'RETRYING')`

/** Runs the owner's `UPDATE <table> ${GAVE_UP_SQL}` for the rows the queue gave up on, if any. */
export async function failGivenUp(
  update: D1PreparedStatement,
  ids: readonly string[],
  now: number,
) {
  if (ids.length === 0) return
  await update.bind(now, JSON.stringify(ids)).run()
}
