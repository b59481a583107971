// Client of the intelligence service's ResourceService: grpc-web over fetch, with per-call
// deadlines, short retries and failures mapped to one typed IntelligenceError.
import type { MessageInitShape } from '@bufbuild/protobuf'
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect'
import { createGrpcWebTransport } from '@connectrpc/connect-web'
import { ApiError } from '../lib/errors.ts'
import {
  ResourceService,
  ResourceStatus,
  ResourceType,
  type AddResourceRequestSchema,
  type AddResourceResponse,
  type CancelIngestionResponse,
  type GetResourceStatusResponse,
  type ListResourcesResponse,
} from './gen/intelligence/v1/resources_pb.ts'

export { ResourceStatus, ResourceType }
export type {
  AddResourceResponse,
  CancelIngestionResponse,
  GetResourceStatusResponse,
  ListResourcesResponse,
  Resource,
} from './gen/intelligence/v1/resources_pb.ts'

export type AddResourceInput = MessageInitShape<typeof AddResourceRequestSchema>

export interface IntelligenceClient {
  /** Safe to retry: a `requestId` is generated when the caller gives none and reused on retries. */
  addResource(input: AddResourceInput): Promise<AddResourceResponse>
  getResourceStatus(
    target: { jobId: string } | { resourceId: string },
  ): Promise<GetResourceStatusResponse>
  listResources(page?: { pageSize?: number; pageToken?: string }): Promise<ListResourcesResponse>
  deleteResource(id: string): Promise<void>
  cancelIngestion(jobId: string): Promise<CancelIngestionResponse>
}

export interface IntelligenceClientOptions {
  /** Defaults to the global fetch (workerd's in a Worker). */
  fetch?: typeof fetch
  /** Deadline of each attempt, sent to the service as grpc-timeout. */
  timeoutMs?: number
  /** Further attempts after a retryable failure. */
  retries?: number
  /** First backoff; each later one doubles. */
  backoffMs?: number
}

export const INTELLIGENCE_TIMEOUT_MS = 5_000
const DEFAULT_RETRIES = 2
const DEFAULT_BACKOFF_MS = 100

/** gRPC status names in lower snake case, as they are spelled in the gRPC docs. */
export type IntelligenceErrorCode =
  | 'canceled'
  | 'unknown'
  | 'invalid_argument'
  | 'deadline_exceeded'
  | 'not_found'
  | 'already_exists'
  | 'permission_denied'
  | 'resource_exhausted'
  | 'failed_precondition'
  | 'aborted'
  | 'out_of_range'
  | 'unimplemented'
  | 'internal'
  | 'unavailable'
  | 'data_loss'
  | 'unauthenticated'

const CODE_NAMES: Record<Code, IntelligenceErrorCode> = {
  [Code.Canceled]: 'canceled',
  [Code.Unknown]: 'unknown',
  [Code.InvalidArgument]: 'invalid_argument',
  [Code.DeadlineExceeded]: 'deadline_exceeded',
  [Code.NotFound]: 'not_found',
  [Code.AlreadyExists]: 'already_exists',
  [Code.PermissionDenied]: 'permission_denied',
  [Code.ResourceExhausted]: 'resource_exhausted',
  [Code.FailedPrecondition]: 'failed_precondition',
  [Code.Aborted]: 'aborted',
  [Code.OutOfRange]: 'out_of_range',
  [Code.Unimplemented]: 'unimplemented',
  [Code.Internal]: 'internal',
  [Code.Unavailable]: 'unavailable',
  [Code.DataLoss]: 'data_loss',
  [Code.Unauthenticated]: 'unauthenticated',
}

/** A failed call to the intelligence service, with the HTTP status an API route should answer. */
export class IntelligenceError extends Error {
  override readonly name = 'IntelligenceError'

  constructor(
    readonly code: IntelligenceErrorCode,
    message: string,
  ) {
    super(message)
  }

  /**
   * 503 when the service cannot be reached in time (the caller may try again later), 404 and 400
   * when the service judged the request, 409 when the resource is in the wrong state (e.g.
   * cancelling a finished job), 502 for anything else the service got wrong.
   */
  get httpStatus(): number {
    switch (this.code) {
      case 'unavailable':
      case 'deadline_exceeded':
        return 503
      case 'not_found':
        return 404
      case 'invalid_argument':
        return 400
      case 'failed_precondition':
      case 'already_exists':
        return 409
      default:
        return 502
    }
  }

  /** The API's error: the service's own words where they are about the request, generic otherwise. */
  toApiError(): ApiError {
    const status = this.httpStatus
    if (status === 503) return new ApiError(503, 'Intelligence service unavailable')
    if (status === 502) return new ApiError(502, 'Intelligence service error')
    return new ApiError(status, this.message)
  }

  static from(reason: unknown): IntelligenceError {
    if (reason instanceof IntelligenceError) return reason
    const e = ConnectError.from(reason)
    return new IntelligenceError(CODE_NAMES[e.code] ?? 'unknown', e.rawMessage)
  }
}

/**
 * fetch as connect-web calls it, made acceptable to workerd: it sends `redirect: 'error'`, which
 * workerd rejects (only 'follow' and 'manual'), so redirects come back as 3xx and fail as
 * non-grpc-web answers instead. It is called as a plain function, because workerd's fetch throws
 * "Illegal invocation" when called as a method of another object. A network failure (connection
 * refused, DNS) becomes UNAVAILABLE rather than connect's UNKNOWN, so it is retried and answered 503.
 */
function grpcWebFetch(fetchImpl: typeof fetch | undefined): typeof fetch {
  return async (input, init) => {
    const { redirect: _redirect, ...rest } = init ?? {}
    try {
      return await (fetchImpl ?? globalThis.fetch)(input, { ...rest, redirect: 'manual' })
    } catch (reason) {
      if (rest.signal?.aborted || reason instanceof ConnectError) throw reason
      const detail = reason instanceof Error ? reason.message : String(reason)
      throw new ConnectError(`intelligence service unreachable: ${detail}`, Code.Unavailable)
    }
  }
}

/**
 * UNAVAILABLE means the call did not reach a working service, so any call may be repeated (adds
 * carry a request id). DEADLINE_EXCEEDED may mean the service did the work, so only reads repeat.
 */
function isRetryable(e: IntelligenceError, idempotent: boolean): boolean {
  return e.code === 'unavailable' || (idempotent && e.code === 'deadline_exceeded')
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function createIntelligenceClient(
  baseUrl: string,
  options: IntelligenceClientOptions = {},
): IntelligenceClient {
  const timeoutMs = options.timeoutMs ?? INTELLIGENCE_TIMEOUT_MS
  const retries = options.retries ?? DEFAULT_RETRIES
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS
  const client: Client<typeof ResourceService> = createClient(
    ResourceService,
    createGrpcWebTransport({
      baseUrl: baseUrl.replace(/\/+$/, ''),
      useBinaryFormat: true,
      fetch: grpcWebFetch(options.fetch),
    }),
  )

  const perAttempt = { timeoutMs }

  async function call<T>(idempotent: boolean, attempt: () => Promise<T>) {
    for (let tried = 0; ; tried++) {
      try {
        return await attempt()
      } catch (reason) {
        const e = IntelligenceError.from(reason)
        if (tried >= retries || !isRetryable(e, idempotent)) throw e
        // Jitter keeps many Worker isolates from retrying in step against a recovering service.
        await sleep(backoffMs * 2 ** tried * (0.75 + Math.random() / 2))
      }
    }
  }

  return {
    addResource(input) {
      const request = { ...input, requestId: input.requestId || crypto.randomUUID() }
      return call(false, () => client.addResource(request, perAttempt))
    },
    getResourceStatus(target) {
      const request =
        'jobId' in target
          ? { target: { case: 'jobId' as const, value: target.jobId } }
          : { target: { case: 'resourceId' as const, value: target.resourceId } }
      return call(true, () => client.getResourceStatus(request, perAttempt))
    },
    listResources(page = {}) {
      return call(true, () => client.listResources(page, perAttempt))
    },
    async deleteResource(id) {
      await call(false, () => client.deleteResource({ id }, perAttempt))
    },
    cancelIngestion(jobId) {
      return call(false, () => client.cancelIngestion({ jobId }, perAttempt))
    },
  }
}

/** API spelling of a resource type (`pdf`) <-> the proto enum. */
export const RESOURCE_TYPES = {
  text: ResourceType.TEXT,
  markdown: ResourceType.MARKDOWN,
  pdf: ResourceType.PDF,
  html: ResourceType.HTML,
  url: ResourceType.URL,
  code: ResourceType.CODE,
  file: ResourceType.FILE,
} as const satisfies Record<string, ResourceType>

export type ResourceTypeName = keyof typeof RESOURCE_TYPES

export function resourceTypeName(type: ResourceType): ResourceTypeName | undefined {
  const names = Object.keys(RESOURCE_TYPES) as ResourceTypeName[]
  return names.find((name) => RESOURCE_TYPES[name] === type)
}

/** API spelling of an ingestion status: the proto enum's value name (`READY`). */
export function resourceStatusName(status: ResourceStatus): string {
  return ResourceStatus[status] ?? 'UNSPECIFIED'
}
