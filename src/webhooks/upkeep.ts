// Upkeep of the deliveries table by the half-hourly run: re-queue deliveries whose message was
// lost, and drop the history past its retention period.
import { webhookEndpoints } from '../db/schema.ts'
import type { Db } from '../db/client.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/time.ts'
import { removeDeliveriesBefore, unsentDeliveries } from './deliveries.ts'
import { enqueueDeliveries } from './emit.ts'
import type { QueueProducer } from '../ports/queue.ts'

export const DELIVERY_RETENTION_DAYS = 30
/** A message normally reaches the consumer within seconds; one unseen after this was lost. */
export const UNSENT_AFTER_MS = 15 * MINUTE_MS
const UNSENT_LOOKBACK_MS = 6 * HOUR_MS
const UNSENT_LIMIT = 500

async function endpointIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints)
  return rows.map((r) => r.id)
}

export async function webhookUpkeep(db: Db, queue: QueueProducer, now: number) {
  const ids = await endpointIds(db)
  // A message still waiting behind a long backlog gets a twin and may be delivered twice, which
  // receivers dedupe on webhook-id; a lost one would never be delivered at all.
  const unsent = await unsentDeliveries(
    db,
    ids,
    now - UNSENT_LOOKBACK_MS,
    now - UNSENT_AFTER_MS,
    UNSENT_LIMIT,
  )
  await enqueueDeliveries(
    queue,
    unsent.map((row) => row.id),
  )
  const removed = await removeDeliveriesBefore(db, ids, now - DELIVERY_RETENTION_DAYS * DAY_MS)
  return { webhookRequeued: unsent.length, webhookRemoved: removed }
}
