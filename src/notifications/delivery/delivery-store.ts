// The delivery rows the consumer works on: claim one, record what happened, and keep the
// notification's overall status in step, each write a single D1 batch.
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Channel } from '../../channels/registry.ts'
import { contestQuery } from '../../contests/notified.ts'
import type { Db } from '../../db/client.ts'
import { notificationDeliveries, notifications, type ContestRow } from '../../db/schema.ts'
import { recipientQuery } from '../../users/audiences.ts'
import type { Recipient } from '../kinds/rendering.ts'
import type { NotificationRow } from '../serialize.ts'
import { overallStatusSql, type NotificationStatus } from './status.ts'

// A claim outlives the slowest send (10 s per provider call, a few push subscriptions), so a
// duplicate message waits instead of sending again; a crashed consumer's claim lapses after it.
export const CLAIM_MS = 5 * 60_000

export interface ClaimedDelivery {
  id: string
  notificationId: string
  channel: Channel
  status: NotificationStatus
  retryCount: number
  attempts: number
  /** What the send needs, read right after the claim. */
  notification: NotificationRow
  recipient: Recipient & {
    deletedAt: number | null
    quietStart: string | null
    quietEnd: string | null
    channelsOn: Record<Channel, boolean>
  }
  contest: ContestRow | null
}

export type Unclaimed =
  | { kind: 'missing' }
  | { kind: 'settled'; status: NotificationStatus }
  | { kind: 'busy'; delaySeconds: number }

/** The notification, its recipient and its contest (null when none or gone), in one batch. */
async function readForSend(db: Db, notificationId: string) {
  const n = notifications
  const ofNotification = (column: typeof n.userId | typeof n.contestId) =>
    db.select({ id: column }).from(n).where(eq(n.id, notificationId))
  const [[notification], [recipient], [contest]] = await db.batch([
    db.select().from(n).where(eq(n.id, notificationId)),
    recipientQuery(db, ofNotification(n.userId)),
    contestQuery(db, ofNotification(n.contestId)),
  ])
  if (!notification || !recipient) return undefined
  return { notification, recipient, contest: contest ?? null }
}

/**
 * Takes the delivery for one send attempt if it is in one of `statuses` and nobody else holds
 * it, with its notification, recipient and contest; otherwise says why not.
 */
export async function claimDelivery(
  db: Db,
  id: string,
  statuses: NotificationStatus[],
  now: number,
): Promise<ClaimedDelivery | Unclaimed> {
  const d = notificationDeliveries
  const until = now + CLAIM_MS
  const [row] = await db
    .update(d)
    .set({ claimedUntil: until, attempts: sql`${d.attempts} + 1`, updatedAt: now })
    .where(
      and(
        eq(d.id, id),
        inArray(d.status, statuses),
        or(isNull(d.claimedUntil), lte(d.claimedUntil, now)),
      ),
    )
    .returning()
  // One batch after the claim: the notification, and its recipient and contest read through it.
  const data = row ? await readForSend(db, row.notificationId) : undefined
  if (row && data) {
    return {
      id: row.id,
      notificationId: row.notificationId,
      channel: row.channel,
      status: row.status,
      retryCount: row.retryCount,
      attempts: row.attempts,
      ...data,
    }
  }
  const current = await db
    .select({ status: d.status, claimedUntil: d.claimedUntil })
    .from(d)
    .where(eq(d.id, id))
    .get()
  if (!current) return { kind: 'missing' }
  if (!statuses.includes(current.status)) return { kind: 'settled', status: current.status }
  // Claimable by status, so someone else holds it: come back when their claim lapses.
  const left = (current.claimedUntil ?? now) - now
  return { kind: 'busy', delaySeconds: Math.max(1, Math.ceil(left / 1000)) }
}

export function isClaimed(result: ClaimedDelivery | Unclaimed): result is ClaimedDelivery {
  return !('kind' in result)
}

/** Gives a claimed delivery back untouched (it is held for later): the claim was no attempt. */
export async function releaseClaim(d1: D1Database, id: string, now: number): Promise<void> {
  await d1
    .prepare(
      `UPDATE notification_deliveries SET claimed_until = NULL, attempts = attempts - 1,
        updated_at = ?2 WHERE id = ?1`,
    )
    .bind(id, now)
    .run()
}

export interface DeliveryRecord {
  status: 'SENT' | 'RETRYING' | 'FAILED'
  error?: string
  providerMessageId?: string
  /** Added to the retry count: a scheduled automatic retry or a manual retry counts one. */
  retryIncrement: 0 | 1
}

const RECORD_SQL = `UPDATE notification_deliveries SET
    status = ?2,
    error = ?3,
    provider_message_id = coalesce(?4, provider_message_id),
    sent_at = CASE WHEN ?2 = 'SENT' THEN ?5 ELSE sent_at END,
    failed_at = CASE WHEN ?2 = 'FAILED' THEN ?5 ELSE failed_at END,
    retry_count = retry_count + ?6,
    claimed_until = NULL,
    updated_at = ?5
  WHERE id = ?1`

/** The statements that bring the notification's status (and its times) in line with its channels. */
function notificationStatusStatements(d1: D1Database, idExpr: string, binds: unknown[]) {
  return [
    d1
      .prepare(
        `UPDATE notifications SET status = ${overallStatusSql(idExpr)}, updated_at = ?1
          WHERE id = ${idExpr}`,
      )
      .bind(...binds),
    // Only the first delivery sets sentAt, so exactly one caller sees the row come back.
    d1
      .prepare(
        `UPDATE notifications SET sent_at = ?1
          WHERE id = ${idExpr} AND status = 'SENT' AND sent_at IS NULL RETURNING id`,
      )
      .bind(...binds),
    d1
      .prepare(`UPDATE notifications SET failed_at = ?1 WHERE id = ${idExpr} AND status = 'FAILED'`)
      .bind(...binds),
  ]
}

/**
 * Records the attempt's result and the notification's new status in one batch; true when this
 * attempt made the notification SENT.
 */
export async function recordDelivery(
  d1: D1Database,
  delivery: ClaimedDelivery,
  record: DeliveryRecord,
  now: number,
): Promise<boolean> {
  const results = await d1.batch([
    d1
      .prepare(RECORD_SQL)
      .bind(
        delivery.id,
        record.status,
        record.status === 'SENT' ? null : (record.error ?? null),
        record.providerMessageId ?? null,
        now,
        record.retryIncrement,
      ),
    ...notificationStatusStatements(d1, '?2', [now, delivery.notificationId]),
  ])
  return results[2].results.length > 0
}

/**
 * A message the queue gave up on (it reached the dead-letter queue): its delivery is FAILED
 * unless it settled meanwhile, so nothing vanishes unrecorded. True when a row changed.
 */
export async function recordDeadLetter(d1: D1Database, deliveryId: string, now: number) {
  const notificationOf = '(SELECT notification_id FROM notification_deliveries WHERE id = ?2)'
  const results = await d1.batch([
    d1
      .prepare(
        `UPDATE notification_deliveries SET status = 'FAILED', failed_at = ?1, updated_at = ?1,
          claimed_until = NULL,
          error = coalesce(error || '; ', '') || 'the queue gave up on this delivery'
        WHERE id = ?2 AND status NOT IN ('SENT', 'FAILED')`,
      )
      .bind(now, deliveryId),
    ...notificationStatusStatements(d1, notificationOf, [now, deliveryId]),
  ])
  return results[0].meta.changes > 0
}
