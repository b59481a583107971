// Cron job: queue one sync per platform (src/sync/queue.ts syncs each in its own invocation). The
// run fails, after queueing, while a platform's last sync left it not ok, so the cron's own record
// shows a broken platform too, not only the queue consumer's invocation.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { syncDeps, syncedPlatforms } from '../sync/deps.ts'
import { readPlatformStatuses } from '../sync/platform-status.ts'
import { queuePlatformSyncs } from '../sync/queue.ts'

export async function syncJob(env: Env): Promise<Record<string, number>> {
  const platforms = syncedPlatforms(syncDeps(env))
  await queuePlatformSyncs(env.SYNC_QUEUE, platforms)
  const statuses = await readPlatformStatuses(createDb(env.DB))
  const broken = platforms.flatMap((p) => {
    const status = statuses.get(p)
    return status && status.state !== 'ok' ? [`${p} (${status.state}: ${status.lastError})`] : []
  })
  if (broken.length > 0) {
    throw new Error(
      `Queued ${platforms.length} syncs; not ok at their last sync: ${broken.join(', ')}`,
    )
  }
  return { queued: platforms.length }
}
