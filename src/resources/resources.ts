// Admin-managed knowledge resources, forwarded to the intelligence service. Nothing is written
// to D1 before the service accepted a resource, and a resource whose job row cannot be written is
// deleted again at the service, so neither side keeps half of an add.
import type { Db } from '../db/client.ts'
import { ingestionJobs } from '../db/schema.ts'
import { ApiError, notFound } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import {
  IntelligenceError,
  RESOURCE_TYPES,
  type AddResourceInput,
  type GetResourceStatusResponse,
  type IntelligenceClient,
} from './intelligence-client.ts'
import { cancelJobsOfResource, findJob, isActiveJob, newJobValues, storeJobStatus } from './jobs.ts'
import type { IngestionJobRow } from './rows.ts'
import type { NewResource } from './schemas.ts'
import { callIntelligence } from './service.ts'

export interface ResourceSource {
  title: string
  type: keyof typeof RESOURCE_TYPES
  content?: string | null
  sourceUrl?: string | null
}

export function addResourceInput(source: ResourceSource, isGlobal: boolean): AddResourceInput {
  return {
    title: source.title,
    type: RESOURCE_TYPES[source.type],
    content: source.content ?? '',
    sourceUrl: source.sourceUrl ?? '',
    isGlobal,
  }
}

/** Adds the resource at the service; an answer without a resource or a job is a bad answer. */
export async function addAtService(client: IntelligenceClient, input: AddResourceInput) {
  const added = await callIntelligence(() => client.addResource(input))
  const resource = added.resource
  if (!resource?.id || !added.jobId) {
    if (resource?.id) await undoAdd(client, resource.id)
    throw new ApiError(502, 'Intelligence service error')
  }
  return { ...added, resource }
}

/** Best effort: a resource left behind is logged with its id, so an operator can remove it. */
export async function undoAdd(client: IntelligenceClient, resourceId: string) {
  try {
    await client.deleteResource(resourceId)
  } catch (reason) {
    const error = IntelligenceError.from(reason)
    log.error('orphaned-resource', { resourceId, code: error.code, error: error.message })
  }
}

export async function addResource(
  db: Db,
  client: IntelligenceClient,
  input: NewResource,
  adminId: string,
  now: number,
) {
  const source = {
    title: input.title,
    type: input.type,
    content: input.content,
    sourceUrl: input.source_url,
  }
  const added = await addAtService(client, addResourceInput(source, input.is_global ?? false))
  let job: IngestionJobRow
  try {
    const values = newJobValues(
      added,
      { title: input.title, type: input.type, createdBy: adminId },
      now,
    )
    ;[job] = await db.insert(ingestionJobs).values(values).returning()
  } catch (error) {
    await undoAdd(client, added.resource.id)
    throw error
  }
  return { resource: added.resource, job }
}

/** The resource's latest ingestion state (the service has no other lookup by id). */
export async function resourceStatus(db: Db, client: IntelligenceClient, id: string, now: number) {
  let reported: GetResourceStatusResponse
  try {
    reported = await callIntelligence(() => client.getResourceStatus({ resourceId: id }))
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw notFound(`Resource ${id} not found`)
    }
    throw error
  }
  const tracked = await findJob(db, reported.jobId)
  const job =
    tracked && isActiveJob(tracked.status)
      ? await storeJobStatus(db, tracked.id, reported, now)
      : tracked
  return { reported, job }
}

/** Deletes the resource at the service and ends its jobs here; 404 when the service lacks it. */
export async function deleteResource(db: Db, client: IntelligenceClient, id: string, now: number) {
  let existed = true
  try {
    await client.deleteResource(id)
  } catch (reason) {
    const error = IntelligenceError.from(reason)
    if (error.code !== 'not_found') {
      log.error('intelligence-call-failed', { code: error.code })
      throw error.toApiError()
    }
    existed = false
  }
  // Also when the service no longer knew it: jobs of a resource that is gone cannot finish.
  await cancelJobsOfResource(db, id, now)
  if (!existed) throw notFound(`Resource ${id} not found`)
}
