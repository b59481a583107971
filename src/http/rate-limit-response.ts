// How a limit shows in the answer: the X-RateLimit headers of the tightest counter, or a 429
// with Retry-After. Shared by the windows, the token buckets and the failure budgets.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { tooManyRequests } from '../lib/errors.ts'
import type { WindowResult } from '../ports/rate-limiter.ts'

/** The result the headers report: the one closest to refusing. */
export function tightest(results: WindowResult[]): WindowResult {
  return results.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.reset > a.reset) ? b : a,
  )
}

function setHeaders(headers: Headers, result: WindowResult) {
  headers.set('X-RateLimit-Limit', String(result.limit))
  headers.set('X-RateLimit-Remaining', String(result.remaining))
  headers.set('X-RateLimit-Reset', String(result.reset))
}

/** Adds the headers to the response unless an inner limiter already reported a tighter one. */
export function report(c: Context<AppEnv>, result: WindowResult) {
  const current = c.res.headers.get('X-RateLimit-Remaining')
  if (current !== null && Number(current) <= result.remaining) return
  try {
    setHeaders(c.res.headers, result)
  } catch {
    // Headers of a response taken from elsewhere can be immutable; copy it once.
    c.res = new Response(c.res.body, c.res)
    setHeaders(c.res.headers, result)
  }
}

export function refuse(c: Context<AppEnv>, results: WindowResult[]): Response {
  // The client must wait for every refusing window, so the latest reset is the one to report.
  const refused = results.filter((r) => !r.allowed).reduce((a, b) => (b.reset > a.reset ? b : a))
  // Through c.json, so the CORS and request-id headers set earlier are kept: a browser must be
  // able to read the 429 and its Retry-After.
  c.header('X-RateLimit-Limit', String(refused.limit))
  c.header('X-RateLimit-Remaining', String(refused.remaining))
  c.header('X-RateLimit-Reset', String(refused.reset))
  // A token bucket lets the next request through before it is full again (its reset).
  const retryAt = refused.retryAt ?? refused.reset
  c.header('Retry-After', String(Math.max(1, Math.ceil(retryAt - Date.now() / 1000))))
  return c.json(tooManyRequests().toBody(), 429)
}

export async function enforce(
  c: Context<AppEnv>,
  results: WindowResult[],
  next: () => Promise<void>,
): Promise<Response | void> {
  if (results.length === 0) return next()
  if (results.some((r) => !r.allowed)) return refuse(c, results)
  await next()
  report(c, tightest(results))
}
