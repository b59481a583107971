// A loopback stand-in for the intelligence service: ResourceService over grpc-web, resources kept in
// memory, ingestion simulated over time, and /__control endpoints that let tests take it down.
// @ts-check
// Plain JavaScript (type-checked through JSDoc) so that `npm start` can run it under Node 20, which
// has no TypeScript loader; it uses the JS variant of the generated code for the same reason.
import { createServer } from 'node:http'
import { randomBytes } from 'node:crypto'
import { create } from '@bufbuild/protobuf'
import { timestampFromMs } from '@bufbuild/protobuf/wkt'
import { Code, ConnectError } from '@connectrpc/connect'
import { connectNodeAdapter } from '@connectrpc/connect-node'
import {
  AddResourceResponseSchema,
  CancelIngestionResponseSchema,
  DeleteResourceResponseSchema,
  GetResourceStatusResponseSchema,
  ListResourcesResponseSchema,
  ResourceSchema,
  ResourceService,
  ResourceStatus,
  ResourceType,
} from './gen/intelligence/v1/resources_pb.js'

/**
 * @typedef {import('./gen/intelligence/v1/resources_pb.js').AddResourceRequest} AddResourceRequest
 * @typedef {import('@connectrpc/connect').ServiceImpl<typeof ResourceService>} ResourceServiceImpl
 *
 * @typedef {object} StoredResource
 * @property {string} id
 * @property {string} title
 * @property {ResourceType} type
 * @property {string} content
 * @property {string} sourceUrl
 * @property {boolean} isGlobal
 * @property {number} createdAt
 * @property {number} seq insertion order, to keep "newest first" stable within one millisecond
 *
 * @typedef {'normal' | 'ready' | 'fail' | 'hang'} Outcome
 *
 * @typedef {object} Job
 * @property {string} id
 * @property {string} resourceId
 * @property {number} startedAt
 * @property {Outcome} outcome
 * @property {number | undefined} cancelledAt
 *
 * @typedef {object} JobState
 * @property {ResourceStatus} status
 * @property {number} progress
 * @property {string} error
 * @property {number} updatedAt
 *
 * @typedef {object} Outage
 * @property {number} [until] epoch ms until which calls are refused
 * @property {number} [calls] how many more calls are refused
 * @property {boolean} [forever] refused until /__control/up or /__control/reset
 * @property {number} [httpStatus] answer with this plain HTTP status (as a proxy in front of a
 *   dead service would) instead of a grpc-web UNAVAILABLE status
 *
 * @typedef {object} StandInOptions
 * @property {number} [port] 0 (the default) picks a free port
 * @property {number} [stepMs] how long a job stays PENDING, then PROCESSING (default 1000)
 */

/** Markers in a resource's title, content or source URL that pick how its ingestion ends. */
const MARKERS = /** @type {const} */ ([
  ['FAIL_INGESTION', 'fail'],
  ['HANG_INGESTION', 'hang'],
  ['READY_INGESTION', 'ready'],
])

const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100

/** 24 hex characters, like the ids of the rest of the system. */
const newId = () => randomBytes(12).toString('hex')

/** @param {StoredResource} r */
function outcomeOf(r) {
  const text = `${r.title}\n${r.content}\n${r.sourceUrl}`
  for (const [marker, outcome] of MARKERS) if (text.includes(marker)) return outcome
  return /** @type {Outcome} */ ('normal')
}

/**
 * Where a job stands at `now`. Computed from its start time rather than moved by timers, so the
 * stand-in holds no timers that could keep a test run or `npm start` from exiting.
 * @param {Job} job
 * @param {number} now
 * @param {number} stepMs
 * @returns {JobState}
 */
function jobState(job, now, stepMs) {
  if (job.cancelledAt !== undefined) {
    const before = jobState({ ...job, cancelledAt: undefined }, job.cancelledAt, stepMs)
    return { ...before, status: ResourceStatus.CANCELLED, updatedAt: job.cancelledAt }
  }
  const elapsed = now - job.startedAt
  if (job.outcome === 'ready') {
    return { status: ResourceStatus.READY, progress: 100, error: '', updatedAt: job.startedAt }
  }
  if (elapsed < stepMs) {
    return { status: ResourceStatus.PENDING, progress: 0, error: '', updatedAt: job.startedAt }
  }
  if (job.outcome === 'hang' || elapsed < 2 * stepMs) {
    const progress =
      job.outcome === 'hang' ? 50 : 10 + Math.floor((80 * (elapsed - stepMs)) / stepMs)
    return {
      status: ResourceStatus.PROCESSING,
      progress,
      error: '',
      updatedAt: job.startedAt + stepMs,
    }
  }
  const doneAt = job.startedAt + 2 * stepMs
  if (job.outcome === 'fail') {
    return {
      status: ResourceStatus.FAILED,
      progress: 100,
      error: 'ingestion failed: the document could not be parsed',
      updatedAt: doneAt,
    }
  }
  return { status: ResourceStatus.READY, progress: 100, error: '', updatedAt: doneAt }
}

/** @param {AddResourceRequest} req */
function validateAdd(req) {
  if (!req.title.trim()) return 'title is required'
  if (req.type === ResourceType.UNSPECIFIED || !(req.type in ResourceType)) {
    return 'type must be one of text, markdown, pdf, html, url, code, file'
  }
  const hasContent = req.content !== ''
  const hasUrl = req.sourceUrl !== ''
  if (hasContent === hasUrl) return 'exactly one of content and source_url must be set'
  if (req.type === ResourceType.URL && !hasUrl) return 'a url resource needs source_url'
  if (hasUrl && !/^https?:\/\/[^\s]+$/.test(req.sourceUrl)) {
    return 'source_url must be an http(s) URL'
  }
  return undefined
}

/**
 * Starts the stand-in on 127.0.0.1.
 * @param {number | StandInOptions} [portOrOptions]
 * @returns {Promise<{ server: import('node:http').Server, url: string }>}
 */
export function startIntelligenceStandIn(portOrOptions = {}) {
  const options = typeof portOrOptions === 'number' ? { port: portOrOptions } : portOrOptions
  const stepMs = options.stepMs ?? 1000

  /** @type {Map<string, StoredResource>} */
  let resources = new Map()
  /** @type {Map<string, Job>} */
  let jobs = new Map()
  /** @type {Map<string, string>} resource id -> its latest job id */
  let latestJob = new Map()
  /** @type {Map<string, { resourceId: string, jobId: string }>} */
  let byRequestId = new Map()
  /** @type {Outage | undefined} */
  let outage
  let delayMs = 0
  /** @type {Record<string, number>} */
  let calls = {}
  let seq = 0

  /** @param {string} resourceId */
  const stateOfResource = (resourceId) => {
    const jobId = latestJob.get(resourceId)
    const job = jobId === undefined ? undefined : jobs.get(jobId)
    return job ? jobState(job, Date.now(), stepMs) : undefined
  }

  /** @param {StoredResource} r */
  const toMessage = (r) => {
    const state = stateOfResource(r.id)
    return create(ResourceSchema, {
      id: r.id,
      title: r.title,
      type: r.type,
      content: r.content,
      sourceUrl: r.sourceUrl,
      isGlobal: r.isGlobal,
      status: state?.status ?? ResourceStatus.UNSPECIFIED,
      createdAt: timestampFromMs(r.createdAt),
      updatedAt: timestampFromMs(state?.updatedAt ?? r.createdAt),
    })
  }

  /** @param {Job} job */
  const statusResponse = (job) => {
    const state = jobState(job, Date.now(), stepMs)
    return create(GetResourceStatusResponseSchema, {
      jobId: job.id,
      resourceId: job.resourceId,
      status: state.status,
      progress: state.progress,
      error: state.error,
      updatedAt: timestampFromMs(state.updatedAt),
    })
  }

  /** @type {ResourceServiceImpl} */
  const service = {
    addResource(req) {
      const known = req.requestId ? byRequestId.get(req.requestId) : undefined
      const knownResource = known && resources.get(known.resourceId)
      if (known && knownResource) {
        return create(AddResourceResponseSchema, {
          resource: toMessage(knownResource),
          jobId: known.jobId,
        })
      }
      const invalid = validateAdd(req)
      if (invalid) throw new ConnectError(invalid, Code.InvalidArgument)
      const now = Date.now()
      /** @type {StoredResource} */
      const stored = {
        id: newId(),
        title: req.title.trim(),
        type: req.type,
        content: req.content,
        sourceUrl: req.sourceUrl,
        isGlobal: req.isGlobal,
        createdAt: now,
        seq: seq++,
      }
      /** @type {Job} */
      const job = {
        id: newId(),
        resourceId: stored.id,
        startedAt: now,
        outcome: outcomeOf(stored),
        cancelledAt: undefined,
      }
      resources.set(stored.id, stored)
      jobs.set(job.id, job)
      latestJob.set(stored.id, job.id)
      if (req.requestId) byRequestId.set(req.requestId, { resourceId: stored.id, jobId: job.id })
      return create(AddResourceResponseSchema, { resource: toMessage(stored), jobId: job.id })
    },

    getResourceStatus(req) {
      const target = req.target
      if (target.case === undefined || !target.value) {
        throw new ConnectError('job_id or resource_id is required', Code.InvalidArgument)
      }
      const jobId = target.case === 'jobId' ? target.value : latestJob.get(target.value)
      const job = jobId === undefined ? undefined : jobs.get(jobId)
      if (!job) {
        const what = target.case === 'jobId' ? 'ingestion job' : 'resource'
        throw new ConnectError(`${what} ${target.value} not found`, Code.NotFound)
      }
      return statusResponse(job)
    },

    listResources(req) {
      const pageSize = req.pageSize === 0 ? DEFAULT_PAGE_SIZE : req.pageSize
      if (pageSize < 0 || pageSize > MAX_PAGE_SIZE) {
        throw new ConnectError(
          `page_size must be between 1 and ${MAX_PAGE_SIZE}`,
          Code.InvalidArgument,
        )
      }
      const offset = req.pageToken === '' ? 0 : Number(req.pageToken)
      if (!Number.isInteger(offset) || offset < 0) {
        throw new ConnectError('page_token is not one this service issued', Code.InvalidArgument)
      }
      const all = [...resources.values()].sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq)
      const page = all.slice(offset, offset + pageSize)
      const next = offset + pageSize < all.length ? String(offset + pageSize) : ''
      return create(ListResourcesResponseSchema, {
        resources: page.map(toMessage),
        nextPageToken: next,
        totalCount: all.length,
      })
    },

    deleteResource(req) {
      if (!resources.delete(req.id)) {
        throw new ConnectError(`resource ${req.id} not found`, Code.NotFound)
      }
      for (const [id, job] of jobs) if (job.resourceId === req.id) jobs.delete(id)
      latestJob.delete(req.id)
      return create(DeleteResourceResponseSchema, {})
    },

    cancelIngestion(req) {
      const job = jobs.get(req.jobId)
      if (!job) throw new ConnectError(`ingestion job ${req.jobId} not found`, Code.NotFound)
      const { status } = jobState(job, Date.now(), stepMs)
      if (status === ResourceStatus.READY || status === ResourceStatus.FAILED) {
        throw new ConnectError(
          `ingestion job ${req.jobId} has already finished`,
          Code.FailedPrecondition,
        )
      }
      if (status !== ResourceStatus.CANCELLED) job.cancelledAt = Date.now()
      return create(CancelIngestionResponseSchema, {
        jobId: job.id,
        status: ResourceStatus.CANCELLED,
      })
    },
  }

  const grpcWeb = connectNodeAdapter({
    grpcWeb: true,
    grpc: false,
    connect: false,
    routes: (router) => router.service(ResourceService, service),
  })

  /** Whether the next call is refused; counts the refusal against `calls`. */
  const refuseNow = () => {
    if (!outage) return false
    if (outage.forever) return true
    if (outage.until !== undefined && Date.now() < outage.until) return true
    if (outage.calls !== undefined && outage.calls > 0) {
      outage.calls--
      return true
    }
    outage = undefined
    return false
  }

  /**
   * @param {URL} url
   * @param {string} method
   * @returns {{ status: number, body: unknown }}
   */
  const control = (url, method) => {
    const action = url.pathname.slice('/__control/'.length)
    const num = (/** @type {string} */ name) => {
      const v = url.searchParams.get(name)
      return v === null || v === '' ? undefined : Number(v)
    }
    if (method === 'GET' && action === 'calls') return { status: 200, body: calls }
    if (method !== 'POST') return { status: 405, body: { error: 'use POST' } }
    switch (action) {
      case 'reset':
        resources = new Map()
        jobs = new Map()
        latestJob = new Map()
        byRequestId = new Map()
        outage = undefined
        delayMs = 0
        calls = {}
        return { status: 200, body: { ok: true } }
      case 'down': {
        const ms = num('ms')
        const count = num('calls')
        outage = {
          until: ms === undefined ? undefined : Date.now() + ms,
          calls: count,
          forever: ms === undefined && count === undefined,
          httpStatus: num('http'),
        }
        return { status: 200, body: { ok: true, outage } }
      }
      case 'up':
        outage = undefined
        return { status: 200, body: { ok: true } }
      case 'slow':
        delayMs = num('ms') ?? 0
        return { status: 200, body: { ok: true, delayMs } }
      default:
        return { status: 404, body: { error: `no control action ${action}` } }
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (url.pathname.startsWith('/__control/')) {
      const { status, body } = control(url, req.method ?? 'GET')
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
      return
    }
    const rpc = url.pathname.split('/').pop() ?? ''
    calls[rpc] = (calls[rpc] ?? 0) + 1
    const httpStatus = outage?.httpStatus
    if (refuseNow()) {
      req.resume()
      if (httpStatus) {
        res.writeHead(httpStatus, { 'content-type': 'text/plain' })
        res.end('upstream connect error or disconnect/reset before headers')
      } else {
        // A trailers-only grpc-web answer, as a live proxy gives for a backend that is down.
        res.writeHead(200, {
          'content-type': 'application/grpc-web+proto',
          'grpc-status': String(Code.Unavailable),
          'grpc-message': encodeURIComponent('intelligence service is unavailable'),
        })
        res.end()
      }
      return
    }
    if (delayMs > 0) setTimeout(() => grpcWeb(req, res), delayMs)
    else grpcWeb(req, res)
  })

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : options.port
      resolve({ server, url: `http://127.0.0.1:${port}` })
    })
  })
}
