// GET /status (a page, kept out of /openapi.json like the home page) and GET /status.json (in
// it): the service's health for anyone. Both come from one read a minute per location
// (status-data.ts), whatever the traffic and whatever query string a caller adds; the public
// cache gives their answers its headers, ETag and 304, and stores none of them itself (a stored
// answer over a minute-old read could be two minutes old).
import { createRoute } from '@hono/zod-openapi'
import { catalogueVersion } from '../contests/catalogue-version.ts'
import { publicCache } from '../http/public-cache.ts'
import { createRouter } from '../http/router.ts'
import { json } from '../lib/openapi.ts'
import { PAGE_HEADERS } from './page-headers.ts'
import { serviceStatus, STATUS_TTL_SECONDS, type CronJob } from './status-data.ts'
import { StatusPage } from './status-page.tsx'
import { StatusSchema } from './status-schemas.ts'

const cached = () =>
  publicCache(STATUS_TTL_SECONDS, (c) => catalogueVersion(c.env.KV), { store: false })

const statusJson = createRoute({
  method: 'get',
  path: '/status.json',
  tags: ['Service'],
  summary: "The service's health: platforms, incidents, deliveries, jobs (at most a minute old)",
  middleware: [cached()] as const,
  responses: { 200: json(StatusSchema, 'What /status shows') },
})

export function statusRoutes(jobs: readonly CronJob[]) {
  const router = createRouter().openapi(statusJson, async (c) =>
    c.json(await serviceStatus(c.env, jobs), 200),
  )
  router.get('/status', cached(), async (c) =>
    c.html(<StatusPage status={await serviceStatus(c.env, jobs)} />, 200, PAGE_HEADERS),
  )
  return router
}
