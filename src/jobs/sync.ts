// Cron job: sync every platform side by side; a run that finds another still going skips rather
// than overlaps. Incidents are announced; a platform that is not ok fails the run visibly.
import type { Env } from '../env.ts'
import { syncDeps, syncedPlatforms } from '../sync/deps.ts'
import { runSync, SyncInProgressError } from '../sync/job.ts'
import { emitContestCreated } from '../webhooks/contest-events.ts'
import { announceIncidents } from '../sync/incidents.ts'

export async function syncJob(env: Env, now: number): Promise<Record<string, number>> {
  const deps = syncDeps(env)
  let outcome
  try {
    outcome = await runSync(deps, syncedPlatforms(deps), now)
  } catch (err) {
    if (err instanceof SyncInProgressError) return { skippedOverlapping: 1 }
    throw err
  }
  const { reports, created, transitions } = outcome
  await emitContestCreated(env, created, now)
  await announceIncidents(env, transitions, now)
  const failed = reports.filter((r) => r.error)
  // Every platform was tried and recorded; a failure still fails the run so the dashboard shows it.
  if (failed.length > 0) {
    throw new Error(
      `Sync failed for ${failed.map((r) => `${r.platform} (${r.state}: ${r.error})`).join(', ')}`,
    )
  }
  const sum = (key: 'created' | 'updated' | 'unchanged' | 'failed' | 'cancelled') =>
    reports.reduce((n, r) => n + r[key], 0)
  return {
    platforms: reports.length,
    created: sum('created'),
    updated: sum('updated'),
    unchanged: sum('unchanged'),
    cancelled: sum('cancelled'),
    failed: sum('failed'),
  }
}
