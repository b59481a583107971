// Renders every failure in the spec's error shape; a 500 never carries a stack or SQL.
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ApiError, statusText } from '../lib/errors.ts'
import { log } from '../lib/log.ts'

/**
 * The 500's log line: which request failed (the path, whose secrets the logger redacts, as
 * Workers Logs keeps no invocation log of ours) and how, with the stack.
 */
export function logRequestFailure(c: Context, err: Error) {
  log.error('request-failed', {
    requestId: c.get('requestId'),
    method: c.req.method,
    path: c.req.path,
    error: err,
    stack: err.stack,
  })
}

export function renderError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json(err.toBody(), err.status as 400)
  // Hono's own exceptions (malformed JSON, body limit) keep their status in our shape.
  if (err instanceof HTTPException && err.status < 500) {
    const body = { statusCode: err.status, message: err.message, error: statusText(err.status) }
    return c.json(body, err.status)
  }
  logRequestFailure(c, err)
  return c.json({ statusCode: 500, message: 'Internal server error', error: statusText(500) }, 500)
}

export function renderNotFound(c: Context): Response {
  const message = `Cannot ${c.req.method} ${new URL(c.req.url).pathname}`
  return c.json({ statusCode: 404, message, error: statusText(404) }, 404)
}
