// GET /contests/calendar.ics: the public catalogue as an iCalendar feed, filtered by the query and
// cached like every public read.
import { createRoute } from '@hono/zod-openapi'
import { catalogueVersion } from '../contests/catalogue-version.ts'
import { createDb } from '../db/client.ts'
import { publicCache } from '../http/public-cache.ts'
import { createRouter } from '../http/router.ts'
import { errorResponse } from '../lib/openapi.ts'
import { icsResponse } from './ics-response.ts'
import { publicFeed } from './public-feed.ts'
import { CalendarQuery, icsBody } from './schemas.ts'

// The window moves by the minute but a feed is read by the hour: five minutes of staleness is free.
export const FEED_TTL = 300

const feed = createRoute({
  method: 'get',
  path: '/calendar.ics',
  tags: ['Calendar'],
  summary: 'Upcoming, running and last 30 days’ contests as an iCalendar feed',
  middleware: [publicCache(FEED_TTL, (c) => catalogueVersion(c.env.KV))] as const,
  request: { query: CalendarQuery },
  responses: {
    200: icsBody('One VEVENT per contest, UID `<platform>-<platformId>@contest-alert-service`'),
    304: { description: 'Not modified (If-None-Match)' },
    400: errorResponse('Invalid or unknown query parameter'),
  },
})

/** Mounted under /contests ahead of the catalogue's /{id}, which would take `calendar.ics`. */
export const publicCalendarRoutes = createRouter().openapi(feed, async (c) => {
  const db = createDb(c.env.DB)
  return icsResponse(c, await publicFeed(db, c.req.valid('query'), Date.now()))
})
