// The record of cron runs (job_runs): each run of a job written when it starts and when it ends,
// so the watchdog can tell a job that stopped from one that merely runs rarely, and /status can
// show each job's last run. Runs are kept a week.
import { and, eq, lt, max, min } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { jobRuns, type JobRunRow } from '../db/schema.ts'
import { DAY_MS } from '../lib/time.ts'
import { newId } from '../lib/ids.ts'

export type JobOutcome = JobRunRow['outcome']

/** Long enough to show a week of a job's history, short enough that the table stays small. */
export const JOB_RUN_RETENTION_MS = 7 * DAY_MS

/** Writes the run as going; answers its id for finishJobRun. */
export async function startJobRun(db: Db, job: string, cron: string, now: number): Promise<string> {
  const id = newId(now)
  await db.insert(jobRuns).values({ id, job, cron, startedAt: now, outcome: 'running' })
  return id
}

export async function finishJobRun(
  db: Db,
  id: string,
  outcome: Exclude<JobOutcome, 'running'>,
  finishedAt: number,
  error?: string,
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ outcome, finishedAt, error: error?.slice(0, 500) ?? null })
    .where(eq(jobRuns.id, id))
}

/**
 * When `job` last finished well, and when the record begins (the oldest run of any job): a job
 * never seen is judged from the record's beginning, so a fresh deployment is not an incident.
 */
export async function jobEvidence(
  db: Db,
  job: string,
): Promise<{ lastOkAt: number | null; recordSince: number | null }> {
  const [ok, first] = await db.batch([
    db
      .select({ at: max(jobRuns.startedAt) })
      .from(jobRuns)
      .where(and(eq(jobRuns.job, job), eq(jobRuns.outcome, 'ok'))),
    db.select({ at: min(jobRuns.startedAt) }).from(jobRuns),
  ])
  return { lastOkAt: ok[0]?.at ?? null, recordSince: first[0]?.at ?? null }
}

export interface LastJobRun {
  job: string
  cron: string
  startedAt: number
  finishedAt: number | null
  outcome: JobOutcome
}

/** The last run of each job named: one statement, one index seek per job (for /status's batch). */
export function lastJobRunsStatement(d1: D1Database, jobs: readonly string[]) {
  return d1
    .prepare(
      `SELECT r.job, r.cron, r.started_at AS startedAt, r.finished_at AS finishedAt, r.outcome
        FROM json_each(?1) AS j
        JOIN job_runs AS r ON r.id = (
          SELECT id FROM job_runs WHERE job = j.value ORDER BY started_at DESC LIMIT 1)`,
    )
    .bind(JSON.stringify(jobs))
}

export async function removeJobRunsBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.delete(jobRuns).where(lt(jobRuns.startedAt, cutoff))
  return result.meta.changes
}
