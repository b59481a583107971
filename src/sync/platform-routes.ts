// GET /platforms: every platform the catalogue knows, with its freshness and source.
import { createRoute } from '@hono/zod-openapi'
import { catalogueVersion } from '../contests/catalogue-version.ts'
import { publicCache } from '../http/public-cache.ts'
import { createRouter } from '../http/router.ts'
import { json } from '../lib/openapi.ts'
import { platformsOf } from './platform-view.ts'
import { PlatformListSchema } from '../contests/schemas.ts'

const platforms = createRoute({
  method: 'get',
  path: '/',
  tags: ['Contests'],
  summary: 'Every platform with its upcoming count, last sync and state',
  // A minute: states change with syncs, which do not always change the catalogue's version.
  middleware: [publicCache(60, (c) => catalogueVersion(c.env.KV))] as const,
  responses: { 200: json(PlatformListSchema, 'The platforms, in the order pages list them') },
})

export const platformRoutes = createRouter().openapi(platforms, async (c) => {
  return c.json(await platformsOf(c.env, Date.now()), 200)
})
