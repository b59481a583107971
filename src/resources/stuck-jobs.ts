// The daily sweep of ingestion jobs that never finished: after 3000 seconds a job still PENDING
// or PROCESSING is cancelled at the service and marked FAILED here, so none stays stuck. A
// service that is down does not stop the sweep; the rows are marked all the same.
import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { ingestionJobs } from '../db/schema.ts'
import { IntelligenceError, type IntelligenceClient } from './intelligence-client.ts'
import { ACTIVE_JOB_STATUSES, isActiveJob, jobStatusOf } from './jobs.ts'
import type { IngestionJobRow, JobStatus } from './rows.ts'

/** The service's own ingestion timeout (spec). */
export const INGESTION_TIMEOUT_MS = 3000 * 1000
// Per run; a larger backlog is worked off by the following runs.
const SWEEP_LIMIT = 200
const BATCH_SIZE = 50

const TIMED_OUT = 'Ingestion timed out after 3000 seconds'

interface Settled {
  status: JobStatus
  progress?: number
  error: string | null
  /** The service could not be reached, so the rest of this run does not try it again. */
  unreachable?: boolean
}

/** The job's real end when it finished meanwhile (READY or FAILED at the service), if known. */
async function finalState(client: IntelligenceClient, job: IngestionJobRow) {
  try {
    const reported = await client.getResourceStatus({ jobId: job.id })
    const status = jobStatusOf(reported.status)
    if (status && !isActiveJob(status)) {
      return { status, progress: reported.progress, error: reported.error || null }
    }
  } catch {
    // Then it is recorded as timed out, like any other stuck job.
  }
  return undefined
}

async function settle(client: IntelligenceClient, job: IngestionJobRow): Promise<Settled> {
  try {
    await client.cancelIngestion(job.id)
    return { status: 'FAILED', error: `${TIMED_OUT}; it was cancelled` }
  } catch (reason) {
    const error = IntelligenceError.from(reason)
    if (error.code === 'failed_precondition') {
      const end = await finalState(client, job)
      if (end) return end
    }
    if (error.code === 'not_found') {
      return { status: 'FAILED', error: `${TIMED_OUT}; the service no longer knows the job` }
    }
    return {
      status: 'FAILED',
      error: `${TIMED_OUT}; cancelling it failed (${error.code})`,
      unreachable: error.httpStatus === 503,
    }
  }
}

export async function sweepStuckIngestionJobs(
  db: Db,
  client: IntelligenceClient | undefined,
  now: number,
) {
  const stuck = await db
    .select()
    .from(ingestionJobs)
    .where(
      and(
        inArray(ingestionJobs.status, ACTIVE_JOB_STATUSES),
        lte(ingestionJobs.createdAt, now - INGESTION_TIMEOUT_MS),
      ),
    )
    .orderBy(asc(ingestionJobs.createdAt))
    .limit(SWEEP_LIMIT)

  let reachable = client !== undefined
  const outcomes: [IngestionJobRow, Settled][] = []
  for (const job of stuck) {
    const settled: Settled =
      reachable && client
        ? await settle(client, job)
        : { status: 'FAILED', error: `${TIMED_OUT}; the service could not be reached to cancel it` }
    if (settled.unreachable) reachable = false
    outcomes.push([job, settled])
  }
  if (outcomes.length === 0) return { ingestionJobsFailed: 0, ingestionJobsFinished: 0 }

  // A job refreshed to its end meanwhile keeps that end: only rows still in progress change.
  const updates = outcomes.map(([job, settled]) =>
    db
      .update(ingestionJobs)
      .set({
        status: settled.status,
        ...(settled.progress !== undefined && { progress: settled.progress }),
        error: settled.error,
        updatedAt: now,
        finishedAt: now,
      })
      .where(and(eq(ingestionJobs.id, job.id), inArray(ingestionJobs.status, ACTIVE_JOB_STATUSES))),
  )
  for (let i = 0; i < updates.length; i += BATCH_SIZE) {
    const chunk = updates.slice(i, i + BATCH_SIZE)
    await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk])
  }
  const failed = outcomes.filter(([, s]) => s.status === 'FAILED').length
  return { ingestionJobsFailed: failed, ingestionJobsFinished: outcomes.length - failed }
}
