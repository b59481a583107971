// Sign in with Google on the web: GET /app/google/start begins the API's own flow (state, nonce,
// PKCE) with this app as the client, and GET /app/google/done, the redirect_uri that flow's
// callback sends the browser to, redeems the one-time code for a web session instead of tokens.
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { authConfig } from '../../auth/config.ts'
import { googleConfig } from '../../auth/google-config.ts'
import {
  redeemGoogleSignIn,
  requireGoogle,
  startGoogleSignIn,
  type GoogleError,
} from '../../auth/google-sign-in.ts'
import { createDb } from '../../db/client.ts'
import { claimOnce } from '../../http/limiter.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { browserSecret, knownBrowserSecret } from './cookies.ts'
import { bindingState, boundNext } from './google-binding.ts'
import { safeNext } from './next-path.ts'
import { wordsFor } from './lookup.ts'
import { refusal } from './refusal.ts'
import { signinPage } from './signin-routes.tsx'
import { beginWebSession } from './web-session.ts'

export const GOOGLE_DONE_PATH = '/app/google/done'

/** What the sign-in page says for each reason the flow's callback can give. */
const GOOGLE_ERRORS: Record<GoogleError, string> = {
  access_denied: 'Sign in with Google was cancelled.',
  token_exchange_failed: 'Sign in with Google did not complete. Try again.',
  invalid_id_token: 'Sign in with Google did not complete. Try again.',
  email_not_verified: 'Google has not verified the email address of that Google account.',
  account_not_verified:
    'An account with this email exists but its address is not verified yet. Sign in with the ' +
    'password and enter the emailed code first; then Sign in with Google works too.',
  account_unavailable: 'The account with this email was deleted.',
  google_account_mismatch:
    'The account with this email is linked to a different Google account. Sign in with that ' +
    'Google account, or with the password.',
}
const NOT_THIS_BROWSER =
  'This sign-in was not started in this browser, or it took too long. Start it again.'
const CODE_SPENT = 'This sign-in was already used or took too long. Start it again.'

// Only our own callback sends browsers here, with exactly these parameters. The description is
// for other clients: the page says each reason in its own words.
const DoneQuery = z.strictObject({
  state: z.string().min(1).max(1024),
  code: z.string().min(1).max(256).optional(),
  error: z.string().min(1).max(64).optional(),
  error_description: z.string().max(512).optional(),
})

function refused(c: Context<AppEnv>, message: string, next = '/app/') {
  return signinPage(c, { next, errors: { fields: {}, form: [message] } }, 400)
}

export const googleWebRoutes = createRouter()

googleWebRoutes
  .get('/google/start', rateLimit(RULES.googleStart), async (c) => {
    const google = requireGoogle(googleConfig(c.env))
    const next = safeNext(c.req.query('next'))
    const clientState = await bindingState(c.env, browserSecret(c), next)
    const redirectUri = new URL(GOOGLE_DONE_PATH, google.appOrigin).href
    const url = await startGoogleSignIn(c.env.KV, google, { redirectUri, clientState })
    return c.redirect(url.href, 302)
  })
  .get('/google/done', rateLimit(RULES.googleToken), async (c) => {
    requireGoogle(googleConfig(c.env))
    const query = DoneQuery.safeParse(c.req.query())
    if (!query.success) return refused(c, NOT_THIS_BROWSER)
    // Checked before the code is spent: only the browser that began the flow may finish it.
    const next = await boundNext(c.env, knownBrowserSecret(c), query.data.state)
    if (!next) return refused(c, NOT_THIS_BROWSER)
    const { code, error } = query.data
    if (!code) {
      const reason = wordsFor(GOOGLE_ERRORS, error) ?? GOOGLE_ERRORS.access_denied
      return refused(c, reason, next)
    }
    const now = Date.now()
    try {
      const db = createDb(c.env.DB)
      const config = authConfig(c.env)
      const signedIn = await redeemGoogleSignIn(
        db,
        c.env.KV,
        config,
        code,
        claimOnce(c.env),
        now,
        'web',
      )
      await beginWebSession(c, signedIn, now)
    } catch (failure) {
      refusal(failure, [400, 401])
      return refused(c, CODE_SPENT, next)
    }
    return c.redirect(next === '/app/' ? '/app/?notice=google' : next, 303)
  })
