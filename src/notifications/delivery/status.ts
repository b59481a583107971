// The rules of notification status: the overall status from the channels (DESIGN 9), automatic
// retry delays, and when a manual retry is allowed.
import {
  automaticRetryDelay,
  MAX_RETRIES,
  NOTIFICATION_RETRY_DELAYS_SECONDS,
} from '../../lib/retry-policy.ts'

export const NOTIFICATION_STATUSES = ['PENDING', 'SENT', 'FAILED', 'RETRYING'] as const
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number]

// The retry policy is shared with community announcements (lib/retry-policy.ts).
export { automaticRetryDelay, MAX_RETRIES, NOTIFICATION_RETRY_DELAYS_SECONDS }

/**
 * SENT if any channel was delivered; RETRYING while none is delivered and one is retrying;
 * FAILED when every channel failed; PENDING otherwise (before the first attempt).
 */
export function overallStatus(channels: readonly NotificationStatus[]): NotificationStatus {
  if (channels.includes('SENT')) return 'SENT'
  if (channels.includes('RETRYING')) return 'RETRYING'
  if (channels.every((s) => s === 'FAILED')) return 'FAILED'
  return 'PENDING'
}

/**
 * The same rule in SQL over the deliveries of the notification whose id is `idExpr`. The unary
 * plus keeps SQLite on the (notification_id, channel) key: through the status index it would
 * scan every delivery with that status, in a table that grows with each send.
 */
export function overallStatusSql(idExpr: string): string {
  const any = (condition: string) =>
    `EXISTS (SELECT 1 FROM notification_deliveries sd
      WHERE sd.notification_id = ${idExpr} AND ${condition})`
  return `CASE
    WHEN ${any(`+sd.status = 'SENT'`)} THEN 'SENT'
    WHEN ${any(`+sd.status = 'RETRYING'`)} THEN 'RETRYING'
    WHEN NOT ${any(`+sd.status <> 'FAILED'`)} THEN 'FAILED'
    ELSE 'PENDING' END`
}

export interface RetryCandidate {
  id: string
  status: NotificationStatus
  retryCount: number
}

export type ManualRetryDecision =
  { ok: true; deliveryIds: string[] } | { ok: false; status: 400; error: string }

/**
 * A manual retry resends the failed (or still retrying) channels that have retries left. It is
 * refused for a notification already sent, for one that has not failed yet, and once every
 * failed channel has used its 3 retries.
 */
export function manualRetryDecision(
  status: NotificationStatus,
  deliveries: readonly RetryCandidate[],
): ManualRetryDecision {
  if (status === 'SENT') {
    return { ok: false, status: 400, error: 'Notification already sent successfully' }
  }
  const failed = deliveries.filter((d) => d.status === 'FAILED' || d.status === 'RETRYING')
  if (status === 'PENDING' || failed.length === 0) {
    return { ok: false, status: 400, error: 'Notification has not failed; nothing to retry' }
  }
  const open = failed.filter((d) => d.retryCount < MAX_RETRIES)
  if (open.length === 0) {
    return { ok: false, status: 400, error: `Maximum retry count reached (${MAX_RETRIES})` }
  }
  return { ok: true, deliveryIds: open.map((d) => d.id) }
}
