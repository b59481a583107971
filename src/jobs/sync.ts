// Cron job: queue one sync per platform (src/sync/queue.ts syncs each in its own invocation).
import type { Env } from '../env.ts'
import { syncDeps, syncedPlatforms } from '../sync/deps.ts'
import { queuePlatformSyncs } from '../sync/queue.ts'

export async function syncJob(env: Env): Promise<Record<string, number>> {
  const platforms = syncedPlatforms(syncDeps(env))
  await queuePlatformSyncs(env.SYNC_QUEUE, platforms)
  return { queued: platforms.length }
}
