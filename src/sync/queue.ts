// The sync's fan-out: the cron queues one message per platform, and each message syncs its
// platform in an invocation of its own. A platform that is not ok fails its invocation, which the
// dashboard shows beside its state on GET /platforms.
import type { Env } from '../env.ts'
import { isPlatform, type Platform } from '../platforms/registry.ts'
import type { QueueBatch, QueueProducer } from '../ports/queue.ts'
import { emitContestCreated } from '../webhooks/contest-events.ts'
import { syncDeps } from './deps.ts'
import { announceIncidents } from './incidents.ts'
import { runSync, SyncInProgressError } from './job.ts'

export interface SyncMessage {
  platform: Platform
}

export async function queuePlatformSyncs(
  queue: QueueProducer<SyncMessage>,
  platforms: readonly Platform[],
): Promise<void> {
  if (platforms.length > 0)
    await queue.sendBatch(platforms.map((platform) => ({ body: { platform } })))
}

/** Syncs the platform of each message; throws (after all of them) when any is not ok. */
export async function consumeSyncQueue(batch: QueueBatch, env: Env): Promise<void> {
  const failed: string[] = []
  for (const message of batch.messages) {
    const platform = (message.body as Partial<SyncMessage> | null)?.platform
    // A message of an older release naming a platform since removed has nothing left to do.
    if (typeof platform !== 'string' || !isPlatform(platform)) {
      message.ack()
      continue
    }
    const now = Date.now()
    try {
      const { reports, created, transitions } = await runSync(syncDeps(env), [platform], now)
      await emitContestCreated(env, created, now)
      await announceIncidents(env, transitions, now)
      const report = reports[0]
      if (report.error) failed.push(`${platform} (${report.state}: ${report.error})`)
    } catch (error) {
      // The previous run of this platform still holds its lease: it is doing this very work.
      if (!(error instanceof SyncInProgressError)) throw error
    }
    message.ack()
  }
  if (failed.length > 0) throw new Error(`Sync failed for ${failed.join(', ')}`)
}
