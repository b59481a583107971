// GET /contests/{id}/calendar.ics: one contest's event as a file, cached like the public feed.
import { createRoute } from '@hono/zod-openapi'
import { catalogueVersion } from '../contests/catalogue-version.ts'
import { IdParam } from '../contests/schemas.ts'
import { createDb } from '../db/client.ts'
import { publicCache } from '../http/public-cache.ts'
import { createRouter } from '../http/router.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse } from '../lib/openapi.ts'
import { contestFile } from './contest-file.ts'
import { icsResponse } from './ics-response.ts'
import { FEED_TTL } from './public-routes.ts'
import { icsBody } from './schemas.ts'

const file = createRoute({
  method: 'get',
  path: '/{id}/calendar.ics',
  tags: ['Calendar'],
  summary: 'One contest as an iCalendar file (add to calendar)',
  middleware: [publicCache(FEED_TTL, (c) => catalogueVersion(c.env.KV))] as const,
  request: { params: IdParam },
  responses: {
    200: icsBody('One VEVENT with the UID the feeds give the contest'),
    304: { description: 'Not modified (If-None-Match)' },
    400: errorResponse('Invalid contest ID format'),
    404: errorResponse('No contest has that id'),
  },
})

/** Mounted under /contests ahead of the catalogue's routers, like the public feed. */
export const contestCalendarRoutes = createRouter().openapi(file, async (c) => {
  const { id } = c.req.valid('param')
  const text = await contestFile(createDb(c.env.DB), id)
  if (text === undefined) throw notFound(`Contest with ID ${id} not found`)
  return icsResponse(c, text)
})
