// Zod schemas of the webhook endpoints API: request bodies, parameters and responses.
import { z } from '@hono/zod-openapi'
import { PaginationSchema } from '../lib/pagination.ts'
import { idParam, oneOf, pagingFields } from '../lib/validation.ts'
import { WEBHOOK_EVENTS, type WebhookEventType } from './events.ts'

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const

const isEvent = (v: unknown): v is WebhookEventType =>
  typeof v === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(v)

// The whole list is checked in one rule, so the message names the allowed values once rather
// than once per element with its index in front.
const events = z
  .array(z.unknown(), { error: () => 'events must be an array' })
  .min(1, { error: () => 'events should not be empty' })
  .refine((list) => list.every(isEvent), {
    error: `each value in events must be one of the following values: ${WEBHOOK_EVENTS.join(', ')}`,
  })
  .transform((list) => [...new Set(list as WebhookEventType[])])
  .openapi({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } })

const description = z
  .string({ error: () => 'description must be a string' })
  .trim()
  .max(500, { error: () => 'description must be shorter than or equal to 500 characters' })

export const CreateWebhookBody = z
  .strictObject({
    url: z
      .string({ error: () => 'url must be a string' })
      .trim()
      .max(2048, { error: () => 'url must be shorter than or equal to 2048 characters' })
      .openapi({ example: 'https://example.com/hooks/contests' }),
    events,
    description: description.optional(),
  })
  .openapi('CreateWebhook')

export const UpdateWebhookBody = z
  .strictObject({
    events: events.optional(),
    enabled: z.boolean({ error: () => 'enabled must be a boolean value' }).optional(),
    description: description.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error: 'At least one field must be given',
    when: (payload) => payload.issues.length === 0,
  })
  .openapi('UpdateWebhook')

export type CreateWebhook = z.infer<typeof CreateWebhookBody>
export type UpdateWebhook = z.infer<typeof UpdateWebhookBody>

export const WebhookIdParam = idParam('webhook')

export const DeliveriesQuery = z.object({
  status: oneOf('status', DELIVERY_STATUSES).optional(),
  ...pagingFields(),
})

export type DeliveriesFilter = z.infer<typeof DeliveriesQuery>

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

export const WebhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().optional(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    disabledReason: z.string().optional(),
    failingSince: timestamp.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Webhook')

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description: 'The signing secret; shown only in this response',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).openapi('WebhookWithSecret')

export const DeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number(),
    lastResponseStatus: z.number().optional(),
    lastError: z.string().optional(),
    nextAttemptAt: timestamp.optional(),
    deliveredAt: timestamp.optional(),
    payload: z.record(z.string(), z.unknown()),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('WebhookDelivery')

export const DeliveryPageSchema = z
  .object({
    data: z.array(DeliverySchema),
    pagination: PaginationSchema,
  })
  .openapi('WebhookDeliveryPage')
