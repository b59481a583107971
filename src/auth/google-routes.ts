// Sign in with Google for API clients: start (302 to Google), Google's callback (302 to the
// client with a one-time code) and the exchange of that code for the sign-in's tokens.
import { createRoute } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { createRouter } from '../http/router.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { toProfile } from '../users/serialize.ts'
import { authConfig } from './config.ts'
import { googleConfig } from './google-config.ts'
import { GoogleCallbackQuery, GoogleStartQuery, GoogleTokenBody } from './google-schemas.ts'
import {
  finishGoogleSignIn,
  redeemGoogleSignIn,
  requireGoogle,
  startGoogleSignIn,
} from './google-sign-in.ts'
import { AuthResultSchema } from './schemas.ts'
import { claimOnce } from '../http/limiter.ts'

const tags = ['Auth']
const limited = errorResponse('Too many requests')
const notConfigured = errorResponse('Sign in with Google is not configured')
const redirect = (description: string) => ({
  description,
  headers: { Location: { schema: { type: 'string' as const } } },
})

const startRoute = createRoute({
  method: 'get',
  path: '/google/start',
  tags,
  summary: 'Begin Sign in with Google; redirects the browser to Google',
  middleware: [rateLimit(RULES.googleStart)] as const,
  request: { query: GoogleStartQuery },
  responses: {
    302: redirect("To Google's authorization page (state, nonce, PKCE S256)"),
    400: errorResponse('Invalid input, or a redirect_uri that is not an allowed client URL'),
    429: limited,
    503: notConfigured,
  },
})

const callbackRoute = createRoute({
  method: 'get',
  path: '/google/callback',
  tags,
  summary: "Google's redirect back; sends the browser on to the client with a one-time code",
  middleware: [rateLimit(RULES.googleCallback)] as const,
  request: { query: GoogleCallbackQuery },
  responses: {
    302: redirect(
      "To the client's redirect_uri with `code`, or `error=<reason>` and `error_description`",
    ),
    400: errorResponse('Invalid input, or an unknown, expired or already used state'),
    429: limited,
    503: notConfigured,
  },
})

const tokenRoute = createRoute({
  method: 'post',
  path: '/google/token',
  tags,
  summary: "Exchange the one-time code of a Google sign-in for the sign-in's tokens",
  middleware: [rateLimit(RULES.googleToken)] as const,
  request: jsonBody(GoogleTokenBody),
  responses: {
    200: json(AuthResultSchema, 'Signed in (the same answer as POST /auth/signin)'),
    400: errorResponse('Invalid input, or an invalid, expired or already used code'),
    401: errorResponse('The account was deleted after the sign-in'),
    429: limited,
    503: notConfigured,
  },
})

export const googleRoutes = createRouter()

googleRoutes
  .openapi(startRoute, async (c) => {
    const google = requireGoogle(googleConfig(c.env))
    const query = c.req.valid('query')
    const input = { redirectUri: query.redirect_uri, clientState: query.state }
    const url = await startGoogleSignIn(c.env.KV, google, input)
    return c.redirect(url.href, 302)
  })
  .openapi(callbackRoute, async (c) => {
    const google = requireGoogle(googleConfig(c.env))
    const config = { auth: authConfig(c.env), google }
    const db = createDb(c.env.DB)
    const query = c.req.valid('query')
    const url = await finishGoogleSignIn(db, c.env.KV, config, query, claimOnce(c.env), Date.now())
    return c.redirect(url.href, 302)
  })
  .openapi(tokenRoute, async (c) => {
    requireGoogle(googleConfig(c.env))
    const db = createDb(c.env.DB)
    const { code } = c.req.valid('json')
    const { user, tokens } = await redeemGoogleSignIn(
      db,
      c.env.KV,
      authConfig(c.env),
      code,
      claimOnce(c.env),
      Date.now(),
    )
    return c.json({ user: toProfile(user), ...tokens }, 200)
  })
