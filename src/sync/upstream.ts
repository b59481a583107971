// Talking to a platform over HTTP: one typed error for every way it can fail, so the sync job
// can record the failure of one platform and carry on with the others.
import type { Platform } from '../contests/schemas.ts'
import { UPSTREAM_TIMEOUT_MS, type FetchFn } from './adapter.ts'

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
    readonly platform: Platform,
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(`${platform}: ${message}`)
  }
}

export interface UpstreamResponse {
  status: number
  ok: boolean
  text: string
}

// Enough of an error page to recognise it in a log line, not a whole HTML document.
const SNIPPET_CHARS = 200

/** Fetches `url` and reads the whole body within the time limit, mapping failures to kinds. */
export async function fetchText(
  platform: Platform,
  url: string,
  init: RequestInit,
  fetchFn: FetchFn,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
): Promise<UpstreamResponse> {
  // One signal covers the body too: a server that sends headers and then stalls is a timeout.
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const res = await fetchFn(url, { ...init, signal })
    const text = await res.text()
    return { status: res.status, ok: res.ok, text }
  } catch (error) {
    if (signal.aborted || isAbort(error)) {
      throw new UpstreamError(platform, 'timeout', `no answer within ${timeoutMs} ms`)
    }
    throw new UpstreamError(platform, 'network', `request failed: ${messageOf(error)}`)
  }
}

/** The error for a non-2xx answer, naming the status and the start of the body. */
export function statusError(platform: Platform, res: UpstreamResponse): UpstreamError {
  const snippet = res.text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS)
  return new UpstreamError(
    platform,
    'status',
    `HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`,
    res.status,
  )
}

export function parseJson(platform: Platform, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UpstreamError(platform, 'malformed', `body is not JSON: ${messageOf(error)}`)
  }
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
