// Self-deletion of an account as a soft delete, and its recovery within 30 days: plain functions
// of (db, input, now). Recovery proves the password, so it also signs the user in.
import { INVALID_CREDENTIALS, type SignedIn } from '../auth/accounts.ts'
import type { AuthConfig } from '../auth/config.ts'
import { openSession, revokeUserSessionsStatement, type SessionKind } from '../auth/sessions.ts'
import { releaseUserCommunitiesStatements } from '../communities/deletion.ts'
import type { Db } from '../db/client.ts'
import { burnPasswordCheck, verifyPassword } from '../lib/crypto.ts'
import { conflict, notFound, unauthorized } from '../lib/errors.ts'
import { DAY_MS } from '../lib/time.ts'
import { releaseUserHandlesStatements } from '../results/deletion.ts'
import { findUserStatement, recordSignInStatement } from '../users/queries.ts'
import { findAnyUserByEmail, markDeletedStatement, restoreStatement } from '../users/soft-delete.ts'

export const RECOVERY_PERIOD_MS = 30 * DAY_MS
export const RECOVERY_EXPIRED =
  'The 30-day recovery period has ended; the account can no longer be recovered'

/**
 * Marks the account deleted, ends every session of it and releases the communities it claimed and
 * the handles it proved, in one batch; returns until when it can be recovered and whom to tell.
 * Undefined when no live account has that id (deleted already, or never existed).
 */
export async function softDeleteAccount(db: Db, userId: string, now: number) {
  const [[marked]] = await db.batch([
    markDeletedStatement(db, userId, now),
    revokeUserSessionsStatement(db, userId, now),
    ...releaseUserCommunitiesStatements(db, userId),
    ...releaseUserHandlesStatements(db, userId, now),
  ])
  if (!marked) return undefined
  const { email, name, emailVerifiedAt } = marked
  return {
    recoverableUntil: now + RECOVERY_PERIOD_MS,
    email,
    name,
    proven: emailVerifiedAt != null,
  }
}

/**
 * Restores a soft-deleted account and opens a session, as a sign-in would. The password is
 * checked before anything about the account is told, so the answers reveal nothing to a caller
 * who does not know it: an unknown email or a wrong password are both 401 Invalid credentials.
 * `kind` 'web' opens the web app's cookie session instead of an API client's.
 */
export async function recoverAccount(
  db: Db,
  config: AuthConfig,
  input: { email: string; password: string },
  now: number,
  kind: SessionKind = 'api',
): Promise<SignedIn> {
  const found = await findAnyUserByEmail(db, input.email)
  if (!found) {
    await burnPasswordCheck(input.password)
    throw unauthorized(INVALID_CREDENTIALS)
  }
  if (!(await verifyPassword(input.password, found.passwordHash)).ok) {
    throw unauthorized(INVALID_CREDENTIALS)
  }
  if (found.deletedAt == null) throw conflict('Account is not deleted; sign in instead')
  if (now - found.deletedAt >= RECOVERY_PERIOD_MS) throw notFound(RECOVERY_EXPIRED)

  const session = await openSession(db, config.jwt, found, now, kind)
  const results = await db.batch([
    restoreStatement(db, found.id, found.deletedAt, now),
    session.statement,
    recordSignInStatement(db, found.id, now),
    findUserStatement(db, found.id),
  ])
  const [user] = results[3]
  // Deleted again between the check and the batch: nothing to sign in to.
  if (!user) throw unauthorized(INVALID_CREDENTIALS)
  return { user, tokens: session.tokens }
}
