// POST /contests/{id}/results/check: an admin asks a contest's judge for its results now instead
// of at the backoff's next time (a judge that published early, a re-calculation announced, an
// outage fixed), as POST /contests/sync/{platform} syncs now. The check is made due and its
// message queued; the results consumer asks, stores and tells as on any other ask, so a check
// held by a running ask, or asked twice, still tells each result once.
import { z } from '@hono/zod-openapi'
import { IdParam } from '../contests/schemas.ts'
import { createDb } from '../db/client.ts'
import { adminRoute, createRouter } from '../http/router.ts'
import { conflict, notFound } from '../lib/errors.ts'
import { errorResponse, json } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import type { QueueProducer } from '../ports/queue.ts'
import { NEVER } from './backoff.ts'
import { makeCheckDue } from './checks.ts'
import type { ResultsMessage } from './consumer.ts'

const NO_CHECK =
  'This contest has no result check: it has not ended in the last 2 days, its judge publishes ' +
  'no results the service reads, or no handle is linked on its platform'

const ResultCheckSchema = z
  .object({
    contestId: z.string(),
    platform: z.string(),
    state: z.enum(['WAITING', 'PUBLISHED', 'GAVE_UP']),
    attempts: z.number().int(),
    nextCheckAt: z.string().nullable(),
    rated: z.boolean().nullable(),
    participants: z.number().int().nullable(),
    publishedAt: z.string().nullable(),
  })
  .openapi('ResultCheck')

const checkNow = adminRoute({
  method: 'post',
  path: '/{id}/results/check',
  tags: ['Contests (admin)'],
  summary: 'Ask the contest’s judge for its results now (its check is made due and queued)',
  request: { params: IdParam },
  responses: {
    202: json(ResultCheckSchema, 'Queued: the results consumer asks the judge'),
    400: errorResponse('Validation failed (message is an array of strings)'),
    404: errorResponse(NO_CHECK),
    409: errorResponse('The service gave up waiting for this contest’s results'),
  },
})

export const resultCheckRoutes = createRouter().openapi(checkNow, async (c) => {
  const contestId = c.req.valid('param').id
  const now = Date.now()
  const check = await makeCheckDue(createDb(c.env.DB), contestId, now)
  if (!check) throw notFound(NO_CHECK)
  if (check.state === 'GAVE_UP') {
    throw conflict('The service gave up waiting for this contest’s results')
  }
  const queue = c.env.RESULTS_QUEUE as QueueProducer<ResultsMessage>
  await queue.send({ contestId })
  return c.json(
    {
      contestId: check.contestId,
      platform: check.platform,
      state: check.state,
      attempts: check.attempts,
      nextCheckAt: check.nextCheckAt >= NEVER ? null : toIso(check.nextCheckAt),
      rated: check.rated === null ? null : check.rated === 1,
      participants: check.participants,
      publishedAt: check.publishedAt === null ? null : toIso(check.publishedAt),
    },
    202,
  )
})
