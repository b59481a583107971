// The intelligence client inside workerd against the grpc-web stand-in: the round trip, ingestion
// states, retries when the service is down, deadlines, and the mapping of failures to HTTP statuses.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  createIntelligenceClient,
  IntelligenceError,
  RESOURCE_TYPES,
  resourceStatusName,
  resourceTypeName,
  ResourceStatus,
  ResourceType,
  type GetResourceStatusResponse,
  type IntelligenceClient,
} from '../src/resources/intelligence-client.ts'

const baseUrl = env.INTELLIGENCE_URL

async function control(action: string, method = 'POST') {
  const res = await fetch(`${baseUrl}/__control/${action}`, { method })
  if (!res.ok) throw new Error(`intelligence stand-in control ${action} failed: ${res.status}`)
  return res.json<Record<string, unknown>>()
}

/** How many calls of each RPC reached the stand-in, refused ones included. */
const callsReceived = () => control('calls', 'GET') as Promise<Record<string, number>>

// Backoff kept tiny so the retry tests do not wait; the number of retries stays the default (2).
const client = createIntelligenceClient(baseUrl, { backoffMs: 5 })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls a job until it stops moving, returning every status seen on the way. */
async function waitForEnd(c: IntelligenceClient, jobId: string) {
  const seen: GetResourceStatusResponse[] = []
  for (let i = 0; i < 100; i++) {
    const status = await c.getResourceStatus({ jobId })
    seen.push(status)
    if (status.status !== ResourceStatus.PENDING && status.status !== ResourceStatus.PROCESSING) {
      return seen
    }
    await sleep(25)
  }
  throw new Error(`job ${jobId} did not finish: last ${resourceStatusName(seen.at(-1)!.status)}`)
}

async function failureOf(promise: Promise<unknown>): Promise<IntelligenceError> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(outcome).toBeInstanceOf(IntelligenceError)
  return outcome as IntelligenceError
}

const note = (title: string, content = 'Binary search on the answer.') => ({
  title,
  type: ResourceType.MARKDOWN,
  content,
})

beforeEach(() => control('reset'))

describe('intelligence client round trip', () => {
  it('adds a resource and answers with it PENDING and the id of its ingestion job', async () => {
    const { resource, jobId } = await client.addResource({
      title: 'Segment trees',
      type: ResourceType.URL,
      sourceUrl: 'https://cp-algorithms.com/data_structures/segment_tree.html',
      isGlobal: true,
    })
    expect(resource?.id).toMatch(/^[0-9a-f]{24}$/)
    expect(jobId).toMatch(/^[0-9a-f]{24}$/)
    expect(resource).toMatchObject({
      title: 'Segment trees',
      type: ResourceType.URL,
      sourceUrl: 'https://cp-algorithms.com/data_structures/segment_tree.html',
      isGlobal: true,
      status: ResourceStatus.PENDING,
    })
    expect(Number(resource?.createdAt?.seconds)).toBeGreaterThan(0)
  })

  it('reports ingestion moving through PENDING and PROCESSING to READY', async () => {
    const { resource, jobId } = await client.addResource(note('Two pointers'))
    const seen = await waitForEnd(client, jobId)
    const order = [ResourceStatus.PENDING, ResourceStatus.PROCESSING, ResourceStatus.READY]
    const positions = seen.map((s) => order.indexOf(s.status))
    expect(positions.every((p, i) => p >= 0 && (i === 0 || p >= positions[i - 1]))).toBe(true)
    expect(seen.at(-1)).toMatchObject({
      jobId,
      resourceId: resource?.id,
      status: ResourceStatus.READY,
      progress: 100,
      error: '',
    })
    const byResource = await client.getResourceStatus({ resourceId: resource!.id })
    expect(byResource).toMatchObject({ jobId, status: ResourceStatus.READY })
    const listed = await client.listResources()
    expect(listed.resources[0]).toMatchObject({ id: resource?.id, status: ResourceStatus.READY })
  })

  it('makes a resource READY at once on the ready hint', async () => {
    const { resource, jobId } = await client.addResource(note('Ready', 'READY_INGESTION'))
    expect(resource?.status).toBe(ResourceStatus.READY)
    expect(await client.getResourceStatus({ jobId })).toMatchObject({
      status: ResourceStatus.READY,
      progress: 100,
    })
  })

  it('ends ingestion FAILED with an error for content the service cannot ingest', async () => {
    const { jobId } = await client.addResource(note('Broken', 'FAIL_INGESTION'))
    const last = (await waitForEnd(client, jobId)).at(-1)
    expect(last?.status).toBe(ResourceStatus.FAILED)
    expect(last?.error).toMatch(/ingestion failed/)
  })

  it('lists resources newest first, a page at a time, with the total count', async () => {
    for (const title of ['first', 'second', 'third']) await client.addResource(note(title))
    const page1 = await client.listResources({ pageSize: 2 })
    expect(page1.totalCount).toBe(3)
    expect(page1.resources.map((r) => r.title)).toEqual(['third', 'second'])
    expect(page1.nextPageToken).not.toBe('')
    const page2 = await client.listResources({ pageSize: 2, pageToken: page1.nextPageToken })
    expect(page2.resources.map((r) => r.title)).toEqual(['first'])
    expect(page2.nextPageToken).toBe('')
    expect(page2.totalCount).toBe(3)
  })

  it('deletes a resource, after which it is neither listed nor known', async () => {
    const kept = await client.addResource(note('kept'))
    const gone = await client.addResource(note('gone'))
    await client.deleteResource(gone.resource!.id)
    const listed = await client.listResources()
    expect(listed.totalCount).toBe(1)
    expect(listed.resources.map((r) => r.id)).toEqual([kept.resource!.id])
    const e = await failureOf(client.getResourceStatus({ resourceId: gone.resource!.id }))
    expect(e.code).toBe('not_found')
  })

  it('cancels an ingestion that hangs, leaving the resource CANCELLED', async () => {
    const { resource, jobId } = await client.addResource(note('Stuck', 'HANG_INGESTION'))
    const cancelled = await client.cancelIngestion(jobId)
    expect(cancelled).toMatchObject({ jobId, status: ResourceStatus.CANCELLED })
    expect((await client.getResourceStatus({ jobId })).status).toBe(ResourceStatus.CANCELLED)
    const listed = await client.listResources()
    expect(listed.resources[0]).toMatchObject({
      id: resource?.id,
      status: ResourceStatus.CANCELLED,
    })
  })

  it('refuses to cancel a job that already finished, as a conflict', async () => {
    const { jobId } = await client.addResource(note('Done', 'READY_INGESTION'))
    const e = await failureOf(client.cancelIngestion(jobId))
    expect(e.code).toBe('failed_precondition')
    expect(e.httpStatus).toBe(409)
  })

  it('creates one resource when an add is repeated with the same request id', async () => {
    const first = await client.addResource({ ...note('Once'), requestId: 'req-1' })
    const again = await client.addResource({ ...note('Once'), requestId: 'req-1' })
    expect(again.resource?.id).toBe(first.resource?.id)
    expect(again.jobId).toBe(first.jobId)
    expect((await client.listResources()).totalCount).toBe(1)
  })
})

describe('intelligence client failures', () => {
  it('gives up with unavailable (503) after two retries while the service is down', async () => {
    await control('down')
    const e = await failureOf(client.addResource(note('While down')))
    expect(e).toMatchObject({ code: 'unavailable', httpStatus: 503 })
    expect((await callsReceived()).AddResource).toBe(3)
    expect(e.toApiError().toBody()).toEqual({
      statusCode: 503,
      message: 'Intelligence service unavailable',
      error: 'Service Unavailable',
    })
  })

  it('treats a proxy answering HTTP 503 for a dead backend as unavailable', async () => {
    await control('down?http=503')
    const e = await failureOf(client.listResources())
    expect(e.code).toBe('unavailable')
    expect((await callsReceived()).ListResources).toBe(3)
  })

  it('succeeds when the service comes back within the retries', async () => {
    await control('down?calls=2')
    const { resource } = await client.addResource(note('Eventually'))
    expect((await callsReceived()).AddResource).toBe(3)
    const listed = await client.listResources()
    expect(listed.totalCount).toBe(1)
    expect(listed.resources[0].id).toBe(resource?.id)
  })

  it('maps a service that cannot be reached at all to unavailable', async () => {
    // Port 1 on loopback has no listener, so the connection is refused.
    // No retries: workerd logs every refused connection, and one is enough to show the mapping.
    const unreachable = createIntelligenceClient('http://127.0.0.1:1', { retries: 0 })
    const e = await failureOf(unreachable.listResources())
    expect(e.code).toBe('unavailable')
    expect(e.httpStatus).toBe(503)
  })

  it('retries a read past its deadline and then reports deadline_exceeded (503)', async () => {
    await control('slow?ms=2000')
    const impatient = createIntelligenceClient(baseUrl, { timeoutMs: 100, backoffMs: 5 })
    const e = await failureOf(impatient.getResourceStatus({ jobId: 'any' }))
    expect(e).toMatchObject({ code: 'deadline_exceeded', httpStatus: 503 })
    expect((await callsReceived()).GetResourceStatus).toBe(3)
  })

  it('does not repeat a write that ran past its deadline', async () => {
    await control('slow?ms=2000')
    const impatient = createIntelligenceClient(baseUrl, { timeoutMs: 100, backoffMs: 5 })
    const e = await failureOf(impatient.cancelIngestion('any'))
    expect(e.code).toBe('deadline_exceeded')
    expect((await callsReceived()).CancelIngestion).toBe(1)
  })

  it('maps an unknown job to not_found (404) with the service message, without retrying', async () => {
    const e = await failureOf(client.getResourceStatus({ jobId: 'feedfacefeedfacefeedface' }))
    expect(e).toMatchObject({ code: 'not_found', httpStatus: 404 })
    expect(e.message).toContain('feedfacefeedfacefeedface')
    expect(e.toApiError().status).toBe(404)
    expect((await callsReceived()).GetResourceStatus).toBe(1)
  })

  it('maps a rejected request to invalid_argument (400)', async () => {
    const e = await failureOf(client.addResource({ title: ' ', type: ResourceType.TEXT }))
    expect(e).toMatchObject({ code: 'invalid_argument', httpStatus: 400 })
    expect(e.toApiError().toBody().message).toBe('title is required')
  })

  it('answers 502 for service failures that are not about the request', () => {
    for (const code of ['internal', 'unknown', 'unimplemented', 'data_loss'] as const) {
      expect(new IntelligenceError(code, 'boom').httpStatus).toBe(502)
    }
    expect(new IntelligenceError('internal', 'stack trace').toApiError().messages).toBe(
      'Intelligence service error',
    )
  })
})

describe('resource vocabulary', () => {
  it('translates API type names and status names to and from the proto enums', () => {
    expect(RESOURCE_TYPES.pdf).toBe(ResourceType.PDF)
    expect(
      Object.keys(RESOURCE_TYPES).map((n) => resourceTypeName(RESOURCE_TYPES[n as 'pdf'])),
    ).toEqual(['text', 'markdown', 'pdf', 'html', 'url', 'code', 'file'])
    expect(resourceTypeName(ResourceType.UNSPECIFIED)).toBeUndefined()
    expect(resourceStatusName(ResourceStatus.PROCESSING)).toBe('PROCESSING')
  })
})
