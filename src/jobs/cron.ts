// Cron router: each Cron Trigger expression of wrangler.toml runs its job, records the run
// (job_runs, the watchdog's evidence) and logs one JSON line.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { finishJobRun, startJobRun } from '../status/job-runs.ts'
import { cleanupJob } from './cleanup.ts'
import { schedulerJob } from './scheduler.ts'
import { syncJob } from './sync.ts'
import { settleIncident, WATCHED_JOBS, type WatchedJob } from './watchdog.ts'

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
  const runId = await recordStart(env, job.name, cron, now)
  let counts: Record<string, number>
  try {
    counts = await job.run(env, now)
  } catch (error) {
    const durationMs = Date.now() - started
    // Logged here as well, so dashboards see failures beside job-finished with the same keys.
    log.error('job-failed', { job: job.name, cron, durationMs, error })
    await recordFinish(env, runId, 'failed', now + durationMs, error)
    throw error
  }
  const durationMs = Date.now() - started
  await recordFinish(env, runId, 'ok', now + durationMs)
  // A watched job that ran well has healed whatever incident its stopping opened.
  if (job.name in WATCHED_JOBS) {
    const healed = await settleIncident(env, job.name as WatchedJob, undefined, now + durationMs)
    if (healed.incidentsClosed > 0) counts = { ...counts, incidentsClosed: healed.incidentsClosed }
  }
  log.info('job-finished', { job: job.name, cron, durationMs, counts })
}

// The record is the watchdog's evidence, not the job's work: a failure to write it is logged and
// the job runs (a D1 down enough to refuse it fails the job anyway, and that is recorded next).
async function recordStart(env: Env, job: string, cron: string, now: number) {
  try {
    return await startJobRun(createDb(env.DB), job, cron, now)
  } catch (error) {
    log.error('job-run-record-failed', { job, cron, error })
    return undefined
  }
}

async function recordFinish(
  env: Env,
  runId: string | undefined,
  outcome: 'ok' | 'failed',
  finishedAt: number,
  error?: unknown,
) {
  if (runId === undefined) return
  try {
    const message =
      error === undefined ? undefined : error instanceof Error ? error.message : String(error)
    await finishJobRun(createDb(env.DB), runId, outcome, finishedAt, message)
  } catch (recordError) {
    log.error('job-run-record-failed', { runId, error: recordError })
  }
}
