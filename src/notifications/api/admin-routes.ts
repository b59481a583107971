// Admin notification endpoints (test sends, custom, bulk, announcement and contest-reminder
// emails) and the channel status and health checks.
import { createRoute, type z } from '@hono/zod-openapi'
import { createDb } from '../../db/client.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { badRequest } from '../../lib/errors.ts'
import { errorResponse, json, jsonBody } from '../../lib/openapi.ts'
import { toIso } from '../../lib/time.ts'
import { notifier } from '../context.ts'
import { channelHealth, overallHealth } from '../delivery/health.ts'
import { adminRoute, createRouter, signedInRoute } from '../../http/router.ts'
import { queueAnnouncement, queueBulkEmail, queueContestReminder } from './admin-emails.ts'
import {
  sendAdminTestPush,
  sendCustomEmail,
  sendTestEmail,
  sendTestWhatsApp,
} from './direct-sends.ts'
import {
  AnnouncementBody,
  BulkEmailBody,
  ChannelStatusSchema,
  ContestReminderBody,
  CustomEmailBody,
  CustomEmailResultSchema,
  NotificationHealthSchema,
  isEmailAddress,
  QueuedResultSchema,
  TestEmailBody,
  TestPushBody,
  TestSendResultSchema,
  TestWhatsAppBody,
} from './schemas.ts'

const tags = ['Notifications (admin)']
const adminErrors = {
  400: errorResponse('Validation failed'),
  429: errorResponse('Too many requests'),
}
const emailOff = errorResponse('Email delivery is not configured')

function testRoute<T extends z.ZodType>(path: string, summary: string, schema: T, extra = {}) {
  return adminRoute({
    method: 'post',
    path,
    tags,
    summary,
    middleware: [rateLimit(RULES.notificationTestSend)] as const,
    request: jsonBody(schema),
    responses: {
      200: json(TestSendResultSchema, 'What was sent, or why not (success: false)'),
      ...adminErrors,
      ...extra,
    },
  })
}

const testEmail = testRoute('/test/email', 'Send a test email', TestEmailBody)
const testWhatsApp = testRoute('/test/whatsapp', 'Send a test WhatsApp message', TestWhatsAppBody)
const testPush = testRoute(
  '/test/push',
  'Push a test message to a user’s subscriptions',
  TestPushBody,
  { 404: errorResponse('User not found') },
)

// The spec gives this endpoint its own 403 wording.
const custom = adminRoute(
  {
    method: 'post',
    path: '/emails/custom',
    tags,
    summary: 'Send one email now, as written',
    middleware: [rateLimit(RULES.adminEmail)] as const,
    request: jsonBody(CustomEmailBody),
    responses: {
      200: json(CustomEmailResultSchema, 'Sent'),
      ...adminErrors,
      502: errorResponse('The provider refused or failed'),
      503: emailOff,
    },
  },
  'Admin role required',
)

function queuedRoute<T extends z.ZodType>(path: string, summary: string, schema: T, extra = {}) {
  return adminRoute({
    method: 'post',
    path,
    tags,
    summary,
    middleware: [rateLimit(RULES.adminEmail)] as const,
    request: jsonBody(schema),
    responses: {
      202: json(QueuedResultSchema, 'Notifications created and their sends enqueued'),
      ...adminErrors,
      503: emailOff,
      ...extra,
    },
  })
}

const bulk = queuedRoute('/emails/bulk', 'Email up to 1000 users', BulkEmailBody)
const announcement = queuedRoute(
  '/emails/announcement',
  'Email an announcement to every user the filters select',
  AnnouncementBody,
)
const contestReminder = queuedRoute(
  '/emails/contest-reminder',
  'Email a reminder of one contest to chosen users',
  ContestReminderBody,
  { 404: errorResponse('No contest has that id') },
)

const status = signedInRoute({
  method: 'get',
  path: '/status',
  tags,
  summary: 'Whether each channel is enabled and healthy',
  responses: { 200: json(ChannelStatusSchema, 'Channel status') },
})

const health = createRoute({
  method: 'get',
  path: '/health',
  tags,
  summary: 'Health of the notification channels; no secrets, no provider calls',
  responses: { 200: json(NotificationHealthSchema, 'Health') },
})

export const notificationAdminRoutes = createRouter()

notificationAdminRoutes
  .openapi(status, async (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json(await channelHealth(notifier(c.env), Date.now()), 200)
  })
  .openapi(health, async (c) => {
    const now = Date.now()
    const services = await channelHealth(notifier(c.env), now)
    c.header('Cache-Control', 'no-store')
    return c.json({ status: overallHealth(services), services, timestamp: toIso(now) }, 200)
  })
  .openapi(testEmail, async (c) => {
    const email = c.req.valid('json').email.trim()
    if (!isEmailAddress(email)) throw badRequest('Invalid email address')
    return c.json(await sendTestEmail(c.env, email, Date.now()), 200)
  })
  .openapi(testWhatsApp, async (c) => {
    const { phoneNumber } = c.req.valid('json')
    return c.json(await sendTestWhatsApp(c.env, phoneNumber, Date.now()), 200)
  })
  .openapi(testPush, async (c) => {
    const { userId } = c.req.valid('json')
    return c.json(await sendAdminTestPush(c.env, createDb(c.env.DB), userId, Date.now()), 200)
  })
  .openapi(custom, async (c) => {
    return c.json(await sendCustomEmail(c.env, c.req.valid('json')), 200)
  })
  .openapi(bulk, async (c) => {
    return c.json(await queueBulkEmail(notifier(c.env), c.req.valid('json'), Date.now()), 202)
  })
  .openapi(announcement, async (c) => {
    return c.json(await queueAnnouncement(notifier(c.env), c.req.valid('json'), Date.now()), 202)
  })
  .openapi(contestReminder, async (c) => {
    const result = await queueContestReminder(notifier(c.env), c.req.valid('json'), Date.now())
    return c.json(result, 202)
  })
