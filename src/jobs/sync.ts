// Cron job: queue the platforms' syncs (src/sync/queue.ts syncs each message in its own
// invocation). The run fails only when it cannot queue them: a platform that is not ok fails its
// own sync's invocation, was told once when its incident opened, and shows on GET /platforms; the
// run counts those platforms (`notOk`) rather than failing every six hours while one stays broken.
// It also watches the scheduler (jobs/watchdog.ts).
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { syncDeps, syncedPlatforms } from '../sync/deps.ts'
import { readPlatformStatuses } from '../sync/platform-status.ts'
import { queuePlatformSyncs } from '../sync/queue.ts'
import { watch } from './watchdog.ts'

export async function syncJob(env: Env, now: number): Promise<Record<string, number>> {
  // First: the scheduler's silence is news whatever becomes of the queueing below.
  const watched = await watch(env, { jobs: ['scheduler'] }, now)
  const deps = syncDeps(env)
  const platforms = syncedPlatforms(deps)
  await queuePlatformSyncs(env.SYNC_QUEUE, deps, platforms)
  const statuses = await readPlatformStatuses(createDb(env.DB))
  const notOk = platforms.flatMap((p) => {
    const status = statuses.get(p)
    return status && status.state !== 'ok' ? [`${p} (${status.state}: ${status.lastError})`] : []
  })
  if (notOk.length > 0) log.with({ job: 'sync' }).warn('platforms-not-ok', { platforms: notOk })
  return { queued: platforms.length, notOk: notOk.length, ...watched }
}
