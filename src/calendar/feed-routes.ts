// GET /calendar/{token}.ics: a user's private feed, opened by the secret in its address alone.
import { createRoute } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { createRouter } from '../http/router.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse } from '../lib/openapi.ts'
import { icsResponse } from './ics-response.ts'
import { privateFeed } from './private-feed.ts'
import { FeedFileParam, icsBody } from './schemas.ts'

// Only the subscriber's own client may keep a copy, and only briefly: a revoked address must stop
// answering soon. The ETag lets a client poll at no cost.
const CACHE_CONTROL = 'private, max-age=300'
const FEED_FILE = /^(.+)\.ics$/

const feed = createRoute({
  method: 'get',
  path: '/{file}',
  tags: ['Calendar'],
  summary: 'A user’s private feed (`/calendar/<token>.ics`), with their alarms; no sign-in',
  request: { params: FeedFileParam },
  responses: {
    200: icsBody('The contests the user’s preferences select, followed ones, not muted ones'),
    304: { description: 'Not modified (If-None-Match)' },
    404: errorResponse('No such feed: unknown or revoked token, or the account is gone'),
  },
})

async function etagOf(text: string): Promise<string> {
  return `"${(await sha256Hex(text)).slice(0, 32)}"`
}

export const privateFeedRoutes = createRouter().openapi(feed, async (c) => {
  const token = FEED_FILE.exec(c.req.valid('param').file)?.[1]
  const text = token && (await privateFeed(createDb(c.env.DB), token, Date.now()))
  if (!text) throw notFound('Calendar feed not found')
  const headers = { 'Cache-Control': CACHE_CONTROL, ETag: await etagOf(text) }
  if (c.req.header('If-None-Match') === headers.ETag) return c.body(null, 304, headers)
  return icsResponse(c, text, headers)
})
