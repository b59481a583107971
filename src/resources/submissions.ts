// Contributor submissions: any signed-in user proposes a resource, an admin approves it (it is
// then added at the service as a global resource) or rejects it with optional feedback.
import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { ingestionJobs, submissions } from '../db/schema.ts'
import { conflict, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import type { IntelligenceClient } from './intelligence-client.ts'
import { newJobValues } from './jobs.ts'
import { addAtService, addResourceInput, undoAdd } from './resources.ts'
import type { IngestionJobRow, SubmissionRow } from './rows.ts'
import type { NewSubmission, Review, SUBMISSION_STATUSES } from './schemas.ts'

type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number]

const SUBMISSION_NOT_FOUND = 'Submission not found'

export async function createSubmission(
  db: Db,
  userId: string,
  input: NewSubmission,
  now: number,
): Promise<SubmissionRow> {
  const [row] = await db
    .insert(submissions)
    .values({
      id: newId(now),
      userId,
      title: input.title,
      type: input.type,
      content: input.content ?? null,
      sourceUrl: input.source_url ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return row
}

/** Newest first, the id breaking ties so that pages never overlap. */
export async function listSubmissions(
  db: Db,
  filter: { userId?: string; status?: SubmissionStatus },
  page: { limit: number; offset: number },
) {
  const where = and(
    filter.userId ? eq(submissions.userId, filter.userId) : undefined,
    filter.status ? eq(submissions.status, filter.status) : undefined,
  )
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(submissions).where(where),
    db
      .select()
      .from(submissions)
      .where(where)
      .orderBy(desc(submissions.createdAt), desc(submissions.id))
      .limit(page.limit)
      .offset(page.offset),
  ])
  return { rows, total }
}

const findSubmission = (db: Db, id: string) =>
  db.select().from(submissions).where(eq(submissions.id, id)).get()

async function findPending(db: Db, id: string): Promise<SubmissionRow> {
  const found = await findSubmission(db, id)
  if (!found) throw notFound(SUBMISSION_NOT_FOUND)
  if (found.status !== 'pending') alreadyReviewed(found.status)
  return found
}

function alreadyReviewed(status: string): never {
  throw conflict(`Submission has already been reviewed (${status})`)
}

/** Another review won the race: answer with the state it left. */
async function lostRace(db: Db, id: string): Promise<never> {
  const now = await findSubmission(db, id)
  if (!now) throw notFound(SUBMISSION_NOT_FOUND)
  alreadyReviewed(now.status)
}

const stillPending = (id: string) => and(eq(submissions.id, id), eq(submissions.status, 'pending'))

export interface ReviewOutcome {
  submission: SubmissionRow
  job?: IngestionJobRow
}

/**
 * Reviews a pending submission; 409 for one already reviewed. Approval adds the content at the
 * service first (503 and still pending when it is down), then marks the submission approved
 * and records the job in one batch. Of two admins approving at once only one batch matches the
 * pending row; the other's resource is removed again and it answers 409.
 */
export async function reviewSubmission(
  db: Db,
  client: () => IntelligenceClient,
  id: string,
  review: Review,
  reviewerId: string,
  now: number,
): Promise<ReviewOutcome> {
  const found = await findPending(db, id)
  const reviewed = { feedback: review.feedback || null, reviewedBy: reviewerId, reviewedAt: now }
  if (review.action === 'reject') {
    const [submission] = await db
      .update(submissions)
      .set({ status: 'rejected', ...reviewed, updatedAt: now })
      .where(stillPending(id))
      .returning()
    if (!submission) return lostRace(db, id)
    return { submission }
  }

  const service = client()
  const added = await addAtService(service, addResourceInput(found, true))
  const job = newJobValues(
    added,
    { title: found.title, type: found.type, createdBy: reviewerId, submissionId: id },
    now,
  )
  let approved: SubmissionRow[]
  let stored: IngestionJobRow[]
  try {
    ;[approved, , stored] = await db.batch([
      db
        .update(submissions)
        .set({ status: 'approved', resourceId: added.resource.id, ...reviewed, updatedAt: now })
        .where(stillPending(id))
        .returning(),
      // Written only if the update above is this review's: the row then names its resource.
      db.insert(ingestionJobs).select(
        db
          .select({
            id: sql<string>`${job.id}`.as('id'),
            resourceId: submissions.resourceId,
            title: submissions.title,
            type: submissions.type,
            status: sql<string>`${job.status}`.as('status'),
            progress: sql<number>`${job.progress}`.as('progress'),
            error: sql<null>`NULL`.as('error'),
            createdBy: sql<string>`${reviewerId}`.as('created_by'),
            submissionId: submissions.id,
            createdAt: sql<number>`${now}`.as('created_at'),
            updatedAt: sql<number>`${now}`.as('updated_at'),
            finishedAt: sql<number | null>`${job.finishedAt}`.as('finished_at'),
          })
          .from(submissions)
          .where(and(eq(submissions.id, id), eq(submissions.resourceId, added.resource.id))),
      ),
      db.select().from(ingestionJobs).where(eq(ingestionJobs.id, job.id)),
    ])
  } catch (error) {
    await undoAdd(service, added.resource.id)
    throw error
  }
  if (approved.length === 0) {
    await undoAdd(service, added.resource.id)
    return lostRace(db, id)
  }
  return { submission: approved[0], job: stored[0] }
}

/** The statement that removes a user's submissions, for the account deletion batch. */
export function deleteUserSubmissionStatements(db: Db, userId: string) {
  return [db.delete(submissions).where(eq(submissions.userId, userId))] as const
}
