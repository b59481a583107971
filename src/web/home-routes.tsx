// GET /: the home page, cached under the catalogue version like the public API reads.
import { catalogueVersion } from '../contests/catalogue-version.ts'
import { createDb } from '../db/client.ts'
import { publicCache } from '../http/public-cache.ts'
import { createRouter } from '../http/router.ts'
import { platformsSnapshot } from '../sync/platform-view.ts'
import { InvalidQueryPage } from './error-page.tsx'
import { homeJudges } from './home-judges.ts'
import { homeListing } from './home-listing.ts'
import { HomePage } from './home-page.tsx'
import { readHomeQuery } from './home-query.ts'
import { ERROR_PAGE_HEADERS, PAGE_HEADERS } from './page-headers.ts'

// As the API's time-dependent lists: a contest moves from "Upcoming" to "Running now" within a minute.
const HOME_TTL = 60

/** A page, not an API read: kept out of /openapi.json, with HTML errors rather than JSON ones. */
export const homeRoutes = createRouter().get(
  '/',
  publicCache(HOME_TTL, (c) => catalogueVersion(c.env.KV)),
  async (c) => {
    const read = readHomeQuery(new URL(c.req.url).searchParams)
    if (!read.ok) return c.html(<InvalidQueryPage errors={read.errors} />, 400, ERROR_PAGE_HEADERS)
    const db = createDb(c.env.DB)
    const [listing, platforms, judges] = await Promise.all([
      homeListing(db, read.query, Date.now()),
      platformsSnapshot(c.env),
      homeJudges(db, c.env.KV),
    ])
    return c.html(
      <HomePage query={read.query} listing={listing} platforms={platforms} judges={judges} />,
      200,
      PAGE_HEADERS,
    )
  },
)
