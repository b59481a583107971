// Notification history endpoints: list, get, mark read, read all, statistics, retry, cleanup.
import { createDb } from '../../db/client.ts'
import { currentUser } from '../../http/auth.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { notFound } from '../../lib/errors.ts'
import { errorResponse, json } from '../../lib/openapi.ts'
import { DAY_MS } from '../../lib/time.ts'
import { cleanupNotifications } from '../cleanup.ts'
import { notifier } from '../context.ts'
import { retryNotification } from '../delivery/retry.ts'
import {
  findNotification,
  listNotifications,
  markAllRead,
  markRead,
  notificationStats,
} from '../history.ts'
import { withResultWords } from '../kinds/result-words.ts'
import { signedInRoute } from '../../http/router.ts'
import { createRouter } from '../../http/router.ts'
import { ownerFilter, scopeFor } from './access.ts'
import {
  CleanupQuery,
  CleanupResultSchema,
  NotificationListQuery,
  NotificationIdParam,
  NotificationPageSchema,
  NotificationSchema,
  ReadAllResultSchema,
  ReadResultSchema,
  RetryIdParam,
  RetryResultSchema,
  StatsQuery,
  NotificationStatsSchema,
  NotificationUserIdParam,
} from './schemas.ts'

const NOT_FOUND = 'Notification not found'
const tags = ['Notifications']
const common = {
  429: errorResponse('Too many requests'),
}
const invalid = errorResponse('Validation failed (message is an array of strings)')
const otherUser = errorResponse('Another user’s notifications, and the caller is not an admin')
const missing = errorResponse(NOT_FOUND)

const list = signedInRoute({
  method: 'get',
  path: '/notifications',
  tags,
  summary: 'Notification history, newest first (own; any user’s for admins)',
  request: { query: NotificationListQuery },
  responses: {
    200: json(NotificationPageSchema, 'A page of notifications'),
    400: invalid,
    403: otherUser,
    ...common,
  },
})

const stats = signedInRoute({
  method: 'get',
  path: '/notifications/stats',
  tags,
  summary: 'Counts by status, channel and type, and the success rate',
  request: { query: StatsQuery },
  responses: {
    200: json(NotificationStatsSchema, 'Statistics'),
    400: invalid,
    403: otherUser,
    ...common,
  },
})

const cleanup = signedInRoute({
  method: 'delete',
  path: '/notifications/cleanup',
  tags,
  summary: 'Delete notifications older than daysOld (own; everyone’s for admins)',
  middleware: [rateLimit(RULES.notificationCleanup)] as const,
  request: { query: CleanupQuery },
  responses: { 200: json(CleanupResultSchema, 'Deleted'), 400: invalid, ...common },
})

const readAll = signedInRoute({
  method: 'patch',
  path: '/notifications/user/{userId}/read-all',
  tags,
  summary: 'Mark all of a user’s notifications read',
  request: { params: NotificationUserIdParam },
  responses: {
    200: json(ReadAllResultSchema, 'How many were marked'),
    400: errorResponse('Invalid user ID format'),
    403: otherUser,
    ...common,
  },
})

const getOne = signedInRoute({
  method: 'get',
  path: '/notifications/{id}',
  tags,
  summary: 'One notification with its per-channel delivery status',
  request: { params: NotificationIdParam },
  responses: {
    200: json(NotificationSchema, 'The notification'),
    400: errorResponse('Invalid notification ID format'),
    404: missing,
    ...common,
  },
})

const read = signedInRoute({
  method: 'patch',
  path: '/notifications/{id}/read',
  tags,
  summary: 'Mark a notification read',
  request: { params: NotificationIdParam },
  responses: {
    200: json(ReadResultSchema, 'Marked read'),
    400: errorResponse('Invalid notification ID format'),
    404: missing,
    ...common,
  },
})

const retry = signedInRoute({
  method: 'post',
  path: '/notifications/{id}/retry',
  tags,
  summary: 'Resend a failed notification over its failed channels now (3 retries at most)',
  middleware: [rateLimit(RULES.notificationRetry)] as const,
  request: { params: RetryIdParam },
  responses: {
    200: json(RetryResultSchema, 'Sent: {success: true, notification}'),
    400: json(RetryResultSchema, 'Already sent, not failed, or 3 retries used'),
    404: json(RetryResultSchema, 'Notification not found'),
    409: json(RetryResultSchema, 'Another delivery attempt is in progress'),
    502: json(RetryResultSchema, 'The provider refused or failed again'),
    ...common,
  },
})

export const historyRoutes = createRouter()

// Literal paths are registered before /{id}, so they win over it.
historyRoutes
  .openapi(list, async (c) => {
    const query = c.req.valid('query')
    const userId = scopeFor(currentUser(c), query.userId)
    const { notifications, total } = await listNotifications(
      createDb(c.env.DB),
      { ...query, userId },
      withResultWords,
    )
    const { page, limit } = query
    const pagination = { page, limit, total, totalPages: Math.ceil(total / limit) }
    return c.json({ notifications, pagination }, 200)
  })
  .openapi(stats, async (c) => {
    const query = c.req.valid('query')
    const userId = scopeFor(currentUser(c), query.userId)
    return c.json(await notificationStats(createDb(c.env.DB), { ...query, userId }), 200)
  })
  .openapi(cleanup, async (c) => {
    const { daysOld } = c.req.valid('query')
    const caller = currentUser(c)
    const before = Date.now() - daysOld * DAY_MS
    const { deleted, complete } = await cleanupNotifications(c.env.DB, before, ownerFilter(caller))
    const message =
      `Deleted ${deleted} notification${deleted === 1 ? '' : 's'} older than ${daysOld} days` +
      (complete ? '' : '; more remain, call again to continue')
    return c.json({ deleted, message }, 200)
  })
  .openapi(readAll, async (c) => {
    const { userId } = c.req.valid('param')
    const owner = scopeFor(currentUser(c), userId) ?? userId
    const updated = await markAllRead(createDb(c.env.DB), owner, Date.now())
    return c.json({ success: true as const, updated }, 200)
  })
  .openapi(getOne, async (c) => {
    const { id } = c.req.valid('param')
    const owner = ownerFilter(currentUser(c))
    const found = await findNotification(createDb(c.env.DB), id, owner, withResultWords)
    if (!found) throw notFound(NOT_FOUND)
    return c.json(found, 200)
  })
  .openapi(read, async (c) => {
    const { id } = c.req.valid('param')
    const db = createDb(c.env.DB)
    const owner = ownerFilter(currentUser(c))
    const notification = await markRead(db, id, owner, Date.now(), withResultWords)
    if (!notification) throw notFound(NOT_FOUND)
    return c.json({ success: true as const, notification }, 200)
  })
  .openapi(retry, async (c) => {
    const { id } = c.req.valid('param')
    const answer = await retryNotification(
      notifier(c.env),
      id,
      ownerFilter(currentUser(c)),
      Date.now(),
    )
    return c.json(answer.body, answer.status)
  })
