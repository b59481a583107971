// Admin contest writes: create one or many, update, delete. Each write refreshes public caches.
import { z } from '@hono/zod-openapi'
import type { ContestRow } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { createDb } from '../db/client.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { adminRoute, createRouter } from '../http/router.ts'
import { createContests, deleteContest, updateContest } from './admin.ts'
import { BulkCreateBody, CreateContestBody, UpdateContestBody } from './admin-schemas.ts'
import { bumpCatalogueVersion } from './catalogue-version.ts'
import { ContestSchema, IdParam } from './schemas.ts'
import { toApiContest } from './serialize.ts'

const tags = ['Contests (admin)']
const invalid = errorResponse('Invalid body')

const create = adminRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Add a contest',
  request: {
    ...jsonBody(CreateContestBody),
  },
  responses: {
    201: json(ContestSchema, 'The new contest'),
    400: invalid,
    409: errorResponse('A contest with that platform and platformId exists'),
  },
})

const bulk = adminRoute({
  method: 'post',
  path: '/bulk',
  tags,
  summary: 'Add 1 to 100 contests, all or none',
  request: {
    ...jsonBody(BulkCreateBody),
  },
  responses: {
    201: json(z.object({ created: z.number(), contests: z.array(ContestSchema) }), 'Created'),
    400: invalid,
    409: errorResponse('A duplicate contest; nothing was written'),
  },
})

const update = adminRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change a contest',
  request: {
    params: IdParam,
    ...jsonBody(UpdateContestBody),
  },
  responses: {
    200: json(ContestSchema, 'The updated contest'),
    400: invalid,
    404: errorResponse('No contest has that id'),
  },
})

const remove = adminRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete a contest',
  request: { params: IdParam },
  responses: {
    200: json(MessageSchema, 'Deleted'),
    400: invalid,
    404: errorResponse('No contest has that id'),
  },
})

/** Told of contests an admin just added (the app passes the webhooks' contest.created). */
export type ContestsCreated = (env: Env, rows: ContestRow[], now: number) => Promise<void>

export function contestAdminRoutes(onCreated: ContestsCreated) {
  return createRouter()
    .openapi(create, async (c) => {
      const now = Date.now()
      const [row] = await createContests(createDb(c.env.DB), [c.req.valid('json')], now)
      await bumpCatalogueVersion(c.env.KV)
      await onCreated(c.env, [row], now)
      return c.json(toApiContest(row, now), 201)
    })
    .openapi(bulk, async (c) => {
      const now = Date.now()
      const rows = await createContests(createDb(c.env.DB), c.req.valid('json').contests, now)
      await bumpCatalogueVersion(c.env.KV)
      await onCreated(c.env, rows, now)
      return c.json({ created: rows.length, contests: rows.map((r) => toApiContest(r, now)) }, 201)
    })
    .openapi(update, async (c) => {
      const now = Date.now()
      const { id } = c.req.valid('param')
      const row = await updateContest(createDb(c.env.DB), id, c.req.valid('json'), now)
      await bumpCatalogueVersion(c.env.KV)
      return c.json(toApiContest(row, now), 200)
    })
    .openapi(remove, async (c) => {
      await deleteContest(createDb(c.env.DB), c.req.valid('param').id)
      await bumpCatalogueVersion(c.env.KV)
      return c.json({ message: 'Contest deleted successfully' }, 200)
    })
}
