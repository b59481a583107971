// Ingestion jobs tracked in D1: the row written once the service accepted a resource, and its
// refresh from the service's GetResourceStatus. Finished rows (READY, FAILED, CANCELLED) never
// change again, so they are answered from D1 even while the service is down.
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { ingestionJobs } from '../db/schema.ts'
import { ApiError, notFound } from '../lib/errors.ts'
import {
  resourceStatusName,
  type AddResourceResponse,
  type GetResourceStatusResponse,
  type IntelligenceClient,
  type ResourceStatus,
} from './intelligence-client.ts'
import type { IngestionJobRow, JobStatus } from './rows.ts'
import { JOB_STATUSES } from './schemas.ts'
import { callIntelligence } from './service.ts'

export const ACTIVE_JOB_STATUSES = ['PENDING', 'PROCESSING'] as const satisfies JobStatus[]

export const isActiveJob = (status: JobStatus) =>
  (ACTIVE_JOB_STATUSES as readonly JobStatus[]).includes(status)

/** The stored spelling of a service status; undefined for one the service must not send. */
export function jobStatusOf(status: ResourceStatus): JobStatus | undefined {
  const name = resourceStatusName(status)
  return (JOB_STATUSES as readonly string[]).includes(name) ? (name as JobStatus) : undefined
}

/** The columns of a job the service just started for `added`. */
export function newJobValues(
  added: AddResourceResponse & { resource: NonNullable<AddResourceResponse['resource']> },
  meta: { title: string; type: string; createdBy: string; submissionId?: string },
  now: number,
) {
  // The service answers PENDING, or READY at once for content it needs no time for.
  const status = jobStatusOf(added.resource.status) ?? 'PENDING'
  return {
    id: added.jobId,
    resourceId: added.resource.id,
    title: meta.title,
    type: meta.type,
    status,
    progress: status === 'READY' ? 100 : 0,
    error: null,
    createdBy: meta.createdBy,
    submissionId: meta.submissionId ?? null,
    createdAt: now,
    updatedAt: now,
    finishedAt: isActiveJob(status) ? null : now,
  } satisfies typeof ingestionJobs.$inferInsert
}

export function findJob(db: Db, id: string): Promise<IngestionJobRow | undefined> {
  return db.select().from(ingestionJobs).where(eq(ingestionJobs.id, id)).get()
}

/**
 * Stores what the service reports for the job. Only a row still in progress is written, so a
 * final state (e.g. FAILED by the stuck-job sweep) is never overwritten by a late answer.
 */
export async function storeJobStatus(
  db: Db,
  id: string,
  reported: GetResourceStatusResponse,
  now: number,
): Promise<IngestionJobRow | undefined> {
  const status = jobStatusOf(reported.status)
  if (!status) throw new ApiError(502, 'Intelligence service error')
  const [row] = await db
    .update(ingestionJobs)
    .set({
      status,
      progress: Math.min(100, reported.progress),
      error: reported.error || null,
      updatedAt: now,
      finishedAt: isActiveJob(status) ? null : now,
    })
    .where(and(eq(ingestionJobs.id, id), inArray(ingestionJobs.status, ACTIVE_JOB_STATUSES)))
    .returning()
  return row ?? findJob(db, id)
}

/** The job as the service now reports it, stored; 404 for a job this API did not start. */
export async function refreshJob(
  db: Db,
  client: IntelligenceClient | undefined,
  id: string,
  now: number,
): Promise<IngestionJobRow> {
  const job = await findJob(db, id)
  if (!job) throw notFound(`Ingestion job ${id} not found`)
  if (!isActiveJob(job.status)) return job
  if (!client) throw new ApiError(503, 'Intelligence service is not configured')
  const reported = await callIntelligence(() => client.getResourceStatus({ jobId: id }))
  return (await storeJobStatus(db, id, reported, now)) ?? job
}

/** Ends the jobs of a resource that no longer exists at the service. */
export function cancelJobsOfResource(db: Db, resourceId: string, now: number) {
  return db
    .update(ingestionJobs)
    .set({
      status: 'CANCELLED',
      error: 'The resource was deleted',
      updatedAt: now,
      finishedAt: now,
    })
    .where(
      and(
        eq(ingestionJobs.resourceId, resourceId),
        inArray(ingestionJobs.status, ACTIVE_JOB_STATUSES),
      ),
    )
}
