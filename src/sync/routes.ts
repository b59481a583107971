// Admin sync triggers: all platforms or one, answering each platform's outcome.
import { z } from '@hono/zod-openapi'
import type { AppEnv } from '../app-env.ts'
import { PLATFORMS, PlatformParam, type Platform } from '../contests/schemas.ts'
import { conflict } from '../lib/errors.ts'
import { errorResponse, json } from '../lib/openapi.ts'
import type { Context } from 'hono'
import { emitContestCreated } from '../webhooks/contest-events.ts'
import { announceIncidents } from './incidents.ts'
import { adminRoute, createRouter } from '../http/router.ts'
import { syncDeps, syncedPlatforms } from './deps.ts'
import { runSync, SyncInProgressError, type PlatformSyncReport } from './job.ts'
import { queueDeferredSyncs } from './queue.ts'

const SyncResults = z
  .object({
    results: z.array(
      z.object({
        platform: z.enum(PLATFORMS),
        created: z.number(),
        updated: z.number(),
        unchanged: z.number(),
        failed: z.number(),
        unsupported: z.number(),
        rescheduled: z.number(),
        cancelled: z.number(),
        state: z.enum(['ok', 'degraded', 'failing', 'blocked']),
        source: z.enum(['own', 'clist']),
        durationMs: z.number(),
        error: z.string().optional(),
        waiting: z
          .string()
          .optional()
          .openapi({
            description:
              '"waiting for the clist budget": clist.by was not asked; a sync of the platform ' +
              'is queued for when its budget allows',
          }),
      }),
    ),
  })
  .openapi('SyncResults')

const responses = {
  200: json(SyncResults, 'Outcome per platform (a failed platform carries `error`)'),
  409: errorResponse('A sync is already running'),
}
const tags = ['Contests (admin)']

const syncAll = adminRoute({
  method: 'post',
  path: '/sync',
  tags,
  summary: 'Sync every platform now',
  responses,
})

const syncOne = adminRoute({
  method: 'post',
  path: '/sync/{platform}',
  tags,
  summary: 'Sync one platform now',
  request: { params: PlatformParam },
  responses: { ...responses, 400: errorResponse('Unknown platform') },
})

async function sync(c: Context<AppEnv>, platforms: readonly Platform[]) {
  try {
    const now = Date.now()
    const deps = syncDeps(c.env)
    const { reports, created, transitions, deferred } = await runSync(deps, platforms, now)
    await emitContestCreated(c.env, created, now)
    await announceIncidents(c.env, transitions, now)
    await queueDeferredSyncs(c.env.SYNC_QUEUE, deps, deferred, 0, now)
    return { results: reports.map(({ statements: _, ...report }: PlatformSyncReport) => report) }
  } catch (err) {
    if (err instanceof SyncInProgressError) throw conflict(err.message)
    throw err
  }
}

export const syncRoutes = createRouter()

syncRoutes
  .openapi(syncAll, async (c) => c.json(await sync(c, syncedPlatforms(syncDeps(c.env))), 200))
  .openapi(syncOne, async (c) => c.json(await sync(c, [c.req.valid('param').platform]), 200))
