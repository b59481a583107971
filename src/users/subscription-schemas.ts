// Zod schemas of the follow and mute endpoints: strict body, id and paging, the answers.
import { z } from '@hono/zod-openapi'
import { CONTEST_TYPES, PHASES, PLATFORMS } from '../contests/schemas.ts'
import { idParam, intInRange, MAX_OFFSET, oneOf } from '../lib/validation.ts'
import { SUBSCRIPTION_MODES } from './contest-subscriptions.ts'

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })
const mode = z.enum(SUBSCRIPTION_MODES).openapi({
  description: 'follow: remind of this contest; mute: never remind of it',
})

export const ContestIdParam = idParam('contest')

export const SubscriptionBody = z
  .strictObject({ mode: oneOf('mode', SUBSCRIPTION_MODES) })
  .openapi('ContestSubscriptionInput')

export const SubscriptionListQuery = z.object({
  limit: intInRange('limit', 1, 100, 50),
  offset: intInRange('offset', 0, MAX_OFFSET, 0),
})

export const SubscriptionSchema = z
  .object({
    contestId: z.string().openapi({ example: '6745a1f03c9e4b2a1d0e7f11' }),
    mode,
    updatedAt: timestamp,
  })
  .openapi('ContestSubscription')

export const ContestSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    platform: z.enum(PLATFORMS),
    type: z.enum(CONTEST_TYPES),
    phase: z.enum(PHASES),
    startTime: timestamp,
    endTime: timestamp,
    durationMinutes: z.number(),
    websiteUrl: z.string().optional(),
  })
  .openapi('ContestSummary')

export const SubscriptionListSchema = z
  .object({
    subscriptions: z.array(SubscriptionSchema.extend({ contest: ContestSummarySchema })),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  })
  .openapi('ContestSubscriptionList')
