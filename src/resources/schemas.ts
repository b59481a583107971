// Zod schemas of the resource endpoints (snake_case wire names, as the second API area uses):
// admin resources, ingestion jobs, contributor submissions and their review.
import { z } from '@hono/zod-openapi'
import { targetUrlProblem, type TargetUrlProblem } from '../lib/ip-targets.ts'
import { idParam, intInRange, oneOf, pagingFields } from '../lib/validation.ts'
import type { ResourceTypeName } from './intelligence-client.ts'

export const TYPE_NAMES = [
  'text',
  'markdown',
  'pdf',
  'html',
  'url',
  'code',
  'file',
] as const satisfies readonly ResourceTypeName[]

export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected'] as const
export const JOB_STATUSES = ['PENDING', 'PROCESSING', 'READY', 'FAILED', 'CANCELLED'] as const

const MAX_TITLE = 200
const MAX_URL = 2048
const MAX_FEEDBACK = 2000
// A D1 row holds at most 2 MB, so a stored submission stays well below; resources added by an
// admin are not stored here and may be larger.
export const MAX_RESOURCE_CONTENT_BYTES = 1_000_000
export const MAX_SUBMISSION_CONTENT_BYTES = 100_000

export const URL_PROBLEMS: Record<TargetUrlProblem, string> = {
  invalid: 'source_url must be a URL',
  scheme: 'source_url must be an http or https URL',
  credentials: 'source_url must not contain a user name or password',
  non_public: 'source_url must not point at a private, loopback or link-local address',
}

const title = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(1, { error: 'title should not be empty' })
  .max(MAX_TITLE, { error: `title must be at most ${MAX_TITLE} characters long` })
  .openapi({ example: 'Segment trees' })

const content = (maxBytes: number) =>
  z
    .string({ error: 'content must be a string' })
    .refine((v) => v.trim().length > 0, { error: 'content should not be empty' })
    .refine((v) => new TextEncoder().encode(v).length <= maxBytes, {
      error: `content must be at most ${maxBytes} bytes long`,
    })
    .openapi({ example: 'A segment tree answers range queries in O(log n).' })

// The URL's form is checked here; whether its host may be reached depends on the local-run switch,
// so source-url.ts checks that with the settings before anything is stored or forwarded.
const sourceUrl = z
  .string({ error: 'source_url must be a string' })
  .trim()
  .max(MAX_URL, { error: `source_url must be at most ${MAX_URL} characters long` })
  .superRefine((value, ctx) => {
    const problem = targetUrlProblem(value)
    if (problem && problem !== 'non_public') {
      ctx.addIssue({ code: 'custom', message: URL_PROBLEMS[problem] })
    }
  })
  .openapi({ example: 'https://cp-algorithms.com/data_structures/segment_tree.html' })

const isGlobal = z
  .custom<boolean>((v) => typeof v === 'boolean', { error: 'is_global must be a boolean value' })
  .openapi({ type: 'boolean', description: 'Searchable by all users in hybrid search' })

/** Exactly one of content and source_url; a url resource is always fetched from source_url. */
function sourceRules(
  body: { type: string; content?: string; source_url?: string },
  ctx: z.RefinementCtx,
) {
  const hasContent = body.content !== undefined
  const hasUrl = body.source_url !== undefined
  if (!hasContent && !hasUrl) {
    ctx.addIssue({ code: 'custom', message: 'Either content or source_url must be set' })
  } else if (hasContent && hasUrl) {
    ctx.addIssue({ code: 'custom', message: 'Only one of content and source_url may be set' })
  } else if (body.type === 'url' && !hasUrl) {
    ctx.addIssue({ code: 'custom', message: 'A url resource needs source_url, not content' })
  }
}

export const NewResourceBody = z
  .strictObject({
    title,
    type: oneOf('type', TYPE_NAMES),
    content: content(MAX_RESOURCE_CONTENT_BYTES).optional(),
    source_url: sourceUrl.optional(),
    is_global: isGlobal.optional(),
  })
  .superRefine(sourceRules)
  .openapi('NewResource')

export type NewResource = z.infer<typeof NewResourceBody>

export const NewSubmissionBody = z
  .strictObject({
    title,
    type: oneOf('type', TYPE_NAMES),
    content: content(MAX_SUBMISSION_CONTENT_BYTES).optional(),
    source_url: sourceUrl.optional(),
  })
  .superRefine(sourceRules)
  .openapi('NewSubmission')

export type NewSubmission = z.infer<typeof NewSubmissionBody>

export const ReviewBody = z
  .strictObject({
    action: oneOf('action', ['approve', 'reject'] as const),
    feedback: z
      .string({ error: 'feedback must be a string' })
      .trim()
      .max(MAX_FEEDBACK, { error: `feedback must be at most ${MAX_FEEDBACK} characters long` })
      .optional()
      .openapi({ example: 'Thanks, a good summary.' }),
  })
  .openapi('SubmissionReview')

export type Review = z.infer<typeof ReviewBody>

// Ids the intelligence service issues; their exact shape is its own, so only the characters a
// path segment can carry safely are checked.
const serviceId = (name: string, label: string) =>
  z
    .string()
    .refine((v) => /^[A-Za-z0-9_-]{1,64}$/.test(v), { error: `Invalid ${label} ID format` })
    .openapi({ param: { name, in: 'path' }, example: '6745a1f03c9e4b2a1d0e7f11' })

export const ResourceIdParam = z.object({ id: serviceId('id', 'resource') })
export const JobIdParam = z.object({ jobId: serviceId('jobId', 'ingestion job') })

export const SubmissionIdParam = idParam('submission')

const page = pagingFields()

export const ListResourcesQuery = z.object({
  page_size: intInRange('page_size', 1, 100, 20),
  page_token: z
    .string()
    .max(512, { error: 'page_token must be at most 512 characters long' })
    .optional()
    .openapi({ description: 'next_page_token of the previous page' }),
})

export const SubmissionsQuery = z.object({
  status: oneOf('status', SUBMISSION_STATUSES).optional(),
  ...page,
})

export const MySubmissionsQuery = z.object(page)

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

export const ResourceSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    type: z.enum(TYPE_NAMES).nullable(),
    source_url: z.string().optional(),
    is_global: z.boolean(),
    status: z.string().openapi({ example: 'READY' }),
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
  })
  .openapi('Resource')

export const ResourceListSchema = z
  .object({
    resources: z.array(ResourceSchema),
    next_page_token: z.string().optional(),
    total_count: z.number(),
  })
  .openapi('ResourceList')

export const JobSchema = z
  .object({
    id: z.string(),
    resource_id: z.string(),
    title: z.string(),
    type: z.string(),
    status: z.enum(JOB_STATUSES),
    progress: z.number(),
    error: z.string().optional(),
    submission_id: z.string().optional(),
    created_by: z.string().optional(),
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: timestamp.optional(),
  })
  .openapi('IngestionJob')

export const AddedResourceSchema = z
  .object({ resource: ResourceSchema, job: JobSchema })
  .openapi('AddedResource')

export const ResourceStatusSchema = z
  .object({
    id: z.string(),
    title: z.string().optional(),
    type: z.string().optional(),
    status: z.string().openapi({ example: 'PROCESSING' }),
    progress: z.number(),
    error: z.string().optional(),
    job_id: z.string(),
    updated_at: timestamp.optional(),
  })
  .openapi('ResourceStatus')

export const SubmissionSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    title: z.string(),
    type: z.enum(TYPE_NAMES),
    content: z.string().optional(),
    source_url: z.string().optional(),
    status: z.enum(SUBMISSION_STATUSES),
    feedback: z.string().optional(),
    reviewed_by: z.string().optional(),
    reviewed_at: timestamp.optional(),
    resource_id: z.string().optional(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('Submission')

export const SubmissionListSchema = z
  .object({
    submissions: z.array(SubmissionSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  })
  .openapi('SubmissionList')

export const ReviewResultSchema = z
  .object({ submission: SubmissionSchema, job: JobSchema.optional() })
  .openapi('SubmissionReviewResult')
