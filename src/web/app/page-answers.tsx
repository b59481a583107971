// How the web app answers what is not a page of its own: a refused CSRF check (403), a limit
// (429), an error thrown below (the API's ApiError, as a page), an unexpected failure (500).
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { ApiError } from '../../lib/errors.ts'
import { log } from '../../lib/log.ts'
import { PRIVATE_PAGE_HEADERS } from '../page-headers.ts'
import { MessagePage, type MessagePageProps } from './message-page.tsx'

/**
 * Every answer under /app: the pages' CSP, and never stored by any cache (forms carry a token,
 * pages show who is signed in). Set before the route runs, so redirects and error pages get them.
 */
export const appPageHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  for (const [name, value] of Object.entries(PRIVATE_PAGE_HEADERS)) c.header(name, value)
  await next()
}

export async function messagePage(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  page: MessagePageProps,
): Promise<Response> {
  return c.html(<MessagePage {...page} />, status)
}

/** The answer to a POST that failed the CSRF check (csrf.ts). */
export function csrfRefused(c: Context<AppEnv>) {
  return messagePage(c, 403, {
    title: 'This form was refused',
    message:
      'The form was sent without a valid security token, or from another site. Nothing was ' +
      'changed. Go back, reload the page and send it again.',
  })
}

/**
 * The rate limits answer in the API's JSON (http/rate-limit-response.ts); a person's browser (it
 * asks for HTML) gets a page, with the same Retry-After and X-RateLimit headers. A page's script
 * that asked for JSON keeps the JSON.
 */
export const limitsAsPages: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  const type = c.res.headers.get('Content-Type') ?? ''
  const wantsPage = (c.req.header('Accept') ?? '').includes('text/html')
  if (c.res.status !== 429 || !type.includes('json') || !wantsPage) return
  const when = retryWords(c.res.headers.get('Retry-After'))
  // Setting c.res keeps the refusal's headers (Retry-After, X-RateLimit-*), all but its type.
  c.res = await messagePage(c, 429, {
    title: 'Too many attempts',
    message: `Too many requests from here for now. Try again ${when}.`,
  })
}

function retryWords(retryAfter: string | null): string {
  const seconds = Number(retryAfter)
  if (!Number.isFinite(seconds) || seconds <= 0) return 'later'
  const minutes = Math.ceil(seconds / 60)
  return minutes <= 1 ? 'in a minute' : `in ${minutes} minutes`
}

const TITLES: Record<number, string> = {
  400: 'This request could not be used',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'This conflicts with what is stored',
  413: 'Too much was sent',
  429: 'Too many attempts',
  503: 'Not available right now',
}

/**
 * The web app's error handler: an ApiError thrown by the functions below (a limiter's 503, a 413
 * body, a refusal) becomes a page with its message; anything else is logged and answered 500
 * without detail, as the API does.
 */
export const renderPageError: ErrorHandler<AppEnv> = (err, c) => {
  const status =
    err instanceof ApiError ? err.status : err instanceof HTTPException ? err.status : 500
  if (status < 500 || err instanceof ApiError) {
    const code = status as ContentfulStatusCode
    return messagePage(c, code, {
      title: TITLES[code] ?? 'Something went wrong',
      message: err.message,
    })
  }
  log.error('request-failed', { requestId: c.get('requestId'), error: err, stack: err.stack })
  return messagePage(c, 500, {
    title: 'Something went wrong',
    message: 'The page could not be shown because of an error on our side. Try again shortly.',
  })
}
