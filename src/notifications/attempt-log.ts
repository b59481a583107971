// The delivery log (delivery_attempts): each attempt of a delivery with the provider's answer in
// words (channels/answer-words.ts), written in the batch that records the attempts, and read by
// the history a page of notifications at a time. Bounded three ways: a sentence of at most
// MAX_ANSWER_LENGTH characters, at most MAX_LOGGED_ATTEMPTS attempts a delivery, and no row older
// than its notification (cleanup.ts and deletion.ts remove them first; the foreign key cascades).
import { asc, sql } from 'drizzle-orm'
import type { SendOutcome } from '../channels/answer-words.ts'
import { CHANNELS, channelModule } from '../channels/registry.ts'
import type { Db } from '../db/client.ts'
import { idList } from '../db/id-list.ts'
import { deliveryAttempts } from '../db/schema.ts'

/**
 * Attempts a delivery keeps: the first and three automatic retries, and a few manual ones; a
 * delivery retried past that keeps its first ones (its status and error say how it ended).
 */
export const MAX_LOGGED_ATTEMPTS = 8

export interface LoggedAttempt {
  deliveryId: string
  outcome: SendOutcome
  message: string
}

/**
 * The statement that logs `attempts`, made at ?1: one INSERT ... SELECT over a JSON array of
 * [delivery id, outcome, words], joined to the deliveries, whose attempts count (raised by each
 * claim) is the attempt's number, so a delivery past the cap logs nothing more.
 */
export function logAttemptsStatement(
  d1: D1Database,
  attempts: readonly LoggedAttempt[],
  at: number,
) {
  const rows = attempts.map((a) => [a.deliveryId, a.outcome, a.message])
  return d1
    .prepare(
      `INSERT INTO delivery_attempts (notification_id, delivery_id, channel, at, outcome, message)
      SELECT d.notification_id, d.id, d.channel, ?1, r.value ->> 1, r.value ->> 2
      FROM json_each(?2) AS r JOIN notification_deliveries AS d ON d.id = r.value ->> 0
      WHERE d.attempts <= ?3`,
    )
    .bind(at, JSON.stringify(rows), MAX_LOGGED_ATTEMPTS)
}

/**
 * The line of each delivery of `deliveryIds` the queue gave up on (not settled yet), made at ?1:
 * "<channel>: not sent, the retries ran out after <n> attempts", within the cap. It goes in the
 * batch before the update that settles them as FAILED, while they still tell the two apart.
 */
export function logGivenUpStatement(d1: D1Database, deliveryIds: readonly string[], at: number) {
  const labels = CHANNELS.map((c) => `WHEN '${c}' THEN '${channelModule(c).label}'`).join(' ')
  return d1
    .prepare(
      `INSERT INTO delivery_attempts (notification_id, delivery_id, channel, at, outcome, message)
      SELECT d.notification_id, d.id, d.channel, ?1, 'given_up',
        CASE d.channel ${labels} ELSE d.channel END || ': not sent, the retries ran out after ' ||
          d.attempts || CASE d.attempts WHEN 1 THEN ' attempt' ELSE ' attempts' END
      FROM notification_deliveries d
      WHERE d.id IN (SELECT value FROM json_each(?2)) AND d.status NOT IN ('SENT', 'FAILED')
        AND (SELECT count(*) FROM delivery_attempts a
          WHERE a.notification_id = d.notification_id AND a.delivery_id = d.id) < ?3`,
    )
    .bind(at, JSON.stringify(deliveryIds), MAX_LOGGED_ATTEMPTS)
}

/** A provider's later word on one delivery (an email's bounce), logged as a line of its own. */
export function logEventStatement(
  db: Db,
  event: LoggedAttempt & { notificationId: string; channel: string },
  at: number,
) {
  return db.insert(deliveryAttempts).values({
    notificationId: event.notificationId,
    deliveryId: event.deliveryId,
    channel: event.channel,
    at,
    outcome: event.outcome,
    message: event.message,
  })
}

export type AttemptRow = typeof deliveryAttempts.$inferSelect

/** The notifications' logged attempts by delivery id, oldest first. */
export async function attemptsOf(db: Db, notificationIds: readonly string[]) {
  const byDelivery = new Map<string, AttemptRow[]>()
  if (notificationIds.length === 0) return byDelivery
  const rows = await db
    .select()
    .from(deliveryAttempts)
    .where(sql`${deliveryAttempts.notificationId} IN ${idList(notificationIds)}`)
    .orderBy(asc(deliveryAttempts.notificationId), asc(deliveryAttempts.id))
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId)
    if (list) list.push(row)
    else byDelivery.set(row.deliveryId, [row])
  }
  return byDelivery
}
