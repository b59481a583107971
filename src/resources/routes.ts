// Admin resource endpoints: add, list, look up and delete knowledge resources at the intelligence
// service, and follow an ingestion job. Every route needs a live session with the admin role.
import { currentUser } from '../http/auth.ts'
import { createDb } from '../db/client.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { adminRoute, createRouter } from '../http/router.ts'
import { refreshJob } from './jobs.ts'
import { addResource, deleteResource, resourceStatus } from './resources.ts'
import {
  AddedResourceSchema,
  JobIdParam,
  JobSchema,
  ListResourcesQuery,
  NewResourceBody,
  ResourceIdParam,
  ResourceListSchema,
  ResourceStatusSchema,
} from './schemas.ts'
import { toApiJob, toApiResource, isoOf } from './serialize.ts'
import { callIntelligence, intelligenceClient, requireIntelligence } from './service.ts'
import { assertSourceUrlAllowed } from './source-url.ts'
import { resourceStatusName } from './intelligence-client.ts'

const tags = ['Resources']
const common = {
  502: errorResponse('The intelligence service answered with an error'),
  503: errorResponse('The intelligence service is unreachable or not configured'),
}

const add = adminRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Add a resource; its ingestion job is tracked until it ends',
  request: {
    ...jsonBody(NewResourceBody),
  },
  responses: {
    201: json(AddedResourceSchema, 'Accepted by the service; ingestion has started'),
    400: errorResponse('Invalid body, or a source_url pointing at a private address'),
    ...common,
  },
})

const list = adminRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Resources of the service, newest first, a page at a time',
  request: { query: ListResourcesQuery },
  responses: {
    200: json(ResourceListSchema, 'A page of resources'),
    400: errorResponse('Invalid page_size or page_token'),
    ...common,
  },
})

const getJob = adminRoute({
  method: 'get',
  path: '/jobs/{jobId}',
  tags,
  summary: 'An ingestion job, refreshed from the service while it is in progress',
  request: { params: JobIdParam },
  responses: {
    200: json(JobSchema, 'The job as now stored'),
    400: errorResponse('Invalid ingestion job ID format'),
    404: errorResponse('No ingestion job with that id'),
    ...common,
  },
})

const get = adminRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'A resource’s ingestion state (the service offers no other lookup by id)',
  request: { params: ResourceIdParam },
  responses: {
    200: json(ResourceStatusSchema, 'Its latest ingestion state'),
    400: errorResponse('Invalid resource ID format'),
    404: errorResponse('No resource with that id'),
    ...common,
  },
})

const remove = adminRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete a resource at the service; its unfinished jobs end CANCELLED',
  request: { params: ResourceIdParam },
  responses: {
    200: json(MessageSchema, 'Deleted'),
    400: errorResponse('Invalid resource ID format'),
    404: errorResponse('No resource with that id'),
    ...common,
  },
})

export const resourceRoutes = createRouter()

// /jobs/{jobId} is registered before /{id}; submissions are mounted ahead of this router.
resourceRoutes
  .openapi(add, async (c) => {
    const input = c.req.valid('json')
    assertSourceUrlAllowed(c.env, input.source_url)
    const { resource, job } = await addResource(
      createDb(c.env.DB),
      requireIntelligence(c.env),
      input,
      currentUser(c).sub,
      Date.now(),
    )
    return c.json({ resource: toApiResource(resource), job: toApiJob(job) }, 201)
  })
  .openapi(list, async (c) => {
    const client = requireIntelligence(c.env)
    const { page_size: pageSize, page_token: pageToken } = c.req.valid('query')
    const page = await callIntelligence(() => client.listResources({ pageSize, pageToken }))
    return c.json(
      {
        resources: page.resources.map(toApiResource),
        ...(page.nextPageToken && { next_page_token: page.nextPageToken }),
        total_count: page.totalCount,
      },
      200,
    )
  })
  .openapi(getJob, async (c) => {
    const { jobId } = c.req.valid('param')
    const job = await refreshJob(createDb(c.env.DB), intelligenceClient(c.env), jobId, Date.now())
    return c.json(toApiJob(job), 200)
  })
  .openapi(get, async (c) => {
    const { id } = c.req.valid('param')
    const db = createDb(c.env.DB)
    const { reported, job } = await resourceStatus(db, requireIntelligence(c.env), id, Date.now())
    return c.json(
      {
        id,
        ...(job && { title: job.title, type: job.type }),
        status: resourceStatusName(reported.status),
        progress: reported.progress,
        ...(reported.error && { error: reported.error }),
        job_id: reported.jobId,
        ...(reported.updatedAt && { updated_at: isoOf(reported.updatedAt) }),
      },
      200,
    )
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid('param')
    await deleteResource(createDb(c.env.DB), requireIntelligence(c.env), id, Date.now())
    return c.json({ message: 'Resource deleted successfully' }, 200)
  })
