// Contributor submissions: any signed-in user submits and lists their own; admins list them by
// status and review them. Mounted at /resources ahead of the resource routes, whose /{id} would
// otherwise take /submissions.
import { currentUser } from '../http/auth.ts'
import { createDb } from '../db/client.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import {
  MySubmissionsQuery,
  NewSubmissionBody,
  ReviewBody,
  ReviewResultSchema,
  SubmissionIdParam,
  SubmissionListSchema,
  SubmissionSchema,
  SubmissionsQuery,
} from './schemas.ts'
import { adminRoute, createRouter, sessionRoute } from '../http/router.ts'
import { toApiJob, toApiSubmission } from './serialize.ts'
import { requireIntelligence } from './service.ts'
import { assertSourceUrlAllowed } from './source-url.ts'
import { createSubmission, listSubmissions, reviewSubmission } from './submissions.ts'

const tags = ['Resource submissions']

const submit = sessionRoute({
  method: 'post',
  path: '/submissions',
  tags,
  summary: 'Propose a resource for review',
  middleware: [rateLimit(RULES.submitResource)] as const,
  request: {
    ...jsonBody(NewSubmissionBody),
  },
  responses: {
    201: json(SubmissionSchema, 'Stored as pending'),
    400: errorResponse('Invalid body, or a source_url pointing at a private address'),
    429: errorResponse('Too many submissions'),
  },
})

const mine = sessionRoute({
  method: 'get',
  path: '/submissions/mine',
  tags,
  summary: 'The caller’s own submissions, newest first',
  request: { query: MySubmissionsQuery },
  responses: {
    200: json(SubmissionListSchema, 'A page of submissions'),
    400: errorResponse('Pagination out of range'),
  },
})

const list = adminRoute({
  method: 'get',
  path: '/submissions',
  tags,
  summary: 'Submissions newest first, optionally of one status (admin)',
  request: { query: SubmissionsQuery },
  responses: {
    200: json(SubmissionListSchema, 'A page of submissions'),
    400: errorResponse('A status outside pending, approved, rejected, or pagination out of range'),
  },
})

const review = adminRoute({
  method: 'post',
  path: '/submissions/{id}/review',
  tags,
  summary: 'Approve (adds it as a global resource) or reject (with optional feedback)',
  request: {
    params: SubmissionIdParam,
    ...jsonBody(ReviewBody),
  },
  responses: {
    200: json(ReviewResultSchema, 'Reviewed; an approval carries its ingestion job'),
    400: errorResponse('Invalid id or body'),
    404: errorResponse('Submission not found'),
    409: errorResponse('The submission has already been reviewed'),
    502: errorResponse('The intelligence service answered with an error; still pending'),
    503: errorResponse('The intelligence service is unreachable; still pending'),
  },
})

export const submissionRoutes = createRouter()

submissionRoutes
  .openapi(submit, async (c) => {
    const input = c.req.valid('json')
    assertSourceUrlAllowed(c.env, input.source_url)
    const db = createDb(c.env.DB)
    const row = await createSubmission(db, currentUser(c).sub, input, Date.now())
    return c.json(toApiSubmission(row), 201)
  })
  .openapi(mine, async (c) => {
    const page = c.req.valid('query')
    const db = createDb(c.env.DB)
    const { rows, total } = await listSubmissions(db, { userId: currentUser(c).sub }, page)
    return c.json({ submissions: rows.map(toApiSubmission), total, ...page }, 200)
  })
  .openapi(list, async (c) => {
    const { status, ...page } = c.req.valid('query')
    const { rows, total } = await listSubmissions(createDb(c.env.DB), { status }, page)
    return c.json({ submissions: rows.map(toApiSubmission), total, ...page }, 200)
  })
  .openapi(review, async (c) => {
    const { id } = c.req.valid('param')
    const { submission, job } = await reviewSubmission(
      createDb(c.env.DB),
      () => requireIntelligence(c.env),
      id,
      c.req.valid('json'),
      currentUser(c).sub,
      Date.now(),
    )
    return c.json(
      { submission: toApiSubmission(submission), ...(job && { job: toApiJob(job) }) },
      200,
    )
  })
