// Webhook rows rendered as API objects: ISO times, unset optional fields left out, no secrets.
import { toIso } from '../lib/time.ts'
import type { WebhookEventType } from './events.ts'
import type { DeliveryRow, EndpointRow } from './rows.ts'

export function toApiWebhook(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    ...(row.description != null && { description: row.description }),
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    ...(row.disabledReason != null && { disabledReason: row.disabledReason }),
    ...(row.failingSince != null && { failingSince: toIso(row.failingSince) }),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

export function toApiDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    ...(row.lastResponseStatus != null && { lastResponseStatus: row.lastResponseStatus }),
    ...(row.lastError != null && { lastError: row.lastError }),
    ...(row.nextAttemptAt != null && { nextAttemptAt: toIso(row.nextAttemptAt) }),
    ...(row.deliveredAt != null && { deliveredAt: toIso(row.deliveredAt) }),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}
