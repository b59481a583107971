// Knowledge resources and contributor submissions against the grpc-web intelligence stand-in:
// the round trip, private-target refusal, ingestion jobs tracked in D1, the service down (clear
// 502/503, nothing half-written), reviews, and the daily sweep of stuck ingestion jobs.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { targetUrlProblem } from '../src/lib/ip-targets.ts'
import { newId } from '../src/lib/ids.ts'
import {
  createIntelligenceClient,
  ResourceStatus,
  type IntelligenceClient,
  type Resource,
} from '../src/resources/intelligence-client.ts'
import { reviewSubmission } from '../src/resources/submissions.ts'
import { api, createAdmin, createUser, type TestUser } from './helpers/users.ts'
import { runDailyCleanup } from './helpers/worker.ts'

const service = createIntelligenceClient(env.INTELLIGENCE_URL, { retries: 0 })
const UNAVAILABLE = {
  statusCode: 503,
  message: 'Intelligence service unavailable',
  error: 'Service Unavailable',
}
const FORBIDDEN = { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' }
const PRIVATE = 'source_url must not point at a private, loopback or link-local address'

async function control(action: string, method = 'POST') {
  const res = await fetch(`${env.INTELLIGENCE_URL}/__control/${action}`, { method })
  if (!res.ok) throw new Error(`intelligence stand-in control ${action} failed: ${res.status}`)
  return res.json<Record<string, number>>()
}

/** Runs `work` while the stand-in refuses every call (as UNAVAILABLE, or with an HTTP status). */
async function whileDown<T>(work: () => Promise<T>, query = ''): Promise<T> {
  await control(`down${query}`)
  try {
    return await work()
  } finally {
    await control('up')
  }
}

const callsOf = async (rpc: string) => (await control('calls', 'GET'))[rpc] ?? 0

async function allResources(): Promise<Resource[]> {
  return (await service.listResources({ pageSize: 100 })).resources
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the stand-in has finished the job (its steps are 200 ms in tests). */
async function finishedAtService(jobId: string) {
  for (let i = 0; i < 100; i++) {
    const { status } = await service.getResourceStatus({ jobId })
    if (status !== ResourceStatus.PENDING && status !== ResourceStatus.PROCESSING) return status
    await sleep(25)
  }
  throw new Error(`job ${jobId} did not finish at the stand-in`)
}

const jobRow = (id: string) =>
  env.DB.prepare('SELECT * FROM ingestion_jobs WHERE id = ?').bind(id).first<Record<string, any>>()

const jobCount = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM ingestion_jobs').first<{ n: number }>())!.n

/** D1 whose statements matching `pattern` fail, the way a D1 outage would. */
function failingD1(pattern: RegExp): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (query: string) => {
          if (pattern.test(query)) throw new Error('D1_ERROR: simulated outage')
          return target.prepare(query)
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

let admin: TestUser
let user: TestUser

beforeAll(async () => {
  admin = await createAdmin()
  user = await createUser()
})

beforeEach(() => control('reset'))

const note = (over: Record<string, unknown> = {}) => ({
  title: 'Segment trees',
  type: 'markdown',
  content: '# Segment trees\nRange queries in O(log n).',
  ...over,
})

const addResource = (body: unknown, token = admin.accessToken) =>
  api('POST', '/resources', { token, body })

const submit = (body: unknown, as: TestUser = user) =>
  api('POST', '/resources/submissions', { token: as.accessToken, body })

const reviewOf = (id: string, body: unknown) =>
  api('POST', `/resources/submissions/${id}/review`, { token: admin.accessToken, body })

describe('POST /resources', () => {
  it('forwards the resource over grpc-web and tracks its ingestion job in D1', async () => {
    const res = await addResource(note())
    expect(res.status).toBe(201)
    const { resource, job } = res.body
    expect(resource).toMatchObject({
      title: 'Segment trees',
      type: 'markdown',
      is_global: false,
      status: 'PENDING',
    })
    expect(resource.id).toMatch(/^[0-9a-f]{24}$/)
    expect(job).toMatchObject({
      resource_id: resource.id,
      title: 'Segment trees',
      type: 'markdown',
      status: 'PENDING',
      progress: 0,
      created_by: admin.id,
    })
    const [stored] = await allResources()
    expect(stored).toMatchObject({
      id: resource.id,
      content: '# Segment trees\nRange queries in O(log n).',
      isGlobal: false,
    })
    expect(await jobRow(job.id)).toMatchObject({ resource_id: resource.id, status: 'PENDING' })
  })

  it('forwards a url resource with its source and the global flag', async () => {
    const res = await addResource({
      title: 'Segment trees (cp-algorithms)',
      type: 'url',
      source_url: 'https://cp-algorithms.com/data_structures/segment_tree.html',
      is_global: true,
    })
    expect(res.status).toBe(201)
    expect(res.body.resource).toMatchObject({
      type: 'url',
      is_global: true,
      source_url: 'https://cp-algorithms.com/data_structures/segment_tree.html',
    })
    const [stored] = await allResources()
    expect(stored).toMatchObject({ isGlobal: true, content: '' })
  })

  it('records a job the service finishes at once as READY', async () => {
    const res = await addResource(note({ content: 'READY_INGESTION' }))
    expect(res.body.job).toMatchObject({ status: 'READY', progress: 100 })
    expect(res.body.job.finished_at).toBeDefined()
  })

  it.each([
    [{ title: 'x', type: 'text' }, 'Either content or source_url must be set'],
    [
      note({ source_url: 'https://example.com/a' }),
      'Only one of content and source_url may be set',
    ],
    [note({ type: 'url' }), 'A url resource needs source_url, not content'],
    [
      note({ type: 'video' }),
      'type must be one of the following values: text, markdown, pdf, html, url, code, file',
    ],
    [note({ title: '   ' }), 'title should not be empty'],
    [note({ is_global: 'yes' }), 'is_global must be a boolean value'],
    [note({ owner: 'me' }), 'property owner should not exist'],
    [note({ source_url: undefined, content: '' }), 'content should not be empty'],
    [
      { title: 'x', type: 'url', source_url: 'ftp://example.com/a' },
      'source_url must be an http or https URL',
    ],
    [
      { title: 'x', type: 'url', source_url: 'https://user:secret@example.com/' },
      'source_url must not contain a user name or password',
    ],
  ])('refuses an invalid body with a clear message (%#)', async (body, message) => {
    const res = await addResource(body)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
    expect(await callsOf('AddResource')).toBe(0)
  })

  it('refuses content over 1,000,000 bytes, counting bytes rather than characters', async () => {
    const res = await addResource(note({ content: 'é'.repeat(500_001) }))
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['content must be at most 1000000 bytes long'])
  })

  it.each([
    'http://127.0.0.1/admin',
    'http://127.255.0.1/',
    'http://localhost:8080/x',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[fe80::1]/',
    'http://[febf::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:192.168.0.1]/',
    'http://[64:ff9b::a00:1]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://printer.local/',
    'http://intranet/',
  ])(
    'refuses the private, loopback or link-local target %s before calling the service',
    async (url) => {
      const res = await addResource({ title: 'Inside', type: 'url', source_url: url })
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual([PRIVATE])
      expect(await callsOf('AddResource')).toBe(0)
    },
  )

  it('is for admins only, and needs a token', async () => {
    expect((await addResource(note(), user.accessToken)).body).toEqual(FORBIDDEN)
    expect((await api('POST', '/resources', { body: note() })).status).toBe(401)
    expect(await callsOf('AddResource')).toBe(0)
  })

  it('answers 503 while the service is down and writes no job', async () => {
    const before = await jobCount()
    const res = await whileDown(() => addResource(note()))
    expect(res.status).toBe(503)
    expect(res.body).toEqual(UNAVAILABLE)
    expect(await jobCount()).toBe(before)
    expect(await allResources()).toEqual([])
  })

  it('answers 503 when a proxy in front of the service answers 502', async () => {
    const res = await whileDown(() => addResource(note()), '?http=502')
    expect(res.body).toEqual(UNAVAILABLE)
  })

  it('answers 502 when the service fails in a way retrying will not fix', async () => {
    const res = await whileDown(() => addResource(note()), '?http=500')
    expect(res.body).toEqual({
      statusCode: 502,
      message: 'Intelligence service error',
      error: 'Bad Gateway',
    })
  })

  it('answers 503 when no intelligence service is configured', async () => {
    const res = await api('POST', '/resources', {
      token: admin.accessToken,
      body: note(),
      bindings: { INTELLIGENCE_URL: undefined },
    })
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'Intelligence service is not configured',
      error: 'Service Unavailable',
    })
  })

  it('deletes the resource at the service again when its job cannot be stored', async () => {
    const before = await jobCount()
    const res = await api('POST', '/resources', {
      token: admin.accessToken,
      body: note(),
      bindings: { DB: failingD1(/^insert into "ingestion_jobs"/i) },
    })
    expect(res.status).toBe(500)
    expect(await callsOf('AddResource')).toBe(1)
    expect(await callsOf('DeleteResource')).toBe(1)
    expect(await allResources()).toEqual([])
    expect(await jobCount()).toBe(before)
  })
})

describe('GET /resources', () => {
  it('lists the service’s resources newest first, a page at a time, with the total', async () => {
    for (const title of ['first', 'second', 'third']) await addResource(note({ title }))
    const page1 = await api('GET', '/resources?page_size=2', { token: admin.accessToken })
    expect(page1.status).toBe(200)
    expect(page1.body.total_count).toBe(3)
    expect(page1.body.resources.map((r: { title: string }) => r.title)).toEqual(['third', 'second'])
    const token = page1.body.next_page_token
    expect(token).toEqual(expect.any(String))
    const page2 = await api('GET', `/resources?page_size=2&page_token=${token}`, {
      token: admin.accessToken,
    })
    expect(page2.body.resources.map((r: { title: string }) => r.title)).toEqual(['first'])
    expect(page2.body).not.toHaveProperty('next_page_token')
  })

  it('refuses a page size out of range and a page token the service did not issue', async () => {
    const size = await api('GET', '/resources?page_size=0', { token: admin.accessToken })
    expect(size.body.message).toEqual(['page_size must not be less than 1'])
    const token = await api('GET', '/resources?page_token=abc', { token: admin.accessToken })
    expect(token.status).toBe(400)
    expect(token.body.message).toBe('page_token is not one this service issued')
  })

  it('answers 503 while the service is down, and 403 to a user', async () => {
    const res = await whileDown(() => api('GET', '/resources', { token: admin.accessToken }))
    expect(res.body).toEqual(UNAVAILABLE)
    expect((await api('GET', '/resources', { token: user.accessToken })).body).toEqual(FORBIDDEN)
  })
})

describe('GET /resources/{id}', () => {
  it('reports the resource’s ingestion state with its title and type', async () => {
    const { resource, job } = (await addResource(note())).body
    const res = await api('GET', `/resources/${resource.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: resource.id,
      title: 'Segment trees',
      type: 'markdown',
      job_id: job.id,
    })
    expect(['PENDING', 'PROCESSING', 'READY']).toContain(res.body.status)
  })

  it('answers 404 for an unknown resource and 400 for a malformed id', async () => {
    const unknown = newId()
    const res = await api('GET', `/resources/${unknown}`, { token: admin.accessToken })
    expect(res.body).toEqual({
      statusCode: 404,
      message: `Resource ${unknown} not found`,
      error: 'Not Found',
    })
    const bad = await api('GET', '/resources/a.b', { token: admin.accessToken })
    expect(bad.body.message).toEqual(['Invalid resource ID format'])
  })
})

describe('DELETE /resources/{id}', () => {
  it('deletes the resource at the service and cancels its unfinished job here', async () => {
    const { resource, job } = (await addResource(note({ content: 'HANG_INGESTION' }))).body
    const res = await api('DELETE', `/resources/${resource.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Resource deleted successfully' })
    expect(await allResources()).toEqual([])
    expect(await jobRow(job.id)).toMatchObject({ status: 'CANCELLED' })
    const again = await api('DELETE', `/resources/${resource.id}`, { token: admin.accessToken })
    expect(again.status).toBe(404)
  })

  it('answers 503 while the service is down and changes nothing', async () => {
    const { resource, job } = (await addResource(note({ content: 'HANG_INGESTION' }))).body
    const res = await whileDown(() =>
      api('DELETE', `/resources/${resource.id}`, { token: admin.accessToken }),
    )
    expect(res.body).toEqual(UNAVAILABLE)
    expect((await allResources()).map((r) => r.id)).toEqual([resource.id])
    expect((await jobRow(job.id))?.status).toBe('PENDING')
  })
})

describe('GET /resources/jobs/{jobId}', () => {
  it('refreshes the job from GetResourceStatus and stores it', async () => {
    const { job } = (await addResource(note())).body
    await finishedAtService(job.id)
    const res = await api('GET', `/resources/jobs/${job.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: job.id, status: 'READY', progress: 100 })
    expect(res.body.finished_at).toBeDefined()
    expect(await jobRow(job.id)).toMatchObject({ status: 'READY', progress: 100 })
  })

  it('stores a failed ingestion with the service’s error', async () => {
    const { job } = (await addResource(note({ content: 'FAIL_INGESTION' }))).body
    await finishedAtService(job.id)
    const res = await api('GET', `/resources/jobs/${job.id}`, { token: admin.accessToken })
    expect(res.body).toMatchObject({ status: 'FAILED', progress: 100 })
    expect(res.body.error).toMatch(/ingestion failed/)
    expect((await jobRow(job.id))?.error).toMatch(/ingestion failed/)
  })

  it('answers a finished job from D1 while the service is down', async () => {
    const { job } = (await addResource(note({ content: 'READY_INGESTION' }))).body
    const res = await whileDown(() =>
      api('GET', `/resources/jobs/${job.id}`, { token: admin.accessToken }),
    )
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('READY')
  })

  it('answers 503 for a job in progress while the service is down, changing nothing', async () => {
    const { job } = (await addResource(note({ content: 'HANG_INGESTION' }))).body
    const res = await whileDown(() =>
      api('GET', `/resources/jobs/${job.id}`, { token: admin.accessToken }),
    )
    expect(res.body).toEqual(UNAVAILABLE)
    expect((await jobRow(job.id))?.status).toBe('PENDING')
  })

  it('answers 404 for a job this API did not start', async () => {
    const id = newId()
    const res = await api('GET', `/resources/jobs/${id}`, { token: admin.accessToken })
    expect(res.body).toEqual({
      statusCode: 404,
      message: `Ingestion job ${id} not found`,
      error: 'Not Found',
    })
  })
})

describe('POST /resources/submissions', () => {
  it('stores a signed-in user’s proposal as pending', async () => {
    const res = await submit({
      title: 'Sparse tables',
      type: 'text',
      content: 'Idempotent range queries in O(1).',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      user_id: user.id,
      title: 'Sparse tables',
      type: 'text',
      content: 'Idempotent range queries in O(1).',
      status: 'pending',
    })
    expect(await callsOf('AddResource')).toBe(0)
  })

  it('refuses private targets, a global flag and a missing source', async () => {
    const inside = await submit({ title: 'x', type: 'url', source_url: 'http://10.0.0.8/' })
    expect(inside.body.message).toEqual([PRIVATE])
    const flagged = await submit(note({ is_global: true }))
    expect(flagged.body.message).toEqual(['property is_global should not exist'])
    const empty = await submit({ title: 'x', type: 'text' })
    expect(empty.body.message).toEqual(['Either content or source_url must be set'])
  })

  it('needs a live session', async () => {
    expect((await api('POST', '/resources/submissions', { body: note() })).status).toBe(401)
  })
})

describe('listing submissions', () => {
  it('shows a user their own submissions only, newest first', async () => {
    const me = await createUser()
    const other = await createUser()
    const first = (await submit(note({ title: 'mine 1' }), me)).body
    const second = (await submit(note({ title: 'mine 2' }), me)).body
    await submit(note({ title: 'theirs' }), other)
    const res = await api('GET', '/resources/submissions/mine', { token: me.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: 2, limit: 20, offset: 0 })
    expect(res.body.submissions.map((s: { id: string }) => s.id)).toEqual([second.id, first.id])
  })

  it('lets an admin list submissions by status', async () => {
    const pending = (await submit(note({ title: 'to review' }))).body
    const rejected = (await submit(note({ title: 'to reject' }))).body
    await reviewOf(rejected.id, { action: 'reject' })
    const res = await api('GET', '/resources/submissions?status=pending&limit=100', {
      token: admin.accessToken,
    })
    expect(res.status).toBe(200)
    const ids = res.body.submissions.map((s: { id: string }) => s.id)
    expect(ids).toContain(pending.id)
    expect(ids).not.toContain(rejected.id)
    expect(res.body.submissions.every((s: { status: string }) => s.status === 'pending')).toBe(true)
    const all = await api('GET', '/resources/submissions?limit=100', { token: admin.accessToken })
    expect(all.body.total).toBeGreaterThan(res.body.total)
  })

  it('answers 400 naming the allowed statuses, and 403 to a user', async () => {
    const res = await api('GET', '/resources/submissions?status=archived', {
      token: admin.accessToken,
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'status must be one of the following values: pending, approved, rejected',
    ])
    const forbidden = await api('GET', '/resources/submissions', { token: user.accessToken })
    expect(forbidden.body).toEqual(FORBIDDEN)
  })
})

describe('POST /resources/submissions/{id}/review', () => {
  it('approves: adds the content as a global resource, then marks it approved with its job', async () => {
    const submission = (await submit(note({ title: 'Fenwick trees' }))).body
    const res = await reviewOf(submission.id, { action: 'approve', feedback: 'Nice summary' })
    expect(res.status).toBe(200)
    const [resource] = await allResources()
    expect(resource).toMatchObject({
      title: 'Fenwick trees',
      content: '# Segment trees\nRange queries in O(log n).',
      isGlobal: true,
    })
    expect(res.body.submission).toMatchObject({
      id: submission.id,
      status: 'approved',
      resource_id: resource.id,
      reviewed_by: admin.id,
      feedback: 'Nice summary',
    })
    expect(res.body.job).toMatchObject({
      resource_id: resource.id,
      submission_id: submission.id,
      created_by: admin.id,
      status: 'PENDING',
    })
    expect(await jobRow(res.body.job.id)).toMatchObject({ submission_id: submission.id })
  })

  it('rejects with feedback and forwards nothing', async () => {
    const submission = (await submit(note())).body
    const res = await reviewOf(submission.id, { action: 'reject', feedback: '  Duplicate  ' })
    expect(res.status).toBe(200)
    expect(res.body.submission).toMatchObject({ status: 'rejected', feedback: 'Duplicate' })
    expect(res.body).not.toHaveProperty('job')
    expect(await callsOf('AddResource')).toBe(0)
    const mine = await api('GET', '/resources/submissions/mine?limit=100', {
      token: user.accessToken,
    })
    const seen = mine.body.submissions.find((s: { id: string }) => s.id === submission.id)
    expect(seen).toMatchObject({ status: 'rejected', feedback: 'Duplicate' })
  })

  it('answers 409 for a submission already reviewed, whatever the action', async () => {
    const submission = (await submit(note())).body
    await reviewOf(submission.id, { action: 'reject' })
    for (const action of ['approve', 'reject']) {
      const res = await reviewOf(submission.id, { action })
      expect(res.status).toBe(409)
      expect(res.body.message).toBe('Submission has already been reviewed (rejected)')
    }
    expect(await callsOf('AddResource')).toBe(0)
  })

  it('approves once when two admins approve at the same time', async () => {
    const submission = (await submit(note())).body
    const results = await Promise.all([
      reviewOf(submission.id, { action: 'approve' }),
      reviewOf(submission.id, { action: 'approve' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const lost = results.find((r) => r.status === 409)
    expect(lost?.body.message).toBe('Submission has already been reviewed (approved)')
    expect(await allResources()).toHaveLength(1)
  })

  it('removes its resource and answers 409 when another review wins while the service works', async () => {
    const submission = (await submit(note())).body
    const before = await jobCount()
    const racing: IntelligenceClient = {
      ...service,
      async addResource(input) {
        const added = await service.addResource(input)
        // Another admin rejects the submission while this approval waits for the service.
        expect((await reviewOf(submission.id, { action: 'reject' })).status).toBe(200)
        return added
      },
    }
    const approval = reviewSubmission(
      createDb(env.DB),
      () => racing,
      submission.id,
      { action: 'approve' },
      admin.id,
      Date.now(),
    )
    await expect(approval).rejects.toMatchObject({
      status: 409,
      messages: 'Submission has already been reviewed (rejected)',
    })
    expect(await callsOf('AddResource')).toBe(1)
    expect(await allResources()).toEqual([])
    expect(await jobCount()).toBe(before)
  })

  it('answers 503 while the service is down and leaves the submission pending', async () => {
    const submission = (await submit(note())).body
    const before = await jobCount()
    const res = await whileDown(() => reviewOf(submission.id, { action: 'approve' }))
    expect(res.body).toEqual(UNAVAILABLE)
    const mine = await api('GET', '/resources/submissions/mine?limit=100', {
      token: user.accessToken,
    })
    const seen = mine.body.submissions.find((s: { id: string }) => s.id === submission.id)
    expect(seen.status).toBe('pending')
    expect(seen).not.toHaveProperty('resource_id')
    expect(await jobCount()).toBe(before)
    // Once the service is back the same submission can be approved.
    expect((await reviewOf(submission.id, { action: 'approve' })).status).toBe(200)
  })

  it('removes the added resource again when the approval cannot be stored', async () => {
    const submission = (await submit(note())).body
    const res = await api('POST', `/resources/submissions/${submission.id}/review`, {
      token: admin.accessToken,
      body: { action: 'approve' },
      bindings: { DB: failingD1(/^update "submissions"/i) },
    })
    expect(res.status).toBe(500)
    expect(await callsOf('AddResource')).toBe(1)
    expect(await allResources()).toEqual([])
    const row = await env.DB.prepare('SELECT status, resource_id FROM submissions WHERE id = ?')
      .bind(submission.id)
      .first()
    expect(row).toEqual({ status: 'pending', resource_id: null })
  })

  it('answers 404, 400 and 403 for an unknown id, a bad body and a non-admin', async () => {
    const unknown = await reviewOf(newId(), { action: 'approve' })
    expect(unknown.body.message).toBe('Submission not found')
    const submission = (await submit(note())).body
    const bad = await reviewOf(submission.id, { action: 'publish' })
    expect(bad.body.message).toEqual([
      'action must be one of the following values: approve, reject',
    ])
    const badId = await reviewOf('nope', { action: 'approve' })
    expect(badId.body.message).toEqual(['Invalid submission ID format'])
    const forbidden = await api('POST', `/resources/submissions/${submission.id}/review`, {
      token: user.accessToken,
      body: { action: 'approve' },
    })
    expect(forbidden.body).toEqual(FORBIDDEN)
  })
})

describe('the daily sweep of stuck ingestion jobs', () => {
  const TIMEOUT_MS = 3000 * 1000

  it('fails jobs still in progress after 3000 seconds and cancels them at the service', async () => {
    const { job } = (await addResource(note({ content: 'HANG_INGESTION' }))).body
    await runDailyCleanup(Date.now() + TIMEOUT_MS - 60_000)
    expect((await jobRow(job.id))?.status).toBe('PENDING')
    await runDailyCleanup(Date.now() + TIMEOUT_MS + 1_000)
    const row = await jobRow(job.id)
    expect(row).toMatchObject({ status: 'FAILED' })
    expect(row?.error).toMatch(/timed out after 3000 seconds; it was cancelled/)
    expect(row?.finished_at).not.toBeNull()
    expect((await service.getResourceStatus({ jobId: job.id })).status).toBe(
      ResourceStatus.CANCELLED,
    )
  })

  it('records the real end of a job that finished at the service but was never looked at', async () => {
    const { job } = (await addResource(note())).body
    await finishedAtService(job.id)
    await runDailyCleanup(Date.now() + TIMEOUT_MS + 1_000)
    expect(await jobRow(job.id)).toMatchObject({ status: 'READY', progress: 100, error: null })
  })

  it('marks stuck jobs failed even while the service is down', async () => {
    const { job } = (await addResource(note({ content: 'HANG_INGESTION' }))).body
    await whileDown(() => runDailyCleanup(Date.now() + TIMEOUT_MS + 1_000))
    const row = await jobRow(job.id)
    expect(row?.status).toBe('FAILED')
    expect(row?.error).toMatch(/timed out after 3000 seconds; cancelling it failed/)
  })
})

describe('URL target checks', () => {
  it.each([
    'https://cp-algorithms.com/',
    'https://172.32.0.1/',
    'https://100.128.0.1/',
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'http://example.com:8080/path?q=1',
  ])('accepts the public target %s', (url) => {
    expect(targetUrlProblem(url)).toBeUndefined()
  })

  it('names what is wrong with a URL that is not acceptable', () => {
    expect(targetUrlProblem('not a url')).toBe('invalid')
    expect(targetUrlProblem('file:///etc/passwd')).toBe('scheme')
    expect(targetUrlProblem('http://[fe80::1%25eth0]/')).not.toBeUndefined()
    expect(targetUrlProblem('https://u:p@example.com/')).toBe('credentials')
    expect(targetUrlProblem('https://example.com/', ['https:'])).toBeUndefined()
    expect(targetUrlProblem('http://example.com/', ['https:'])).toBe('scheme')
  })
})
