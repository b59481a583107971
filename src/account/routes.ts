// DELETE /user/delete-account (soft delete, sessions end), POST /user/sign-out-everywhere (every
// session ends and every destination is unlinked) and POST /auth/recover-account (within 30 days;
// restores the account and signs the user in).
import { createRoute } from '@hono/zod-openapi'
import { currentUser } from '../http/auth.ts'
import { authConfig } from '../auth/config.ts'
import { createDb } from '../db/client.ts'
import { failureBudget, FAILURE_BUDGETS } from '../http/failure-budget.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import { toProfile } from '../users/serialize.ts'
import { createRouter, sessionRoute } from '../http/router.ts'
import { signOutAndDetachEverything } from './destinations.ts'
import { recoverAccount, softDeleteAccount } from './recovery.ts'
import { AccountDeletedSchema, RecoverAccountBody, RecoveredSchema } from './schemas.ts'
import { noticeAfterAnswer } from '../auth/security-notices.ts'

const tags = ['Account']
const limited = errorResponse('Too many requests')

const deleteAccount = sessionRoute({
  method: 'delete',
  path: '/delete-account',
  tags,
  summary: 'Delete the own account (recoverable for 30 days); every session ends',
  middleware: [rateLimit(RULES.deleteAccount)] as const,
  responses: {
    200: json(AccountDeletedSchema, 'Deleted; recoverable until recoverable_until'),
    404: errorResponse('User not found'),
    429: limited,
  },
})

const signOutEverywhere = sessionRoute({
  method: 'post',
  path: '/sign-out-everywhere',
  tags,
  summary: 'End every session, this one too, and unlink every destination',
  description:
    'For an owner who thinks someone else used the account: every session of every browser and ' +
    'client ends, the private calendar feed address stops working, and the Telegram chat, the ' +
    'Discord and Slack channels, the phone number and every push subscription are unlinked, in one batch. ' +
    'Settings and history stay.',
  responses: { 200: json(MessageSchema, 'Signed out everywhere; nothing is linked any more') },
})

const recover = createRoute({
  method: 'post',
  path: '/recover-account',
  tags,
  summary: 'Restore an account deleted less than 30 days ago and sign in',
  // Shares sign-in's counters: both guess the same password, so neither adds to the other.
  middleware: [rateLimit(RULES.signin), failureBudget(FAILURE_BUDGETS.signin)] as const,
  request: {
    ...jsonBody(RecoverAccountBody),
  },
  responses: {
    200: json(RecoveredSchema, 'Restored and signed in'),
    400: errorResponse('Validation failed (message is an array of strings)'),
    401: errorResponse('Invalid credentials'),
    404: errorResponse('Deleted more than 30 days ago'),
    409: errorResponse('The account is not deleted'),
    429: limited,
  },
})

/** Mounted at /user. */
export const accountRoutes = createRouter()
  .openapi(signOutEverywhere, async (c) => {
    await signOutAndDetachEverything(createDb(c.env.DB), currentUser(c).sub, Date.now())
    return c.json({ message: 'Signed out everywhere and every destination unlinked' }, 200)
  })
  .openapi(deleteAccount, async (c) => {
    const now = Date.now()
    const deleted = await softDeleteAccount(createDb(c.env.DB), currentUser(c).sub, now)
    if (!deleted) throw notFound('User not found')
    await noticeAfterAnswer(
      c,
      deleted,
      { kind: 'account-deleted', recoverableUntil: deleted.recoverableUntil },
      now,
    )
    return c.json(
      {
        message: 'Account deleted; it can be recovered within 30 days',
        recoverable_until: toIso(deleted.recoverableUntil),
      },
      200,
    )
  })

/** Mounted at /auth, beside the other sign-in routes. */
export const recoveryRoutes = createRouter().openapi(recover, async (c) => {
  const db = createDb(c.env.DB)
  const { user, tokens } = await recoverAccount(
    db,
    authConfig(c.env),
    c.req.valid('json'),
    Date.now(),
  )
  return c.json(
    { user: toProfile(user), ...tokens, message: 'Account recovered successfully' },
    200,
  )
})
