// Routers and guarded route declarations. Every router comes from createRouter, so each carries
// the validation hook (a 400 in the API's error shape); signedInRoute, sessionRoute and adminRoute
// declare the guard, the bearer security requirement and the 401/403 answers once for all routes.
import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { badRequest } from '../lib/errors.ts'
import { errorResponse } from '../lib/openapi.ts'
import { validationMessages } from '../lib/validation.ts'
import { adminGuard, requireSession, requireUser } from './auth.ts'

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw badRequest(validationMessages(result.error))
    },
  })
}

const BEARER = [{ bearerAuth: [] }]
const UNAUTHORIZED = errorResponse(
  'Missing, invalid or expired access token, or a session that has ended',
)

type Middleware = MiddlewareHandler<AppEnv>

const asList = (middleware: RouteConfig['middleware']): Middleware[] =>
  middleware === undefined
    ? []
    : Array.isArray(middleware)
      ? [...middleware]
      : [middleware as Middleware]

function guarded<R extends RouteConfig>(guard: Middleware, route: R, forbidden?: object) {
  const { middleware, responses, ...rest } = route
  return createRoute({
    ...rest,
    security: BEARER,
    // The guard first: a route's own limits and budgets count only callers it lets through.
    middleware: [guard, ...asList(middleware)],
    responses: { ...responses, 401: UNAUTHORIZED, ...(forbidden && { 403: forbidden }) },
  })
}

/**
 * A valid access token of a live session (the contest API): a token whose user no longer exists
 * gets the spec's 404 `User not found`, any other ended session 401.
 */
export const signedInRoute = <R extends RouteConfig>(route: R) => guarded(requireUser, route)

/** A valid access token of a live session (the second API area: 401 whenever it has ended). */
export const sessionRoute = <R extends RouteConfig>(route: R) => guarded(requireSession, route)

/** Admins only: 403 from the role claim, then the admin's session and role confirmed live. */
export const adminRoute = <R extends RouteConfig>(route: R, forbiddenMessage?: string) =>
  guarded(
    adminGuard(forbiddenMessage),
    route,
    errorResponse(forbiddenMessage ?? 'The caller is not an admin'),
  )
