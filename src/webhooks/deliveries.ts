// Webhook deliveries in D1: created once per (endpoint, event), listed for admins, and updated
// by the queue consumer after every attempt.
import {
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notInArray,
  type SQL,
} from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts'
import type { Decision, AttemptResult } from './retry-schedule.ts'
import type { DeliveryRow, EndpointRow, NewDeliveryRow } from './rows.ts'
import type { DeliveriesFilter } from './schemas.ts'

// Thirteen columns a row: seven rows keep a statement under D1's 100 bound parameters.
const ROWS_PER_INSERT = 7
const STATEMENTS_PER_BATCH = 50

/**
 * Inserts the rows whose (endpoint, event) is new and returns their ids; a row for an event the
 * endpoint already has is skipped, which is what makes a repeated detection a no-op.
 */
export async function insertNewDeliveries(db: Db, rows: NewDeliveryRow[]): Promise<string[]> {
  const statements = []
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    statements.push(
      db
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id }),
    )
  }
  const ids: string[] = []
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const chunk = statements.slice(i, i + STATEMENTS_PER_BATCH)
    const results = await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk])
    for (const inserted of results) ids.push(...inserted.map((r) => r.id))
  }
  return ids
}

/** A page of an endpoint's deliveries, newest first. */
export async function listDeliveries(db: Db, endpointId: string, filter: DeliveriesFilter) {
  const where = and(
    eq(webhookDeliveries.endpointId, endpointId),
    filter.status && eq(webhookDeliveries.status, filter.status),
  )
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(webhookDeliveries).where(where),
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(filter.limit)
      .offset(filter.offset),
  ])
  return { rows, total }
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get()
}

/** A delivery with its endpoint, as the consumer needs them; undefined once either is gone. */
export async function loadDelivery(
  db: Db,
  id: string,
): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow } | undefined> {
  const row = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id))
    .get()
  return row ?? undefined
}

const TERMINAL: DeliveryRow['status'][] = ['succeeded', 'failed']

/**
 * Records one attempt and its consequences for the endpoint in one batch. The delivery is
 * updated only if no other consumer recorded an attempt meanwhile (a message delivered twice), so
 * a late duplicate never overwrites a newer outcome.
 */
export async function recordAttempt(
  db: Db,
  delivery: DeliveryRow,
  result: AttemptResult,
  decision: Decision,
  now: number,
): Promise<void> {
  const statements: BatchItem<'sqlite'>[] = [
    db
      .update(webhookDeliveries)
      .set({
        status: decision.deliveryStatus,
        attempts: delivery.attempts + 1,
        lastResponseStatus: result.kind === 'failure' ? (result.status ?? null) : result.status,
        lastError: result.kind === 'failure' ? result.error : null,
        nextAttemptAt:
          decision.retryDelaySeconds === undefined ? null : now + decision.retryDelaySeconds * 1000,
        deliveredAt: decision.deliveryStatus === 'succeeded' ? now : null,
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.attempts, delivery.attempts),
          notInArray(webhookDeliveries.status, TERMINAL),
        ),
      ),
    endpointAfterAttempt(db, delivery.endpointId, decision, now),
  ]
  await db.batch(statements as [BatchItem<'sqlite'>])
}

function endpointAfterAttempt(db: Db, endpointId: string, decision: Decision, now: number) {
  const id = eq(webhookEndpoints.id, endpointId)
  if (decision.deliveryStatus === 'succeeded') {
    return db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(id, isNotNull(webhookEndpoints.failingSince)))
  }
  // The first failure after a success starts the clock; later ones keep its start.
  const clock = db
    .update(webhookEndpoints)
    .set({ failingSince: decision.failingSince })
    .where(and(id, isNull(webhookEndpoints.failingSince)))
  if (!decision.disableReason) return clock
  return db
    .update(webhookEndpoints)
    .set({
      enabled: false,
      disabledReason: decision.disableReason,
      failingSince: decision.failingSince,
      updatedAt: now,
    })
    .where(and(id, eq(webhookEndpoints.enabled, true)))
}

/** Ends a delivery that will not be attempted (again), keeping the attempts already made. */
export async function markDeliveryFailed(db: Db, id: string, error: string, now: number) {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: error, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), notInArray(webhookDeliveries.status, TERMINAL)))
}

/**
 * Deliveries created between `from` and `to` that were never attempted: their queue message was
 * lost (the Worker stopped between the insert and the send). At most `limit`.
 */
export function unsentDeliveries(
  db: Db,
  endpointIds: string[],
  from: number,
  to: number,
  limit: number,
) {
  if (endpointIds.length === 0) return Promise.resolve([])
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.endpointId, endpointIds),
        gte(webhookDeliveries.createdAt, from),
        lt(webhookDeliveries.createdAt, to),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
      ) as SQL,
    )
    .limit(limit)
}

/** Removes the deliveries created before `cutoff`; returns how many went. */
export async function removeDeliveriesBefore(db: Db, endpointIds: string[], cutoff: number) {
  if (endpointIds.length === 0) return 0
  // Per endpoint, so each delete walks the (endpoint_id, created_at) index.
  const statements = endpointIds.map((id) =>
    db
      .delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, id), lt(webhookDeliveries.createdAt, cutoff))),
  )
  const results = await db.batch(statements as [(typeof statements)[0], ...typeof statements])
  return (results as D1Result[]).reduce((n, r) => n + r.meta.changes, 0)
}
