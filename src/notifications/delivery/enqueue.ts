// Hands deliveries to the notifications queue: sendBatch in chunks of 100 (the Queues limit), then
// records them as queued; deliveries a crashed run left unqueued are picked up again later.
import type { QueueProducer } from '../../ports/queue.ts'

/** The body of every message on the notifications queue and its dead-letter queue. */
export interface DeliveryMessage {
  deliveryId: string
}

// Queues accept at most 100 messages per sendBatch call.
export const SEND_BATCH_LIMIT = 100
// sendBatch calls in flight at once; each is a subrequest, and Workers run six at a time anyway.
const PARALLEL_SENDS = 6
// A delivery created this long ago and still unqueued was abandoned by the run that created it.
export const STRANDED_AFTER_MS = 10 * 60_000
const STRANDED_PER_RUN = 5_000

const MARK_QUEUED_SQL = `UPDATE notification_deliveries SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

// Cloudflare Queues delay a message by at most 12 hours; the consumer holds a longer wait itself.
export const MAX_DELAY_SECONDS = 12 * 60 * 60

/**
 * Enqueues one message per delivery id, after `delaySeconds` (for reminders made ahead of their
 * time); returns how many were accepted by the queue.
 */
export async function enqueueNotificationDeliveries(
  queue: QueueProducer,
  d1: D1Database,
  deliveryIds: readonly string[],
  now: number,
  { delaySeconds = 0 }: { delaySeconds?: number } = {},
): Promise<number> {
  const delay = Math.min(Math.max(0, delaySeconds), MAX_DELAY_SECONDS)
  const chunks: string[][] = []
  for (let i = 0; i < deliveryIds.length; i += SEND_BATCH_LIMIT) {
    chunks.push(deliveryIds.slice(i, i + SEND_BATCH_LIMIT))
  }
  let sent = 0
  for (let i = 0; i < chunks.length; i += PARALLEL_SENDS) {
    await Promise.all(
      chunks.slice(i, i + PARALLEL_SENDS).map(async (chunk) => {
        await queue.sendBatch(
          chunk.map((deliveryId) => ({
            body: { deliveryId } satisfies DeliveryMessage,
            contentType: 'json' as const,
            ...(delay > 0 && { delaySeconds: delay }),
          })),
        )
        // Marked only after the queue took them: a failure in between leaves them for the sweep,
        // and a message sent twice is harmless because the consumer claims each delivery.
        await d1.prepare(MARK_QUEUED_SQL).bind(now, JSON.stringify(chunk)).run()
        sent += chunk.length
      }),
    )
  }
  return sent
}

/**
 * Enqueues deliveries that were created but never queued (the run that made them died between
 * its insert and its sendBatch), each with the delay its notification still has to wait (a
 * reminder is made up to a period ahead of its moment); returns how many.
 */
export async function requeueStranded(queue: QueueProducer, d1: D1Database, now: number) {
  const { results } = await d1
    .prepare(
      // Through the small partial index of unqueued rows (+status keeps it off the status one).
      `SELECT d.id AS id, n.scheduled_at AS scheduledAt FROM notification_deliveries d
        JOIN notifications n ON n.id = d.notification_id
        WHERE d.queued_at IS NULL AND d.created_at < ?1 AND +d.status = 'PENDING'
        ORDER BY d.created_at LIMIT ?2`,
    )
    .bind(now - STRANDED_AFTER_MS, STRANDED_PER_RUN)
    .all<{ id: string; scheduledAt: number | null }>()
  const byDelay = new Map<number, string[]>()
  for (const { id, scheduledAt } of results) {
    const delaySeconds = Math.max(0, Math.ceil(((scheduledAt ?? now) - now) / 1000))
    byDelay.set(delaySeconds, [...(byDelay.get(delaySeconds) ?? []), id])
  }
  let sent = 0
  for (const [delaySeconds, ids] of byDelay) {
    sent += await enqueueNotificationDeliveries(queue, d1, ids, now, { delaySeconds })
  }
  return sent
}
