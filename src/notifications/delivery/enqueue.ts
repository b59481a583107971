// Hands deliveries to the notifications queue, many to a message (one channel each, so a message's
// emails are one provider call), then records them as queued; deliveries a crashed run left
// unqueued are picked up again later.
import { addToGroup } from '../../lib/group.ts'
import { perChannel, type Channel } from '../../channels/registry.ts'
import type { QueueProducer } from '../../ports/queue.ts'

/** The body of every message on the notifications queue and its dead-letter queue. */
export interface DeliveryMessage {
  deliveryIds: string[]
}

/** Deliveries a message carries: Resend's batch endpoint takes 100 emails a call. */
export const DELIVERIES_PER_MESSAGE = 100
/**
 * Per channel, its module's batch size: a message's emails are one call, every other channel makes
 * a request per delivery (push one per browser), so a message stays within about 100 requests and
 * an invocation of 10 messages near 1,000 subrequests (a Worker on the Paid plan may make 10,000).
 */
export const DELIVERIES_PER_MESSAGE_OF: Record<Channel, number> = perChannel((m) =>
  Math.min(m.batchSize, DELIVERIES_PER_MESSAGE),
)
// Queues take at most 100 messages and 256 KB a sendBatch call; 50 messages of 100 ids (about
// 2.7 KB each) stay well inside both.
const MESSAGES_PER_SEND = 50
// sendBatch calls in flight at once; each is a subrequest, and Workers run six at a time anyway.
const PARALLEL_SENDS = 6
// A delivery created this long ago and still unqueued was abandoned by the run that created it.
export const STRANDED_AFTER_MS = 10 * 60_000
const STRANDED_PER_RUN = 5_000

const MARK_QUEUED_SQL = `UPDATE notification_deliveries SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

// Cloudflare Queues delay a message by at most 12 hours; the consumer holds a longer wait itself.
export const MAX_DELAY_SECONDS = 12 * 60 * 60

const ID = /^[0-9a-f]{24}$/

/**
 * The delivery ids a message carries, or undefined when it carries none that could exist. Reads
 * the one-delivery body of earlier versions too, so messages queued before an upgrade still count.
 */
export function deliveryIdsOf(body: unknown): string[] | undefined {
  const b = body as { deliveryIds?: unknown; deliveryId?: unknown } | null
  const ids = Array.isArray(b?.deliveryIds) ? b.deliveryIds : [b?.deliveryId]
  const valid = ids.filter((id): id is string => typeof id === 'string' && ID.test(id))
  return valid.length > 0 && valid.length === ids.length ? [...new Set(valid)] : undefined
}

/** Splits ids into messages of at most `size` (DELIVERIES_PER_MESSAGE unless given). */
export function deliveryMessages(
  ids: readonly string[],
  size = DELIVERIES_PER_MESSAGE,
): DeliveryMessage[] {
  const messages: DeliveryMessage[] = []
  for (let i = 0; i < ids.length; i += size) {
    messages.push({ deliveryIds: ids.slice(i, i + size) })
  }
  return messages
}

/** Sends the messages in calls of MESSAGES_PER_SEND, a few at once; `after` runs per call. */
export async function sendDeliveryMessages(
  queue: QueueProducer,
  messages: readonly DeliveryMessage[],
  delaySeconds: number,
  after?: (sent: readonly DeliveryMessage[]) => Promise<unknown>,
) {
  const delay = Math.min(Math.max(0, Math.ceil(delaySeconds)), MAX_DELAY_SECONDS)
  const calls: DeliveryMessage[][] = []
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) {
    calls.push(messages.slice(i, i + MESSAGES_PER_SEND))
  }
  for (let i = 0; i < calls.length; i += PARALLEL_SENDS) {
    await Promise.all(
      calls.slice(i, i + PARALLEL_SENDS).map(async (call) => {
        await queue.sendBatch(
          call.map((body) => ({
            body,
            contentType: 'json' as const,
            ...(delay > 0 && { delaySeconds: delay }),
          })),
        )
        await after?.(call)
      }),
    )
  }
}

/**
 * Enqueues the deliveries, grouped by channel into messages of up to 100, after `delaySeconds`
 * (for reminders made ahead of their time), and marks them queued unless they were created so
 * (fan-out.ts); returns how many deliveries the queue accepted.
 */
export async function enqueueNotificationDeliveries(
  queue: QueueProducer,
  d1: D1Database,
  deliveries: readonly { id: string; channel: Channel }[],
  now: number,
  { delaySeconds = 0, markQueued = true }: { delaySeconds?: number; markQueued?: boolean } = {},
): Promise<number> {
  const byChannel = new Map<Channel, string[]>()
  for (const { id, channel } of deliveries) {
    addToGroup(byChannel, channel, id)
  }
  const messages = [...byChannel].flatMap(([channel, ids]) =>
    deliveryMessages(ids, DELIVERIES_PER_MESSAGE_OF[channel]),
  )
  let sent = 0
  await sendDeliveryMessages(queue, messages, delaySeconds, async (call) => {
    // Marked only after the queue took them: a failure in between leaves them for the sweep,
    // and a message sent twice is harmless because the consumer claims each delivery.
    const ids = call.flatMap((m) => m.deliveryIds)
    if (markQueued) await d1.prepare(MARK_QUEUED_SQL).bind(now, JSON.stringify(ids)).run()
    sent += ids.length
  })
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
      `SELECT d.id AS id, d.channel AS channel, n.scheduled_at AS scheduledAt
        FROM notification_deliveries d
        JOIN notifications n ON n.id = d.notification_id
        WHERE d.queued_at IS NULL AND d.created_at < ?1 AND +d.status = 'PENDING'
        ORDER BY d.created_at LIMIT ?2`,
    )
    .bind(now - STRANDED_AFTER_MS, STRANDED_PER_RUN)
    .all<ScheduledDelivery>()
  return enqueueWhenDue(queue, d1, results, now)
}

export interface ScheduledDelivery {
  id: string
  channel: Channel
  /** Its notification's moment (a reminder made ahead of it), or null to send at once. */
  scheduledAt: number | null
}

/** Enqueues deliveries made earlier, each with the wait its notification still has. */
export async function enqueueWhenDue(
  queue: QueueProducer,
  d1: D1Database,
  deliveries: readonly ScheduledDelivery[],
  now: number,
  { markQueued = true } = {},
) {
  const byDelay = new Map<number, { id: string; channel: Channel }[]>()
  for (const { scheduledAt, ...delivery } of deliveries) {
    const delaySeconds = Math.max(0, Math.ceil(((scheduledAt ?? now) - now) / 1000))
    addToGroup(byDelay, delaySeconds, delivery)
  }
  let sent = 0
  for (const [delaySeconds, group] of byDelay) {
    sent += await enqueueNotificationDeliveries(queue, d1, group, now, { delaySeconds, markQueued })
  }
  return sent
}
