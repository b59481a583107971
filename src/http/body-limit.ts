// Request body limits: 64 KiB unless a route's valid bodies need more. Runs before any middleware
// reads a body (the rate limiter reads the email), so an oversized body is never parsed.
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
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

function bodyLimitOf(method: string, path: string): number | 'own' {
  return ROUTE_LIMITS[`${method} ${path}`] ?? DEFAULT_BODY_LIMIT
}

// One hono/body-limit per size. It checks Content-Length when given and otherwise counts the
// bytes as they stream in (a chunked body), stopping at the limit rather than buffering it all.
const limiters = new Map<number, MiddlewareHandler<AppEnv>>()

function limiterOf(maxSize: number): MiddlewareHandler<AppEnv> {
  let limiter = limiters.get(maxSize)
  if (!limiter) {
    // Thrown rather than answered here, so app.onError renders the API's error shape.
    limiter = bodyLimit({
      maxSize,
      onError: () => {
        throw payloadTooLarge(maxSize)
      },
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
