// Emission of webhook events: one delivery row per subscribed, enabled endpoint and one queue
// message per new row. Deterministic event ids make a repeated emission of an occurrence a no-op.
import { eq } from 'drizzle-orm'
import { createDb, type Db } from '../db/client.ts'
import { webhookEndpoints } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { newId } from '../lib/ids.ts'
import { log } from '../lib/log.ts'
import { insertNewDeliveries } from './deliveries.ts'
import { webhookEventId, webhookPayload, type WebhookEvent } from './events.ts'
import type { NewDeliveryRow } from './rows.ts'
import type { QueueProducer } from '../ports/queue.ts'

/** The body of a message on the webhooks queue; the row holds everything else. */
export interface WebhookMessage {
  deliveryId: string
}

export type WebhookBindings = Pick<Env, 'DB' | 'WEBHOOKS_QUEUE'>

// Queues take at most 100 messages a sendBatch call.
const MESSAGES_PER_SEND = 100

export async function enqueueDeliveries(queue: QueueProducer, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += MESSAGES_PER_SEND) {
    const chunk = ids.slice(i, i + MESSAGES_PER_SEND)
    await queue.sendBatch(chunk.map((deliveryId) => ({ body: { deliveryId } as WebhookMessage })))
  }
}

function deliveryRow(
  endpointId: string,
  eventId: string,
  event: WebhookEvent,
  payload: string,
  now: number,
) {
  // Every column is given, so each row binds the same number of parameters.
  return {
    id: newId(now),
    endpointId,
    eventId,
    eventType: event.type,
    payload,
    status: 'pending',
    attempts: 0,
    lastResponseStatus: null,
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: null,
    createdAt: now,
    updatedAt: now,
  } satisfies NewDeliveryRow
}

/** Writes the rows that are new and queues them; returns the ids queued. */
export async function insertAndEnqueue(
  db: Db,
  queue: QueueProducer,
  rows: NewDeliveryRow[],
): Promise<string[]> {
  const ids = await insertNewDeliveries(db, rows)
  await enqueueDeliveries(queue, ids)
  return ids
}

/** The enabled endpoints and the event types each subscribes to. */
function enabledEndpoints(db: Db) {
  return db
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.enabled, true))
}

type Endpoints = Awaited<ReturnType<typeof enabledEndpoints>>

/** Writes and queues one delivery per (event, subscribed endpoint); returns how many. */
async function emitTo(
  env: WebhookBindings,
  db: Db,
  endpoints: Endpoints,
  events: WebhookEvent[],
  now: number,
) {
  const rows: NewDeliveryRow[] = []
  for (const event of events) {
    const subscribers = endpoints.filter((e) => e.events.includes(event.type))
    if (subscribers.length === 0) continue
    const eventId = await webhookEventId(event)
    const payload = webhookPayload(eventId, event, now)
    for (const endpoint of subscribers)
      rows.push(deliveryRow(endpoint.id, eventId, event, payload, now))
  }
  if (rows.length === 0) return 0
  return (await insertAndEnqueue(db, env.WEBHOOKS_QUEUE, rows)).length
}

/**
 * Emits `events` to every enabled endpoint subscribed to their type; returns how many deliveries
 * were queued. Throws when D1 or the queue fails, for callers that report failures themselves.
 */
export async function emitWebhookEvents(
  env: WebhookBindings,
  events: WebhookEvent[],
  now: number,
): Promise<number> {
  if (events.length === 0) return 0
  const db = createDb(env.DB)
  return emitTo(env, db, await enabledEndpoints(db), events, now)
}

/**
 * Events of one type whose data costs reads to gather: `load` runs only when an enabled endpoint
 * subscribes to `type`. Never throws, like emitWebhookEventsSafely.
 */
export async function emitLoadedWebhookEvents(
  env: WebhookBindings,
  type: WebhookEvent['type'],
  load: () => Promise<WebhookEvent[]>,
  now: number,
): Promise<void> {
  try {
    const db = createDb(env.DB)
    const endpoints = await enabledEndpoints(db)
    if (!endpoints.some((e) => e.events.includes(type))) return
    await emitTo(env, db, endpoints, await load(), now)
  } catch (err) {
    log.error('webhook-emit-failed', { types: [type], error: err })
  }
}

/** emitWebhookEvents for callers whose own write must stand: failures are logged, not thrown. */
export async function emitWebhookEventsSafely(
  env: WebhookBindings,
  events: WebhookEvent[],
  now: number,
): Promise<void> {
  try {
    await emitWebhookEvents(env, events, now)
  } catch (err) {
    log.error('webhook-emit-failed', {
      types: [...new Set(events.map((e) => e.type))],
      subjects: events.slice(0, 20).map((e) => e.subject),
      error: err,
    })
  }
}

/** Queues a one-off delivery of `event` to one endpoint, whatever it subscribes to. */
export async function emitToEndpoint(
  env: WebhookBindings,
  endpointId: string,
  event: WebhookEvent,
  now: number,
): Promise<string> {
  const eventId = await webhookEventId(event)
  const row = deliveryRow(endpointId, eventId, event, webhookPayload(eventId, event, now), now)
  await insertAndEnqueue(createDb(env.DB), env.WEBHOOKS_QUEUE, [row])
  return row.id
}
