// Resources, ingestion jobs and submissions as the API shows them: snake_case, ISO times, absent
// optional fields left out.
import { timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt'
import type { IngestionJobRow, SubmissionRow } from './rows.ts'
import { resourceStatusName, resourceTypeName, type Resource } from './intelligence-client.ts'
import { toIso, toIsoOrUndefined } from '../lib/time.ts'

export const isoOf = (ts: Timestamp | undefined) => (ts ? toIso(timestampMs(ts)) : undefined)

export function toApiResource(r: Resource) {
  return {
    id: r.id,
    title: r.title,
    type: resourceTypeName(r.type) ?? null,
    ...(r.sourceUrl && { source_url: r.sourceUrl }),
    is_global: r.isGlobal,
    status: resourceStatusName(r.status),
    ...(r.createdAt && { created_at: isoOf(r.createdAt) }),
    ...(r.updatedAt && { updated_at: isoOf(r.updatedAt) }),
  }
}

export function toApiJob(row: IngestionJobRow) {
  return {
    id: row.id,
    resource_id: row.resourceId,
    title: row.title,
    type: row.type,
    status: row.status,
    progress: row.progress,
    ...(row.error != null && { error: row.error }),
    ...(row.submissionId != null && { submission_id: row.submissionId }),
    ...(row.createdBy != null && { created_by: row.createdBy }),
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
    ...(row.finishedAt != null && { finished_at: toIso(row.finishedAt) }),
  }
}

export function toApiSubmission(row: SubmissionRow) {
  return {
    id: row.id,
    user_id: row.userId,
    title: row.title,
    type: row.type,
    ...(row.content != null && { content: row.content }),
    ...(row.sourceUrl != null && { source_url: row.sourceUrl }),
    status: row.status,
    ...(row.feedback != null && { feedback: row.feedback }),
    ...(row.reviewedBy != null && { reviewed_by: row.reviewedBy }),
    ...(row.reviewedAt != null && { reviewed_at: toIsoOrUndefined(row.reviewedAt) }),
    ...(row.resourceId != null && { resource_id: row.resourceId }),
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  }
}
