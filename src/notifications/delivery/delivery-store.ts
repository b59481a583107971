// The delivery rows the consumer works on, a whole batch at a time: claim them, read what their
// sends need, give back the ones held for later, and record what happened with the notifications'
// overall status, each step a constant number of D1 statements whatever the batch's size.
import { sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Channel } from '../../channels/registry.ts'
import { contestsQuery } from '../../contests/notified.ts'
import type { Db } from '../../db/client.ts'
import { idList } from '../../db/id-list.ts'
import { notifications, type ContestRow } from '../../db/schema.ts'
import { recipientsQuery } from '../../users/audiences.ts'
import type { Recipient } from '../kinds/rendering.ts'
import { withResultWords } from '../kinds/result-words.ts'
import { logAttemptsStatement, logGivenUpStatement, type LoggedAttempt } from '../attempt-log.ts'
import { contentsOf, withContent } from '../contents.ts'
import type { NotificationRow } from '../serialize.ts'
import { overallStatusSql, type NotificationStatus } from './status.ts'

// A claim outlives the slowest send (10 s per provider call, a few push subscriptions), so a
// duplicate message waits instead of sending again; a crashed consumer's claim lapses after it.
export const CLAIM_MS = 5 * 60_000

export type SendRecipient = Recipient & {
  deletedAt: number | null
  quietStart: string | null
  quietEnd: string | null
  channelsOn: Record<Channel, boolean>
}

/** What a send reads of its notification: its own columns the rendering and the send use. */
const SEND_COLUMNS = {
  id: notifications.id,
  userId: notifications.userId,
  contestId: notifications.contestId,
  contentId: notifications.contentId,
  type: notifications.type,
  title: notifications.title,
  message: notifications.message,
  payload: notifications.payload,
}

export type SendNotification = Pick<NotificationRow, keyof typeof SEND_COLUMNS>

export interface ClaimedDelivery {
  id: string
  notificationId: string
  channel: Channel
  status: NotificationStatus
  retryCount: number
  attempts: number
  /** What the send needs, read right after the claim. */
  notification: SendNotification
  /** Undefined when the account is gone (purged) since the delivery was made. */
  recipient: SendRecipient | undefined
  contest: ContestRow | null
}

export type Unclaimed =
  | { kind: 'missing' }
  | { kind: 'settled'; status: NotificationStatus }
  | { kind: 'busy'; delaySeconds: number }

export interface Claims {
  claimed: ClaimedDelivery[]
  /** Why each requested delivery that was not claimed was not. */
  unclaimed: Map<string, Unclaimed>
}

export const CLAIM_SQL = `UPDATE notification_deliveries
  SET claimed_until = ?1, attempts = attempts + 1, updated_at = ?2
  WHERE id IN (SELECT value FROM json_each(?3)) AND status IN (SELECT value FROM json_each(?4))
    AND (claimed_until IS NULL OR claimed_until <= ?2)
  RETURNING id, notification_id AS notificationId, channel, status, retry_count AS retryCount,
    attempts`

const CURRENT_SQL = `SELECT id, status, claimed_until AS claimedUntil FROM notification_deliveries
  WHERE id IN (SELECT value FROM json_each(?1))`

type ClaimedRow = Pick<
  ClaimedDelivery,
  'id' | 'notificationId' | 'channel' | 'status' | 'retryCount' | 'attempts'
>

/**
 * The notifications with their contents (each read once), their recipients and their contests,
 * in one batch of four reads.
 */
async function readForSend(db: Db, notificationIds: readonly string[]) {
  const ids = idList(notificationIds)
  // One column of the batch's notifications, as the subquery that finds the rows it names.
  const column = (c: AnySQLiteColumn) =>
    db
      .select({ id: c })
      .from(notifications)
      .where(sql`${notifications.id} IN ${ids}`)
  const [rows, contents, recipients, contests] = await db.batch([
    db
      .select(SEND_COLUMNS)
      .from(notifications)
      .where(sql`${notifications.id} IN ${ids}`),
    contentsOf(db, column(notifications.contentId)),
    recipientsQuery(db, column(notifications.userId)),
    contestsQuery(db, column(notifications.contestId)),
  ])
  const byId = new Map(contents.map((c) => [c.id, c]))
  const words = (r: (typeof rows)[number]) => {
    const content = r.contentId === null ? undefined : byId.get(r.contentId)
    // A result alert keeps its numbers only; its words are made here (kinds/result-words.ts).
    return withResultWords(withContent(r, content), content?.payload)
  }
  return {
    notifications: new Map(rows.map((r) => [r.id, words(r)])),
    recipients: new Map(recipients.map(({ id, ...r }) => [id, r])),
    contests: new Map(contests.map((c) => [c.id, c])),
  }
}

/** Why each of `ids` was not claimed: gone, settled, or held by another attempt until when. */
async function whyUnclaimed(d1: D1Database, ids: string[], statuses: string[], now: number) {
  const unclaimed = new Map<string, Unclaimed>(ids.map((id) => [id, { kind: 'missing' }]))
  if (ids.length === 0) return unclaimed
  const { results } = await d1
    .prepare(CURRENT_SQL)
    .bind(JSON.stringify(ids))
    .all<{ id: string; status: NotificationStatus; claimedUntil: number | null }>()
  for (const row of results) {
    if (!statuses.includes(row.status)) {
      unclaimed.set(row.id, { kind: 'settled', status: row.status })
    } else {
      // Claimable by status, so someone else holds it: come back when their claim lapses.
      const left = (row.claimedUntil ?? now) - now
      unclaimed.set(row.id, { kind: 'busy', delaySeconds: Math.max(1, Math.ceil(left / 1000)) })
    }
  }
  return unclaimed
}

/**
 * Takes every delivery of `ids` that is in one of `statuses` and that nobody else holds, with
 * what its send needs; one UPDATE for the claim and one batch for the reads, whatever the count.
 */
export async function claimDeliveries(
  db: Db,
  ids: readonly string[],
  statuses: readonly NotificationStatus[],
  now: number,
): Promise<Claims> {
  const d1 = db.$client
  const { results: rows } = await d1
    .prepare(CLAIM_SQL)
    .bind(now + CLAIM_MS, now, JSON.stringify(ids), JSON.stringify(statuses))
    .all<ClaimedRow>()
  const taken = new Set(rows.map((r) => r.id))
  const unclaimed = await whyUnclaimed(
    d1,
    ids.filter((id) => !taken.has(id)),
    [...statuses],
    now,
  )
  if (rows.length === 0) return { claimed: [], unclaimed }
  const data = await readForSend(db, [...new Set(rows.map((r) => r.notificationId))])
  const claimed: ClaimedDelivery[] = []
  for (const row of rows) {
    const notification = data.notifications.get(row.notificationId)
    // Deliveries go with their notification, so this is a race with its deletion: let it go.
    if (!notification) {
      unclaimed.set(row.id, { kind: 'missing' })
      continue
    }
    claimed.push({
      ...row,
      notification,
      recipient: data.recipients.get(notification.userId),
      contest: (notification.contestId && data.contests.get(notification.contestId)) || null,
    })
  }
  return { claimed, unclaimed }
}

/** Gives claimed deliveries back untouched (they are held for later): the claim was no attempt. */
export async function releaseClaims(d1: D1Database, ids: readonly string[], now: number) {
  if (ids.length === 0) return
  await d1
    .prepare(
      `UPDATE notification_deliveries SET claimed_until = NULL, attempts = attempts - 1,
        updated_at = ?2 WHERE id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(ids), now)
    .run()
}

export interface DeliveryRecord {
  id: string
  notificationId: string
  status: 'SENT' | 'RETRYING' | 'FAILED'
  error?: string
  providerMessageId?: string
  /** Added to the retry count: a scheduled automatic retry or a manual retry counts one. */
  retryIncrement: 0 | 1
  /**
   * A RETRYING delivery whose provider named its wait (a 429's retry_after) is held until then:
   * no other message claims it sooner (claim lapses free every other row at once).
   */
  heldUntil?: number
  /** The attempt as the delivery log keeps it: the provider's answer in words. */
  logged: Omit<LoggedAttempt, 'deliveryId'>
}

// The records go in as one JSON array of [id, status, error, provider message id, retry
// increment, held until]; UPDATE ... FROM joins it to the rows by primary key. Positional `->>` reads each
// field without parsing a path (a quarter less time than json_extract with '$.name').
export const RECORD_SQL = `UPDATE notification_deliveries AS d SET
    status = r.status,
    error = r.error,
    provider_message_id = coalesce(r.providerMessageId, d.provider_message_id),
    sent_at = CASE WHEN r.status = 'SENT' THEN ?1 ELSE d.sent_at END,
    failed_at = CASE WHEN r.status = 'FAILED' THEN ?1 ELSE d.failed_at END,
    retry_count = d.retry_count + r.retryIncrement,
    claimed_until = r.heldUntil,
    updated_at = ?1
  FROM (SELECT value ->> 0 AS id, value ->> 1 AS status, value ->> 2 AS error,
      value ->> 3 AS providerMessageId, value ->> 4 AS retryIncrement, value ->> 5 AS heldUntil
    FROM json_each(?2)) AS r
  WHERE d.id = r.id`

/**
 * The statement that brings the notifications' status (and its time) in line with their channels,
 * in one rewrite of each row whose status changes; `idsSql` is a subquery giving the notification
 * ids as `id` and whether one of their deliveries was just sent as `sent` (then the status is
 * SENT without reading the other channels), ?1 is now. A notification comes back when its status
 * changed: SENT is final, so a row coming back SENT was made SENT by this statement, and exactly
 * one caller sees that.
 */
export const notificationStatusSql = (idsSql: string) => `UPDATE notifications AS n SET
    status = s.status,
    sent_at = CASE WHEN s.status = 'SENT' THEN ?1 ELSE n.sent_at END,
    failed_at = CASE WHEN s.status = 'FAILED' THEN ?1 ELSE n.failed_at END,
    updated_at = ?1
  FROM (SELECT t.id AS id, CASE WHEN t.sent THEN 'SENT' ELSE ${overallStatusSql('t.id')} END
      AS status FROM ${idsSql} t) AS s
  WHERE n.id = s.id AND n.status <> s.status
  RETURNING id, status`

/**
 * Records every attempt's result, its line in the delivery log and the notifications' new status
 * in one batch of three statements; returns the ids of the notifications these attempts made SENT.
 */
export async function recordDeliveries(
  d1: D1Database,
  records: readonly DeliveryRecord[],
  now: number,
): Promise<string[]> {
  if (records.length === 0) return []
  const rows = records.map((r) => [
    r.id,
    r.status,
    r.status === 'SENT' ? null : (r.error ?? null),
    r.providerMessageId ?? null,
    r.retryIncrement,
    r.status === 'RETRYING' ? (r.heldUntil ?? null) : null,
  ])
  // Each notification once, sent when any of its records is.
  const sent = new Map<string, boolean>()
  for (const r of records)
    sent.set(r.notificationId, sent.get(r.notificationId) || r.status === 'SENT')
  const notifications = JSON.stringify([...sent].map(([id, isSent]) => [id, isSent ? 1 : 0]))
  const logged = records.map((r) => ({ deliveryId: r.id, ...r.logged }))
  const [, , changed] = await d1.batch<{ id: string; status: NotificationStatus }>([
    logAttemptsStatement(d1, logged, now),
    d1.prepare(RECORD_SQL).bind(now, JSON.stringify(rows)),
    d1
      .prepare(
        notificationStatusSql('(SELECT value ->> 0 AS id, value ->> 1 AS sent FROM json_each(?2))'),
      )
      .bind(now, notifications),
  ])
  return changed.results.filter((r) => r.status === 'SENT').map((r) => r.id)
}

/**
 * Deliveries the queue gave up on (their message reached the dead-letter queue): FAILED unless
 * they settled meanwhile, so nothing vanishes unrecorded. Returns how many rows changed.
 */
export async function recordDeadLetters(
  d1: D1Database,
  deliveryIds: readonly string[],
  now: number,
) {
  if (deliveryIds.length === 0) return 0
  const ids = '(SELECT value FROM json_each(?2))'
  const notificationIds = `(SELECT DISTINCT notification_id AS id, 0 AS sent
    FROM notification_deliveries WHERE id IN ${ids})`
  const [, failed] = await d1.batch([
    // Logged before the update, while the deliveries still tell given up from settled.
    logGivenUpStatement(d1, deliveryIds, now),
    d1
      .prepare(
        `UPDATE notification_deliveries SET status = 'FAILED', failed_at = ?1, updated_at = ?1,
          claimed_until = NULL,
          error = coalesce(error || '; ', '') || 'the queue gave up on this delivery'
        WHERE id IN ${ids} AND status NOT IN ('SENT', 'FAILED')`,
      )
      .bind(now, JSON.stringify(deliveryIds)),
    d1.prepare(notificationStatusSql(notificationIds)).bind(now, JSON.stringify(deliveryIds)),
  ])
  return failed.meta.changes
}
