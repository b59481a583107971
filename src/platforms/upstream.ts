// Talking to a platform over HTTP: one typed error for every way it can fail, so the sync job
// can record the failure of one platform and carry on with the others.
import type { z } from 'zod'
import {
  UPSTREAM_TIMEOUT_MS,
  UPSTREAM_USER_AGENT,
  type FetchFn,
  type SourceRequest,
} from './source.ts'

/**
 * - network: no HTTP answer at all (refused, reset, DNS)
 * - timeout: no complete answer within the time limit
 * - status: an HTTP status other than 2xx
 * - malformed: an answer that is not the JSON or HTML the platform documents
 * - api: the platform answered and said the call failed (Codeforces FAILED, GraphQL errors)
 */
export type UpstreamErrorKind = 'network' | 'timeout' | 'status' | 'malformed' | 'api'

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError'

  constructor(
    readonly platform: string,
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(`${platform}: ${message}`)
  }

  /** Seconds the source asked us to wait (Retry-After of a 429 or 503). */
  retryAfter?: number

  /** 403 and 429: bot protection or a rate limit, which retrying soon only makes worse. */
  get blocked(): boolean {
    return this.status === 403 || this.status === 429
  }
}

export interface UpstreamResponse {
  status: number
  ok: boolean
  text: string
  /** Retry-After in seconds, when a 429 or 503 carries one. */
  retryAfter?: number
  /** The answer's headers, for a source that reads more of them (Luogu's Set-Cookie). */
  headers?: Headers
}

// Enough of an error page to recognise it in a log line, not a whole HTML document.
const SNIPPET_CHARS = 200

/**
 * Fetches `url` and reads the whole body within the time limit, mapping failures to kinds. Every
 * request names the service in its User-Agent.
 */
export async function fetchText(
  platform: string,
  url: string,
  init: RequestInit,
  fetchFn: FetchFn,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
  userAgent = UPSTREAM_USER_AGENT,
): Promise<UpstreamResponse> {
  // One signal covers the body too: a server that sends headers and then stalls is a timeout.
  const signal = AbortSignal.timeout(timeoutMs)
  const headers = new Headers(init.headers)
  headers.set('User-Agent', userAgent)
  try {
    const res = await fetchFn(url, { ...init, headers, signal })
    const text = await res.text()
    const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN)
    return {
      status: res.status,
      ok: res.ok,
      text,
      headers: res.headers,
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 && { retryAfter }),
    }
  } catch (error) {
    if (signal.aborted || isAbort(error)) {
      throw new UpstreamError(platform, 'timeout', `no answer within ${timeoutMs} ms`)
    }
    throw new UpstreamError(platform, 'network', `request failed: ${messageOf(error)}`)
  }
}

/** The error for a non-2xx answer, naming the status and the start of the body. */
export function statusError(platform: string, res: UpstreamResponse): UpstreamError {
  const snippet = res.text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS)
  const error = new UpstreamError(
    platform,
    'status',
    `HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`,
    res.status,
  )
  if (res.retryAfter !== undefined) error.retryAfter = res.retryAfter
  return error
}

export function parseJson(platform: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UpstreamError(platform, 'malformed', `body is not JSON: ${messageOf(error)}`)
  }
}

/**
 * `payload` as the envelope `schema` reads it. An answer without the expected structure throws
 * `problem` as malformed: it must never pass for "no contests".
 */
export function readEnvelope<S extends z.ZodType>(
  platform: string,
  schema: S,
  payload: unknown,
  problem: string,
): z.output<S> {
  const envelope = schema.safeParse(payload)
  if (!envelope.success) throw new UpstreamError(platform, 'malformed', problem)
  return envelope.data
}

/** The parts of a source's request that say where to ask and how. */
export type UpstreamTarget = Pick<SourceRequest, 'baseUrl' | 'fetchFn' | 'timeoutMs' | 'userAgent'>

/** Reads a non-2xx answer for the error an API explains in its body (a refused call), if any. */
export type RefusalReader = (res: UpstreamResponse) => UpstreamError | undefined

/**
 * The body of a 2xx answer to `path` under the target's base URL. Any other answer throws what
 * `refusal` finds in it, else a status error.
 */
export async function fetchOk(
  platform: string,
  target: UpstreamTarget,
  path: string,
  init: RequestInit,
  refusal?: RefusalReader,
): Promise<string> {
  const res = await fetchText(
    platform,
    joinUrl(target.baseUrl, path),
    init,
    target.fetchFn,
    target.timeoutMs,
    target.userAgent,
  )
  if (!res.ok) throw refusal?.(res) ?? statusError(platform, res)
  return res.text
}

/** fetchOk for a JSON answer: asked for with Accept: application/json, given parsed. */
export async function fetchJson(
  platform: string,
  target: UpstreamTarget,
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
  refusal?: RefusalReader,
): Promise<unknown> {
  const headers = { Accept: 'application/json', ...init.headers }
  return parseJson(platform, await fetchOk(platform, target, path, { ...init, headers }, refusal))
}

/** A base URL setting (with or without a trailing slash) joined with an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path
}

/** Parses a body that may or may not be JSON (error answers), without throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

// DOMException is not an Error subclass in every runtime, so the name is what is checked.
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name
  return name === 'AbortError' || name === 'TimeoutError'
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
