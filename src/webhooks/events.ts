// Webhook event types, their deterministic ids and the payload every delivery carries.
import { sha256Hex } from '../lib/crypto.ts'
import { toIso } from '../lib/time.ts'

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = [
  'contest.created',
  'contest.starting',
  'contest.finished',
  'notification.sent',
  'platform.degraded',
  'platform.recovered',
  'contest.results_published',
  'service.degraded',
  'service.recovered',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]

/** Sent only on request to one endpoint (POST /webhooks/{id}/test), never subscribed to. */
export const TEST_EVENT = 'webhook.test'

export type AnyWebhookEventType = WebhookEventType | typeof TEST_EVENT

export interface WebhookEvent {
  type: AnyWebhookEventType
  /** What the event is about: a contest id, a notification id. */
  subject: string
  /**
   * Tells two occurrences of one type for one subject apart, e.g. the start time a
   * contest.starting was for, so a rescheduled contest starts (and fires) again.
   */
  occurrence?: string | number
  /** The subject as the API renders it. */
  data: Record<string, unknown>
}

/**
 * `evt_` and 128 bits of SHA-256 over type, subject and occurrence: a repeated detection of the
 * same occurrence gets the same id, and the unique (endpoint, event) key turns it into a no-op.
 */
export async function webhookEventId(event: Omit<WebhookEvent, 'data'>): Promise<string> {
  const digest = await sha256Hex(`${event.type}\n${event.subject}\n${event.occurrence ?? ''}`)
  return `evt_${digest.slice(0, 32)}`
}

/** The JSON body of every delivery of the event: `{id, type, timestamp, data}`. */
export function webhookPayload(id: string, event: WebhookEvent, now: number): string {
  return JSON.stringify({ id, type: event.type, timestamp: toIso(now), data: event.data })
}
