// The sync's fan-out: the cron queues one message per platform with a source of its own and one
// for the long tail (clist.by lists it in one request), and each message is synced in an
// invocation of its own. A platform that is not ok fails its invocation, which the dashboard shows
// beside its state on GET /platforms. A sync that clist's budget put off is queued again, delayed
// until the budget allows.
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { isPlatform, platformModule, type Platform } from '../platforms/registry.ts'
import type { QueueBatch, QueueProducer } from '../ports/queue.ts'
import { emitContestCreated } from '../webhooks/contest-events.ts'
import { isLongTail, syncDeps, type SyncDeps } from './deps.ts'
import { announceIncidents } from './incidents.ts'
import { runSync, SyncInProgressError, type DeferredSync } from './job.ts'

export interface SyncMessage {
  /** One platform with a source of its own, or the long tail, synced together. */
  platforms: Platform[]
  /** How many times clist's budget has put this sync off already. */
  deferrals?: number
}

/** A message of a release before the long tail was asked for in one request. */
interface OlderSyncMessage {
  platform: string
}

// Each deferral waits about a minute (the budget's window): ten cover a burst of syncs twice the
// budget's size and more; past them the next cron run is the retry.
export const MAX_DEFERRALS = 10

/** The messages that sync `platforms`: the long tail in one, every other platform in its own. */
export function syncMessages(
  deps: Pick<SyncDeps, 'clist'>,
  platforms: readonly Platform[],
  deferrals = 0,
): SyncMessage[] {
  const longTail = platforms.filter((p) => isLongTail(deps, platformModule(p)))
  const own = platforms.filter((p) => !longTail.includes(p))
  const messages = own.map((p) => ({ platforms: [p] }))
  if (longTail.length > 0) messages.push({ platforms: longTail })
  return messages.map((m) => (deferrals > 0 ? { ...m, deferrals } : m))
}

export async function queuePlatformSyncs(
  queue: QueueProducer<SyncMessage>,
  deps: Pick<SyncDeps, 'clist'>,
  platforms: readonly Platform[],
): Promise<void> {
  const messages = syncMessages(deps, platforms)
  if (messages.length > 0) await queue.sendBatch(messages.map((body) => ({ body })))
}

/**
 * Queues the syncs clist's budget put off, delayed until it allows a request (about a minute, not
 * the six hours to the next cron run), unless they have been put off MAX_DEFERRALS times already.
 * Answers the delay, in seconds, or undefined when nothing was queued.
 */
export async function queueDeferredSyncs(
  queue: QueueProducer<SyncMessage>,
  deps: Pick<SyncDeps, 'clist'>,
  deferred: DeferredSync | undefined,
  deferrals: number,
  now: number,
): Promise<number | undefined> {
  if (!deferred) return undefined
  if (deferrals >= MAX_DEFERRALS) {
    log.with({ job: 'sync' }).warn('sync-deferrals-exhausted', {
      platforms: deferred.platforms,
      deferrals,
    })
    return undefined
  }
  const delaySeconds = Math.max(1, Math.ceil((deferred.retryAt - now) / 1000))
  const messages = syncMessages(deps, deferred.platforms, deferrals + 1)
  await queue.sendBatch(messages.map((body) => ({ body, delaySeconds })))
  return delaySeconds
}

/** The platforms a message names (either shape), known ones only. */
function platformsOf(body: unknown): { platforms: Platform[]; deferrals: number } {
  const message = (body ?? {}) as Partial<SyncMessage & OlderSyncMessage>
  const named = Array.isArray(message.platforms) ? message.platforms : [message.platform]
  // A platform since removed has nothing left to do.
  const platforms = named.filter((p): p is Platform => typeof p === 'string' && isPlatform(p))
  const deferrals = Number.isInteger(message.deferrals) ? message.deferrals! : 0
  return { platforms, deferrals }
}

/** Syncs the platforms of each message; throws (after all of them) when any is not ok. */
export async function consumeSyncQueue(batch: QueueBatch, env: Env): Promise<void> {
  const failed: string[] = []
  for (const message of batch.messages) {
    const { platforms, deferrals } = platformsOf(message.body)
    if (platforms.length === 0) {
      message.ack()
      continue
    }
    const now = Date.now()
    try {
      const deps = syncDeps(env)
      const { reports, created, transitions, deferred } = await runSync(deps, platforms, now)
      await emitContestCreated(env, created, now)
      await announceIncidents(env, transitions, now)
      await queueDeferredSyncs(env.SYNC_QUEUE, deps, deferred, deferrals, now)
      for (const report of reports) {
        if (report.error) failed.push(`${report.platform} (${report.state}: ${report.error})`)
      }
    } catch (error) {
      // The previous run of this platform still holds its lease: it is doing this very work.
      if (!(error instanceof SyncInProgressError)) throw error
    }
    message.ack()
  }
  if (failed.length > 0) throw new Error(`Sync failed for ${failed.join(', ')}`)
}
