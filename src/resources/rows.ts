// Row types of the resource feature's tables.
import type { ingestionJobs, submissions } from '../db/schema.ts'

export type IngestionJobRow = typeof ingestionJobs.$inferSelect
export type SubmissionRow = typeof submissions.$inferSelect
export type JobStatus = IngestionJobRow['status']
