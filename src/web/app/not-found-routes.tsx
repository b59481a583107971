// Every address under /app that no router before this one answered: the 404 page, not the API's
// JSON 404. Mounted last in routes.ts, so the routers mounted before it still match.
import { createRouter } from '../../http/router.ts'
import { notFoundPage } from './not-found-page.tsx'

export const notFoundRoutes = createRouter().all('*', (c) =>
  notFoundPage(c, `There is no page at ${c.req.path}. The link may be old or mistyped.`),
)
