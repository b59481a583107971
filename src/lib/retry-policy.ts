// How often and how soon a send that failed for now is tried again: the spec's policy for
// notifications, which community announcements follow too.

/** Retries per channel in total, automatic and manual together (spec: "3 in total"). */
export const MAX_RETRIES = 3
/** Delays before the first, second and third automatic retry (spec: 1, 5 and 15 minutes). */
export const NOTIFICATION_RETRY_DELAYS_SECONDS = [60, 300, 900] as const

/**
 * Seconds until the next automatic retry of a send that failed transiently after `retryCount`
 * retries, or undefined when they are used up.
 */
export function automaticRetryDelay(retryCount: number): number | undefined {
  if (retryCount < 0 || retryCount >= MAX_RETRIES) return undefined
  return NOTIFICATION_RETRY_DELAYS_SECONDS[retryCount]
}
