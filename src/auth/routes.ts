// Auth endpoints: sign-up with an emailed code, sign-in, token refresh and sign-out, passwords.
import { createRoute } from '@hono/zod-openapi'
import { createDb, type Db } from '../db/client.ts'
import type { UserRow } from '../db/schema.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { authenticate, currentUser } from '../http/auth.ts'
import { unauthorized as unauthorizedError } from '../lib/errors.ts'
import { failureBudget, FAILURE_BUDGETS } from '../http/failure-budget.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { toProfile } from '../users/serialize.ts'
import {
  changePassword,
  forgotPassword,
  refresh,
  resendVerification,
  resetPassword,
  signIn,
  signOut,
  signUp,
  verifyEmail,
  type ProvingSession,
} from './accounts.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { mailCodeIfIssued } from './code-mail.ts'
import { authConfig } from './config.ts'
import { sendCodeEmail } from './emails.ts'
import {
  AuthResultSchema,
  ChangePasswordBody,
  EmailBody,
  RefreshBody,
  ResetPasswordBody,
  SigninBody,
  SignupBody,
  SignupResultSchema,
  VerifyEmailBody,
} from './schemas.ts'
import type { TokenPair } from './sessions.ts'
import { passwordChangedAfterAnswer, type ListDestinationRemovals } from './security-notices.ts'

const tags = ['Auth']
const invalid = errorResponse('Validation failed (message is an array of strings)')
const limited = errorResponse('Too many requests')
const unauthorized = errorResponse('Missing, invalid or expired credentials')

function post<T>(path: string, summary: string, schema: T, responses: Record<number, object>) {
  return { method: 'post' as const, path, tags, summary, request: jsonBody(schema), responses }
}

const signupRoute = createRoute({
  ...post('/signup', 'Create an account; a 6-digit code is emailed to verify it', SignupBody, {
    201: json(SignupResultSchema, 'Account created and signed in'),
    400: invalid,
    409: errorResponse('An account with that email exists'),
    429: limited,
  }),
  middleware: [rateLimit(RULES.signup)] as const,
})

const verifyRoute = createRoute({
  ...post('/verify-email', 'Verify the email with its code; signs the user in', VerifyEmailBody, {
    200: json(AuthResultSchema, 'Verified and signed in'),
    400: errorResponse('Invalid input, or an invalid or expired code'),
    401: errorResponse('An access token was sent but is invalid or expired: refresh, then retry'),
    429: limited,
  }),
  description:
    'Send the access token of the sign-up (`Authorization: Bearer`) with the code: the account ' +
    'then stays as it is. A code sent without it proves the mailbox only, so the account is ' +
    'handed to the prover: every earlier session ends, the password chosen at sign-up stops ' +
    'signing in (set one with forgot-password and reset-password), and linked destinations are ' +
    'removed.',
  // Optional: the code alone is a valid proof, with the consequences above.
  security: [{}, { bearerAuth: [] }] as { [name: string]: string[] }[],
  middleware: [rateLimit(RULES.codeCheck), failureBudget(FAILURE_BUDGETS.codeCheck)] as const,
})

const resendRoute = createRoute({
  ...post('/resend-verification', 'Email a new verification code', EmailBody, {
    200: json(
      MessageSchema,
      'The same answer whether or not an account needs a code; the code is mailed afterwards',
    ),
    400: invalid,
    429: limited,
    503: errorResponse('Email delivery is not configured (the same for every address)'),
  }),
  middleware: [rateLimit(RULES.codeSend)] as const,
})

const signinRoute = createRoute({
  ...post('/signin', 'Sign in with email and password', SigninBody, {
    200: json(AuthResultSchema, 'Signed in'),
    400: invalid,
    401: errorResponse('Invalid credentials'),
    429: limited,
  }),
  middleware: [rateLimit(RULES.signin), failureBudget(FAILURE_BUDGETS.signin)] as const,
})

const refreshRoute = createRoute({
  ...post(
    '/refresh',
    'Exchange a refresh token for a new pair (the old one is spent)',
    RefreshBody,
    {
      200: json(AuthResultSchema, 'A new token pair'),
      400: invalid,
      401: unauthorized,
      429: limited,
    },
  ),
  middleware: [rateLimit(RULES.refresh)] as const,
})

const signoutRoute = signedInRoute({
  method: 'post',
  path: '/signout',
  tags,
  summary: 'End the current session; its refresh token stops working',
  responses: { 200: json(MessageSchema, 'Signed out') },
})

const forgotRoute = createRoute({
  ...post('/forgot-password', 'Email a password reset code', EmailBody, {
    200: json(
      MessageSchema,
      'The same answer whether or not the account exists; the code is mailed afterwards',
    ),
    400: invalid,
    429: limited,
    503: errorResponse('Email delivery is not configured (the same for every address)'),
  }),
  middleware: [rateLimit(RULES.codeSend)] as const,
})

const resetRoute = createRoute({
  ...post(
    '/reset-password',
    'Set a new password with a reset code; ends every session',
    ResetPasswordBody,
    {
      200: json(MessageSchema, 'Password reset'),
      400: errorResponse('Invalid input, or an invalid or expired code'),
      429: limited,
    },
  ),
  middleware: [rateLimit(RULES.codeCheck), failureBudget(FAILURE_BUDGETS.codeCheck)] as const,
})

const changePasswordRoute = signedInRoute({
  method: 'patch',
  path: '/password',
  tags,
  summary: 'Change the password; other sessions end',
  middleware: [rateLimit(RULES.changePassword)] as const,
  request: jsonBody(ChangePasswordBody),
  responses: {
    200: json(MessageSchema, 'Password changed'),
    400: errorResponse('Invalid input or wrong current password'),
    429: limited,
  },
})

const signedIn = (user: UserRow, tokens: TokenPair) => ({ user: toProfile(user), ...tokens })

/**
 * The session a verification comes with, from its bearer token. A token that is sent but fails
 * is refused rather than ignored: taken as a bare proof, it would sign its own account out.
 */
async function provingSession(c: Context<AppEnv>): Promise<ProvingSession | undefined> {
  if (c.req.header('Authorization') === undefined) return undefined
  const claims = await authenticate(c)
  if (!claims) throw unauthorizedError('Invalid or expired access token')
  return { userId: claims.sub, sessionId: claims.sid }
}

export interface AuthRouteDeps {
  /** What a password-changed notice lists: the account feature's, above auth. */
  listDestinations: ListDestinationRemovals
}

export const authRoutes = ({ listDestinations }: AuthRouteDeps) =>
  createRouter()
    .openapi(signupRoute, async (c) => {
      const db = createDb(c.env.DB)
      const result = await signUp(db, authConfig(c.env), c.req.valid('json'), Date.now())
      const { delivery } = await sendCodeEmail(
        c.env,
        result.user,
        'verify_email',
        result.code,
        result.codeExpiresAt,
      )
      return c.json({ ...signedIn(result.user, result.tokens), emailVerification: delivery }, 201)
    })
    .openapi(verifyRoute, async (c) => {
      const db = createDb(c.env.DB)
      const session = await provingSession(c)
      const input = c.req.valid('json')
      const now = Date.now()
      const { user, tokens } = await verifyEmail(db, authConfig(c.env), input, now, 'api', session)
      return c.json(signedIn(user, tokens), 200)
    })
    .openapi(resendRoute, async (c) => {
      const issue = (db: Db, email: string) =>
        resendVerification(db, authConfig(c.env), email, Date.now())
      await mailCodeIfIssued(c, c.req.valid('json').email, 'verify_email', issue)
      const message = 'If an unverified account exists for that email, a new code has been sent'
      return c.json({ message }, 200)
    })
    .openapi(signinRoute, async (c) => {
      const db = createDb(c.env.DB)
      const { user, tokens } = await signIn(db, authConfig(c.env), c.req.valid('json'), Date.now())
      return c.json(signedIn(user, tokens), 200)
    })
    .openapi(refreshRoute, async (c) => {
      const db = createDb(c.env.DB)
      const { refreshToken } = c.req.valid('json')
      const { user, tokens } = await refresh(db, authConfig(c.env), refreshToken, Date.now())
      return c.json(signedIn(user, tokens), 200)
    })
    .openapi(signoutRoute, async (c) => {
      await signOut(createDb(c.env.DB), currentUser(c), Date.now())
      return c.json({ message: 'Signed out successfully' }, 200)
    })
    .openapi(forgotRoute, async (c) => {
      const issue = (db: Db, email: string) =>
        forgotPassword(db, authConfig(c.env), email, Date.now())
      await mailCodeIfIssued(c, c.req.valid('json').email, 'reset_password', issue)
      const message = 'If an account exists for that email, a password reset code has been sent'
      return c.json({ message }, 200)
    })
    .openapi(resetRoute, async (c) => {
      const db = createDb(c.env.DB)
      const now = Date.now()
      const owner = await resetPassword(db, authConfig(c.env), c.req.valid('json'), now)
      await passwordChangedAfterAnswer(c, owner, listDestinations, now)
      return c.json({ message: 'Password reset successfully' }, 200)
    })
    .openapi(changePasswordRoute, async (c) => {
      const db = createDb(c.env.DB)
      const now = Date.now()
      const owner = await changePassword(db, currentUser(c), c.req.valid('json'), now)
      await passwordChangedAfterAnswer(c, owner, listDestinations, now)
      return c.json({ message: 'Password changed successfully' }, 200)
    })
