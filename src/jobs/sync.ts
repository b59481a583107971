// Cron job: sync every platform; a run that finds another still going skips rather than overlaps.
import { PLATFORMS } from '../contests/schemas.ts'
import type { Env } from '../env.ts'
import { runSync, syncDeps, SyncInProgressError } from '../sync/job.ts'
import { emitContestCreated } from '../webhooks/contest-events.ts'

export async function syncJob(env: Env, now: number): Promise<Record<string, number>> {
  let reports, created
  try {
    ;({ reports, created } = await runSync(syncDeps(env), PLATFORMS, now))
  } catch (err) {
    if (err instanceof SyncInProgressError) return { skippedOverlapping: 1 }
    throw err
  }
  await emitContestCreated(env, created, now)
  const failed = reports.filter((r) => r.error)
  // Every platform was tried and recorded; a failure still fails the run so the dashboard shows it.
  if (failed.length > 0) {
    throw new Error(`Sync failed for ${failed.map((r) => `${r.platform} (${r.error})`).join(', ')}`)
  }
  const sum = (key: 'created' | 'updated' | 'unchanged' | 'failed') =>
    reports.reduce((n, r) => n + r[key], 0)
  return {
    created: sum('created'),
    updated: sum('updated'),
    unchanged: sum('unchanged'),
    failed: sum('failed'),
  }
}
