// Zod schemas of the notification endpoints: history queries, admin email bodies and responses.
import { z } from '@hono/zod-openapi'
import { MAX_ANSWER_LENGTH, SEND_OUTCOMES } from '../../channels/answer-words.ts'
import { CHANNELS } from '../../channels/registry.ts'
import { PLATFORMS } from '../../contests/schemas.ts'
import { isId } from '../../lib/ids.ts'
import { intInRange, isoDate, oneOf } from '../../lib/validation.ts'
import { MAX_LOGGED_ATTEMPTS } from '../attempt-log.ts'
import { NOTIFICATION_STATUSES } from '../delivery/status.ts'
import { NOTIFICATION_TYPES } from '../spec.ts'

/** One schema per channel, keyed by the channel names, for the per-channel response objects. */
type PerChannel<T> = Record<(typeof CHANNELS)[number], T>

export const MAX_BULK_RECIPIENTS = 1000
const MAX_SUBJECT = 200
const MAX_TITLE = 200
const MAX_MESSAGE = 10_000
// Stored once per recipient in the notification's payload, so bulk HTML is bounded.
const MAX_HTML = 50_000
const MAX_URL = 2048

const idOf = (message: string) =>
  z.string().refine(isId, { error: message }).openapi({ example: '6745a1f03c9e4b2a1d0e7f11' })

export const NotificationIdParam = z.object({
  id: idOf('Invalid notification ID format').openapi({ param: { name: 'id', in: 'path' } }),
})

/** Any string: the retry endpoint answers an unknown id with its own 404 body. */
export const RetryIdParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
})

export const NotificationUserIdParam = z.object({
  userId: idOf('Invalid user ID format').openapi({ param: { name: 'userId', in: 'path' } }),
})

const dateRange = {
  startDate: isoDate('startDate').optional(),
  endDate: isoDate('endDate').optional(),
}
const orderedRange = (q: { startDate?: string; endDate?: string }) =>
  !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate)

export const NotificationListQuery = z
  .object({
    userId: idOf('Invalid user ID format').optional(),
    status: oneOf('status', NOTIFICATION_STATUSES).optional(),
    type: oneOf('type', NOTIFICATION_TYPES).optional(),
    channel: oneOf('channel', CHANNELS).optional().openapi({
      description:
        'Only notifications with a delivery on this channel; with status, that delivery’s status',
    }),
    ...dateRange,
    // 100 pages of at most 100: an OFFSET of at most 9,900 rows, as MAX_OFFSET bounds the others.
    page: intInRange('page', 1, 100, 1),
    limit: intInRange('limit', 1, 100, 20),
  })
  .refine(orderedRange, { error: 'startDate must not be after endDate' })

export type NotificationListFilters = z.infer<typeof NotificationListQuery>

export const StatsQuery = z
  .object({ userId: idOf('Invalid user ID format').optional(), ...dateRange })
  .refine(orderedRange, { error: 'startDate must not be after endDate' })

export const CleanupQuery = z.object({ daysOld: intInRange('daysOld', 1, 36_500, 90) })

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} should not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters long` })

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, { error: `${field} must be at most ${max} characters long` })
    .optional()

const userIds = z
  .array(
    z.string({ error: 'each value in userIds must be a string' }).refine(isId, {
      error: 'each value in userIds must be a valid user ID',
    }),
    { error: 'userIds must be an array' },
  )
  .min(1, { error: 'userIds should not be empty' })
  .max(MAX_BULK_RECIPIENTS, {
    error: `userIds must contain no more than ${MAX_BULK_RECIPIENTS} elements`,
  })
  .transform((ids) => [...new Set(ids)])

const httpUrl = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(MAX_URL, { error: `${field} must be at most ${MAX_URL} characters long` })
    .refine(
      (v) => {
        try {
          return ['http:', 'https:'].includes(new URL(v).protocol)
        } catch {
          return false
        }
      },
      { error: `${field} must be an http or https URL` },
    )

// Addresses are checked in the handlers, so a bad one gets the spec's 'Invalid email address'.
export const TestEmailBody = z.strictObject({ email: z.string() }).openapi('TestEmail')
export const TestWhatsAppBody = z
  .strictObject({ phoneNumber: text('phoneNumber', 32) })
  .openapi('TestWhatsApp')
export const TestPushBody = z
  .strictObject({ userId: idOf('Invalid user ID format') })
  .openapi('TestPush')

export const CustomEmailBody = z
  .strictObject({
    to: z.string({ error: 'to must be a string' }),
    subject: text('subject', MAX_SUBJECT),
    html: text('html', MAX_HTML),
    text: optionalText('text', MAX_MESSAGE),
    replyTo: z.string({ error: 'replyTo must be a string' }).optional(),
  })
  .openapi('CustomEmail')

export const BulkEmailBody = z
  .strictObject({
    userIds,
    subject: text('subject', MAX_SUBJECT),
    html: text('html', MAX_HTML),
    text: optionalText('text', MAX_MESSAGE),
  })
  .openapi('BulkEmail')

export const AnnouncementBody = z
  .strictObject({
    subject: text('subject', MAX_SUBJECT),
    title: text('title', MAX_TITLE),
    message: text('message', MAX_MESSAGE),
    actionUrl: httpUrl('actionUrl').optional(),
    actionText: optionalText('actionText', 100),
    filters: z
      .strictObject(
        {
          platforms: z
            .array(oneOf('platforms', PLATFORMS), { error: 'platforms must be an array' })
            .optional(),
          isActive: z.boolean({ error: 'isActive must be a boolean value' }).optional(),
        },
        { error: 'filters must be an object' },
      )
      .optional(),
  })
  .openapi('Announcement')

export const ContestReminderBody = z
  .strictObject({
    contestId: idOf('Invalid contest ID format'),
    userIds,
    customMessage: optionalText('customMessage', 2000),
  })
  .openapi('ContestReminderEmail')

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

const outcome = z.enum(SEND_OUTCOMES).openapi({
  description:
    'delivered: the provider took it; temporary_failure: not reached this time (retried); ' +
    'refused: the provider will not take it; destination_gone: the address, chat or webhook is ' +
    'gone (the channel is turned off for it); given_up: the retries ran out and it was not sent',
})

const answerMessage = z.string().openapi({
  description: `The provider's answer in words, naming the channel (at most ${MAX_ANSWER_LENGTH} characters)`,
  example: 'Discord: the webhook was deleted',
})

export const DeliveryAttemptSchema = z
  .object({ at: timestamp, outcome, message: answerMessage })
  .openapi('DeliveryAttempt')

export const TestNotificationBody = z
  .strictObject({
    channel: oneOf('channel', CHANNELS),
  })
  .openapi('TestNotificationRequest')

export const TestNotificationResultSchema = z
  .object({
    channel: z.enum(CHANNELS),
    outcome,
    message: answerMessage,
    at: timestamp,
  })
  .openapi('TestNotificationResult')

export const DeliveryStatusSchema = z
  .object({
    channel: z.enum(CHANNELS),
    status: z.enum(NOTIFICATION_STATUSES),
    sentAt: timestamp.optional(),
    failedAt: timestamp.optional(),
    error: z.string().optional(),
    retryCount: z.number(),
    attempts: z.array(DeliveryAttemptSchema).openapi({
      description:
        'The delivery log: each attempt (and each later word of the provider, an email’s bounce), ' +
        `oldest first, at most ${MAX_LOGGED_ATTEMPTS} attempts; kept as long as the notification`,
    }),
  })
  .openapi('DeliveryStatus')

export const NotificationSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    contestId: z.string().optional(),
    type: z.enum(NOTIFICATION_TYPES),
    title: z.string(),
    message: z.string(),
    payload: z.record(z.string(), z.unknown()).optional(),
    channels: z.array(z.string()),
    status: z.enum(NOTIFICATION_STATUSES),
    deliveryStatus: z.array(DeliveryStatusSchema),
    scheduledAt: timestamp.optional(),
    sentAt: timestamp.optional(),
    failedAt: timestamp.optional(),
    readAt: timestamp.optional(),
    isRead: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Notification')

export const NotificationPageSchema = z
  .object({
    notifications: z.array(NotificationSchema),
    pagination: z.object({
      page: z.number(),
      limit: z.number(),
      total: z.number(),
      totalPages: z.number(),
    }),
  })
  .openapi('NotificationPage')

export const ReadResultSchema = z
  .object({ success: z.literal(true), notification: NotificationSchema })
  .openapi('NotificationRead')

export const ReadAllResultSchema = z
  .object({ success: z.literal(true), updated: z.number() })
  .openapi('NotificationsReadAll')

export const NotificationStatsSchema = z
  .object({
    total: z.number(),
    sent: z.number(),
    failed: z.number(),
    pending: z.number(),
    byChannel: z.object(
      Object.fromEntries(CHANNELS.map((c) => [c, z.number()])) as PerChannel<z.ZodNumber>,
    ),
    byType: z.record(z.string(), z.number()),
    successRate: z.number(),
  })
  .openapi('NotificationStats')

export const RetryResultSchema = z
  .object({
    success: z.boolean(),
    notification: NotificationSchema.optional(),
    error: z.string().optional(),
  })
  .openapi('NotificationRetry')

export const CleanupResultSchema = z
  .object({ deleted: z.number(), message: z.string() })
  .openapi('NotificationCleanup')

export const TestSendResultSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    payload: z.record(z.string(), z.unknown()),
  })
  .openapi('TestSendResult')

export const CustomEmailResultSchema = z
  .object({
    success: z.boolean(),
    messageId: z.string(),
    to: z.string(),
    subject: z.string(),
    provider: z.string(),
  })
  .openapi('CustomEmailResult')

export const QueuedResultSchema = z
  .object({
    success: z.literal(true),
    total: z.number(),
    queued: z.number(),
    skipped: z.array(z.object({ userId: z.string(), reason: z.string() })),
  })
  .openapi('EmailsQueued')

const channelHealth = z.object({ enabled: z.boolean(), healthy: z.boolean() })

export const ChannelStatusSchema = z
  .object(
    Object.fromEntries(CHANNELS.map((c) => [c, channelHealth])) as PerChannel<typeof channelHealth>,
  )
  .openapi('NotificationChannelStatus')

export const NotificationHealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    services: ChannelStatusSchema,
    timestamp,
  })
  .openapi('NotificationHealth')

const emailAddress = z.email()

/** The spec's test for recipient addresses of the admin email endpoints. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && emailAddress.safeParse(value).success
}
