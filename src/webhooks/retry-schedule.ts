// What one delivery attempt leads to: success, a retry after a growing delay, giving up, or
// disabling the endpoint. Pure, so the schedule and the rules can be read and tested as they are.
import { DAY_MS, toIso } from '../lib/time.ts'

/**
 * Delays after the 1st to 7th failed attempt: about 28 hours of retries in all. Queues cap one
 * delay at 12 hours.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1

/** An endpoint that has failed without a success for longer than this is disabled. */
export const FAILING_LIMIT_MS = 3 * DAY_MS

export type AttemptResult =
  | { kind: 'success'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'failure'; status?: number; error: string; retryable: boolean }

export interface Decision {
  deliveryStatus: 'succeeded' | 'retrying' | 'failed'
  retryDelaySeconds?: number
  /** Set when the endpoint is to be disabled now; the reason admins see. */
  disableReason?: string
  /** The endpoint's failing_since after the attempt; null once it succeeds. */
  failingSince: number | null
}

export function decideAfterAttempt(
  result: AttemptResult,
  attemptsMade: number,
  failingSince: number | null,
  now: number,
): Decision {
  if (result.kind === 'success') return { deliveryStatus: 'succeeded', failingSince: null }
  const since = failingSince ?? now
  if (result.kind === 'gone') {
    return {
      deliveryStatus: 'failed',
      disableReason: 'The endpoint answered 410 Gone',
      failingSince: since,
    }
  }
  if (now - since > FAILING_LIMIT_MS) {
    return {
      deliveryStatus: 'failed',
      disableReason: `The endpoint has been failing since ${toIso(since)}`,
      failingSince: since,
    }
  }
  if (result.retryable && attemptsMade < MAX_ATTEMPTS) {
    const retryDelaySeconds = RETRY_DELAYS_SECONDS[attemptsMade - 1]
    return { deliveryStatus: 'retrying', retryDelaySeconds, failingSince: since }
  }
  return { deliveryStatus: 'failed', failingSince: since }
}
