// Row types of the webhook tables, named once for the feature's modules.
import type { webhookDeliveries, webhookEndpoints } from '../db/schema.ts'

export type EndpointRow = typeof webhookEndpoints.$inferSelect
export type DeliveryRow = typeof webhookDeliveries.$inferSelect
export type NewDeliveryRow = typeof webhookDeliveries.$inferInsert
