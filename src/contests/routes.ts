// Public contest endpoints: lists, search, lookup by id, statistics and health.
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi'
import type { AppEnv } from '../app-env.ts'
import type { Db } from '../db/client.ts'
import { createDb } from '../db/client.ts'
import { publicCache } from '../http/public-cache.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse, json } from '../lib/openapi.ts'
import { pagination } from '../lib/pagination.ts'
import { toIso } from '../lib/time.ts'
import {
  findContest,
  listByDifficulty,
  listByPlatform,
  listByType,
  listContests,
  listFinished,
  listRunning,
  listUpcoming,
  searchContests,
} from './queries.ts'
import {
  ContestDetailSchema,
  ContestPageSchema,
  ContestSchema,
  DifficultyParam,
  HealthSchema,
  IdParam,
  ListQuery,
  PlatformListQuery,
  PlatformParam,
  PlatformQuery,
  PlatformStatsSchema,
  SearchQuery,
  ContestStatsSchema,
  TypeParam,
  type Platform,
} from './schemas.ts'
import type { PlatformView } from './schemas.ts'
import { createRouter } from '../http/router.ts'
import { catalogueVersion } from './catalogue-version.ts'
import { searchInMemory } from './search-memory.ts'
import { toApiContest, toApiContestDetail } from './serialize.ts'
import { contestStats, platformStats } from './stats.ts'

// How stale each kind of read may be. Time-dependent answers get a short life.
const TIME_DEPENDENT_TTL = 60
const SEARCH_TTL = 300
const DETAIL_TTL = 30

/** Cached under the catalogue version, which every catalogue write replaces. */
const cached = (ttl: number, options?: { store: boolean }) =>
  publicCache(ttl, (c) => catalogueVersion(c.env.KV), options)

const tags = ['Contests']
const ContestList = z.array(ContestSchema)
const badRequest = errorResponse('Invalid parameter')

function listRoute<R extends NonNullable<RouteConfig['request']>>(
  path: string,
  summary: string,
  request: R,
  { ttl = TIME_DEPENDENT_TTL, store = true } = {},
) {
  return createRoute({
    method: 'get',
    path,
    tags,
    summary,
    middleware: [cached(ttl, { store })] as const,
    request,
    responses: { 200: json(ContestList, 'Contests'), 400: badRequest },
  })
}

const upcoming = listRoute('/upcoming', 'Upcoming contests, soonest first (at most 50)', {
  query: PlatformQuery,
})
const running = listRoute('/running', 'Running contests by start time (at most 50)', {
  query: PlatformQuery,
})
const finished = listRoute('/finished', 'Finished contests, most recent first (at most 50)', {
  query: PlatformQuery,
})
const search = listRoute(
  '/search',
  'Full-text search over names and descriptions (at most 20)',
  { query: SearchQuery },
  // Answered from memory (search-memory.ts) faster than the Cache API answers.
  { ttl: SEARCH_TTL, store: false },
)
const byPlatform = listRoute('/platform/{platform}', 'Contests of one platform by start time', {
  params: PlatformParam,
  query: PlatformListQuery,
})
const byDifficulty = listRoute('/difficulty/{level}', 'Contests of one difficulty (at most 50)', {
  params: DifficultyParam,
})
const byType = listRoute('/type/{type}', 'Contests of one type (at most 50)', { params: TypeParam })

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Paginated, filtered and sorted contest list',
  middleware: [cached(TIME_DEPENDENT_TTL)] as const,
  request: { query: ListQuery },
  responses: { 200: json(ContestPageSchema, 'A page of contests'), 400: badRequest },
})

const stats = createRoute({
  method: 'get',
  path: '/stats',
  tags,
  summary: 'Catalogue statistics',
  middleware: [cached(TIME_DEPENDENT_TTL)] as const,
  responses: { 200: json(ContestStatsSchema, 'Statistics over active contests') },
})

const statsByPlatform = createRoute({
  method: 'get',
  path: '/stats/{platform}',
  tags,
  summary: 'Statistics of one platform',
  middleware: [cached(TIME_DEPENDENT_TTL)] as const,
  request: { params: PlatformParam },
  responses: { 200: json(PlatformStatsSchema, 'Platform statistics'), 400: badRequest },
})

const health = createRoute({
  method: 'get',
  path: '/health',
  tags,
  summary: "Liveness check, with each platform's freshness (two small reads)",
  responses: { 200: json(HealthSchema, 'The service is running') },
})

const byId = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One contest with its time-derived fields',
  middleware: [cached(DETAIL_TTL)] as const,
  request: { params: IdParam },
  responses: {
    200: json(ContestDetailSchema, 'The contest'),
    400: errorResponse('Invalid contest ID format'),
    404: errorResponse('No contest has that id'),
  },
})

/** What the sync feature knows of platforms, handed in by the app. */
export interface SyncRecords {
  /** When a platform last synced successfully. */
  lastSyncOf: (db: Db, platform: Platform) => Promise<number | null>
  /** Every platform's freshness as the last sync left it (no D1 read). */
  platformsSnapshot: (env: AppEnv['Bindings']) => Promise<PlatformView[]>
}

const render = (rows: Parameters<typeof toApiContest>[0][], now: number) =>
  rows.map((row) => toApiContest(row, now))

// Literal paths are registered before /{id}, so they win over it.
export function contestRoutes({ lastSyncOf, platformsSnapshot }: SyncRecords) {
  return createRouter()
    .openapi(health, async (c) => {
      c.header('Cache-Control', 'no-store')
      const platforms = await platformsSnapshot(c.env)
      return c.json({ status: 'ok' as const, timestamp: toIso(Date.now()), platforms }, 200)
    })
    .openapi(upcoming, async (c) => {
      const now = Date.now()
      const rows = await listUpcoming(createDb(c.env.DB), c.req.valid('query').platform, now)
      return c.json(render(rows, now), 200)
    })
    .openapi(running, async (c) => {
      const now = Date.now()
      const rows = await listRunning(createDb(c.env.DB), c.req.valid('query').platform, now)
      return c.json(render(rows, now), 200)
    })
    .openapi(finished, async (c) => {
      const now = Date.now()
      const rows = await listFinished(createDb(c.env.DB), c.req.valid('query').platform, now)
      return c.json(render(rows, now), 200)
    })
    .openapi(search, async (c) => {
      const now = Date.now()
      const db = createDb(c.env.DB)
      const { q } = c.req.valid('query')
      const version = await catalogueVersion(c.env.KV)
      const rows =
        (await searchInMemory(db, q, version, SEARCH_TTL * 1000, now)) ??
        (await searchContests(db, q))
      return c.json(render(rows, now), 200)
    })
    .openapi(stats, async (c) => {
      return c.json(await contestStats(createDb(c.env.DB), Date.now()), 200)
    })
    .openapi(statsByPlatform, async (c) => {
      const { platform } = c.req.valid('param')
      const db = createDb(c.env.DB)
      const lastSync = await lastSyncOf(db, platform)
      return c.json(await platformStats(db, platform, lastSync, Date.now()), 200)
    })
    .openapi(byPlatform, async (c) => {
      const now = Date.now()
      const { platform } = c.req.valid('param')
      const rows = await listByPlatform(createDb(c.env.DB), platform, c.req.valid('query'), now)
      return c.json(render(rows, now), 200)
    })
    .openapi(byDifficulty, async (c) => {
      const now = Date.now()
      const rows = await listByDifficulty(createDb(c.env.DB), c.req.valid('param').level)
      return c.json(render(rows, now), 200)
    })
    .openapi(byType, async (c) => {
      const now = Date.now()
      const rows = await listByType(createDb(c.env.DB), c.req.valid('param').type)
      return c.json(render(rows, now), 200)
    })
    .openapi(list, async (c) => {
      const now = Date.now()
      const filters = c.req.valid('query')
      const { rows, total } = await listContests(createDb(c.env.DB), filters, now)
      const page = pagination(total, filters.limit, filters.offset, rows.length)
      return c.json({ data: render(rows, now), pagination: page }, 200)
    })
    .openapi(byId, async (c) => {
      const { id } = c.req.valid('param')
      const contest = await findContest(createDb(c.env.DB), id)
      if (!contest) throw notFound(`Contest with ID ${id} not found`)
      return c.json(toApiContestDetail(contest, Date.now()), 200)
    })
}
