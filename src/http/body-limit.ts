// Request body limits: 64 KiB unless a route's valid bodies need more. Runs before any middleware
// reads a body (the rate limiter reads the email), so an oversized body is never parsed.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { payloadTooLarge } from '../lib/errors.ts'

const KIB = 1024
const MIB = 1024 * KIB

export const DEFAULT_BODY_LIMIT = 64 * KIB

/**
 * Larger limits by method and exact path, sized from each route's own field caps with room for
 * multi-byte text and JSON escapes. 'own' marks a route that applies its own limit and answers in
 * its own body shape (the contact form: 128 KiB, { success: false, message }).
 */
const ROUTE_LIMITS: Record<string, number | 'own'> = {
  // 100 contests of up to 5,000 characters of description, two 2,048-character URLs and metadata.
  'POST /contests/bulk': 2 * MIB,
  // 50,000 characters of HTML and 10,000 of text (plus 1,000 user ids in the bulk send).
  'POST /notifications/emails/custom': 256 * KIB,
  'POST /notifications/emails/bulk': 256 * KIB,
  // Resource content is capped at 1,000,000 bytes (admins) and 100,000 (submissions) once parsed.
  'POST /resources': 2 * MIB,
  'POST /resources/submissions': 256 * KIB,
  'POST /contact': 'own',
}

/** The body limit of a request, in bytes, or 'own' for a route that applies its own. */
export function bodyLimitOf(method: string, path: string): number | 'own' {
  return ROUTE_LIMITS[`${method} ${path}`] ?? DEFAULT_BODY_LIMIT
}

/**
 * How much of a refused body is read and dropped before the rest is cancelled: well above every
 * limit, so any body a client would plausibly send is drained whole.
 */
export const DRAIN_LIMIT = 8 * MIB

type BodyReader = ReadableStreamDefaultReader<Uint8Array>

/**
 * Reads what is left of a refused body and drops it. A body left half read (or cancelled) when the
 * answer goes breaks the connection it came on: under `wrangler dev` the next request on it
 * answers 503 "Your worker restarted mid-request", or the client sees a reset. A body never
 * touched is drained by the runtime itself. Past DRAIN_LIMIT the rest is cancelled: the
 * connection is given up rather than the time.
 */
async function discard(reader: BodyReader, alreadyRead: number): Promise<void> {
  let size = alreadyRead
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      size += value.byteLength
      if (size > DRAIN_LIMIT) return await reader.cancel()
    }
  } catch {
    // The client went away mid-body: nothing is left to drain.
  }
}

/** Content-Length when it frames the body (a chunked body's is ignored, as HTTP says). */
function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length')
  if (header === null || request.headers.has('transfer-encoding')) return undefined
  const length = Number(header)
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined
}

function joined(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/**
 * A limit of `maxSize` bytes, answered by `tooLarge`. A declared Content-Length is trusted (the
 * runtime delivers no more than it); any other body is counted as it streams in, kept (at most
 * `maxSize` bytes) for the handlers to read, and drained once it is found too large.
 */
export function limitBody(
  maxSize: number,
  tooLarge: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.raw.body
    if (!body) return next()
    // A declared length is refused untouched: the runtime drains a body nobody read.
    const declared = declaredLength(c.req.raw)
    if (declared !== undefined) return declared > maxSize ? tooLarge(c) : next()
    const reader = body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxSize) {
        await discard(reader, size)
        return tooLarge(c)
      }
      chunks.push(value)
    }
    c.req.raw = new Request(c.req.raw, { body: joined(chunks, size) })
    return next()
  }
}

// One limiter per size. Thrown rather than answered here, so app.onError renders the error shape.
const limiters = new Map<number, MiddlewareHandler<AppEnv>>()

function limiterOf(maxSize: number): MiddlewareHandler<AppEnv> {
  let limiter = limiters.get(maxSize)
  if (!limiter) {
    limiter = limitBody(maxSize, () => {
      throw payloadTooLarge(maxSize)
    })
    limiters.set(maxSize, limiter)
  }
  return limiter
}

export const requestBodyLimit: MiddlewareHandler<AppEnv> = (c, next) => {
  const limit = bodyLimitOf(c.req.method, c.req.path)
  if (limit === 'own') return next()
  return limiterOf(limit)(c, next)
}
