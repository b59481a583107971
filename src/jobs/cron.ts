// Cron router: each Cron Trigger expression of wrangler.toml runs its job and logs one JSON line.
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { cleanupJob } from './cleanup.ts'
import { schedulerJob } from './scheduler.ts'
import { syncJob } from './sync.ts'

export type Job = (env: Env, now: number) => Promise<Record<string, number>>

export const CRONS: Record<string, { name: string; run: Job }> = {
  '*/30 * * * *': { name: 'scheduler', run: schedulerJob },
  '0 */6 * * *': { name: 'sync', run: syncJob },
  '0 2 * * *': { name: 'cleanup', run: cleanupJob },
}

/** Runs the job of `cron`; a failing job throws so the Cron Trigger records the failure. */
export async function runCron(cron: string, env: Env, now: number): Promise<void> {
  const job = CRONS[cron]
  if (!job) throw new Error(`No job is scheduled for cron "${cron}"`)
  const started = Date.now()
  let counts: Record<string, number>
  try {
    counts = await job.run(env, now)
  } catch (error) {
    // Logged here as well, so dashboards see failures beside job-finished with the same keys.
    log.error('job-failed', { job: job.name, cron, durationMs: Date.now() - started, error })
    throw error
  }
  log.info('job-finished', { job: job.name, cron, durationMs: Date.now() - started, counts })
}
