// Account operations behind the auth endpoints: plain functions of (db, config, input, now).
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import type { UserRow } from '../db/schema.ts'
import { badRequest, conflict, notFound, unauthorized } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { burnPasswordCheck, hashPassword, verifyPassword } from '../lib/crypto.ts'
import type { AccessClaims } from '../lib/jwt.ts'
import {
  isPasswordUnset,
  markEmailProvenStatement,
  rehashPasswordStatement,
  setPasswordHashStatement,
  UNSET_PASSWORD_HASH,
} from '../users/credentials.ts'
import { detachDestinationsStatements } from '../users/destinations.ts'
import {
  createUserStatements,
  findUser,
  findUserByEmail,
  findUserStatement,
  isDuplicateEmailError,
  isEmailTaken,
  recordSignInStatement,
} from '../users/queries.ts'
import { consumeCode, newCode, type CodePurpose } from './codes.ts'
import type { AuthConfig } from './config.ts'
import {
  isSessionLive,
  openSession,
  revokeSession,
  revokeUserSessionsStatement,
  rotateRefreshToken,
  type SessionKind,
  type TokenPair,
} from './sessions.ts'

type Statement = BatchItem<'sqlite'>

export const INVALID_CREDENTIALS = 'Invalid credentials'
export const EMAIL_TAKEN = 'User with this email already exists'
const INVALID_CODE = 'Invalid or expired code'

export interface SignedIn {
  user: UserRow
  tokens: TokenPair
}

export interface IssuedCode {
  user: UserRow
  code: string
  expiresAt: number
}

/** Runs the statements and the final read of the user in one batch; returns that user. */
export async function writeThenRead(
  db: Db,
  userId: string,
  statements: Statement[],
): Promise<UserRow> {
  const all: Statement[] = [...statements, findUserStatement(db, userId) as Statement]
  const results = await db.batch(all as [Statement, ...Statement[]])
  return (results.at(-1) as UserRow[])[0]
}

export async function signUp(
  db: Db,
  config: AuthConfig,
  input: { email: string; password: string; name: string; phoneNumber?: string; timezone?: string },
  now: number,
  kind: SessionKind = 'api',
): Promise<SignedIn & { code: string; codeExpiresAt: number }> {
  // Checked before hashing so a duplicate costs no PBKDF2; the unique index settles races.
  if (await isEmailTaken(db, input.email)) throw conflict(EMAIL_TAKEN)

  const id = newId(now)
  // Never admin at sign-up, even for a bootstrap address: see proveAddress.
  const role = 'user'
  const passwordHash = await hashPassword(input.password)
  const code = await newCode(db, await config.codeKey, id, 'verify_email', now)
  const session = await openSession(db, config.jwt, { id, role }, now, kind)
  const newUser = { id, email: input.email, name: input.name, passwordHash, role } as const
  try {
    const user = await writeThenRead(db, id, [
      ...createUserStatements(
        db,
        { ...newUser, phoneNumber: input.phoneNumber, timezone: input.timezone },
        now,
      ),
      code.statement,
      session.statement,
      recordSignInStatement(db, id, now),
    ])
    return { user, tokens: session.tokens, code: code.code, codeExpiresAt: code.expiresAt }
  } catch (error) {
    if (isDuplicateEmailError(error)) throw conflict(EMAIL_TAKEN)
    throw error
  }
}

/** Deactivated accounts may sign in (to reactivate); soft-deleted ones may not. */
export async function signIn(
  db: Db,
  config: AuthConfig,
  input: { email: string; password: string },
  now: number,
  kind: SessionKind = 'api',
): Promise<SignedIn> {
  const found = await findUserByEmail(db, input.email)
  if (!found) {
    await burnPasswordCheck(input.password)
    throw unauthorized(INVALID_CREDENTIALS)
  }
  // An unset password matches nothing, in the time a wrong one takes.
  const check = isPasswordUnset(found)
    ? await burnPasswordCheck(input.password).then(() => ({ ok: false, needsRehash: false }))
    : await verifyPassword(input.password, found.passwordHash)
  if (!check.ok) throw unauthorized(INVALID_CREDENTIALS)

  const session = await openSession(db, config.jwt, found, now, kind)
  const statements: Statement[] = [session.statement, recordSignInStatement(db, found.id, now)]
  if (check.needsRehash) {
    const passwordHash = await hashPassword(input.password)
    statements.push(rehashPasswordStatement(db, found.id, passwordHash))
  }
  const user = await writeThenRead(db, found.id, statements)
  return { user, tokens: session.tokens }
}

export async function refresh(db: Db, config: AuthConfig, refreshToken: string, now: number) {
  const { session, tokens } = await rotateRefreshToken(db, config.jwt, refreshToken, now)
  const user = await findUser(db, session.userId)
  if (!user) throw unauthorized()
  return { user, tokens }
}

export async function signOut(db: Db, claims: AccessClaims, now: number) {
  await revokeSession(db, claims.sid, now)
}

/**
 * Whether proving this user's address now grants the bootstrap admin role: the address is in
 * BOOTSTRAP_ADMIN_EMAILS and its owner is not settled yet (see markEmailProvenStatement). Never at
 * sign-up, where whoever came first with that address (a fresh deployment, or after the account
 * was purged) would own the service; and only once, so an admin's later demotion of that account
 * sticks. Callers grant it only for a proof that comes with the sign-up's session, a reset, or a
 * first password chosen after a bare proof: all three leave the account to the mailbox's holder.
 */
function earnsBootstrapRole(config: AuthConfig, user: UserRow): boolean {
  const unsettled = user.emailVerifiedAt == null || isPasswordUnset(user)
  return unsettled && config.bootstrapAdmins.includes(user.email)
}

/** The write that marks the address proven (by a mailed code), with the bootstrap role it earns. */
function proveAddress(db: Db, config: AuthConfig, user: UserRow, now: number) {
  return markEmailProvenStatement(db, user.id, earnsBootstrapRole(config, user), now)
}

/** The session a verification came with: an access token's claims, or a web session. */
export interface ProvingSession {
  userId: string
  sessionId: string
}

/** Whether the code came with a live session of the account itself (the sign-up's, typically). */
async function comesWithOwnSession(
  db: Db,
  user: UserRow,
  session: ProvingSession | undefined,
  now: number,
): Promise<boolean> {
  return session?.userId === user.id && (await isSessionLive(db, session.sessionId, now))
}

/**
 * A successful verification signs the user in (a new session), as the spec's release notes say.
 *
 * With a session of the account (the one that signed up), nothing else changes. Without one, the
 * prover holds the mailbox but not necessarily the password: whoever signed up may have used
 * someone else's address. So a bare proof hands the account to the prover alone: every earlier
 * session ends, the password chosen at sign-up stops working (the owner sets one by a reset, or on
 * the web app's next page), whatever was attached is detached, and no bootstrap role is granted
 * until that password is chosen.
 */
export async function verifyEmail(
  db: Db,
  config: AuthConfig,
  input: { email: string; code: string },
  now: number,
  kind: SessionKind = 'api',
  session?: ProvingSession,
): Promise<SignedIn & { passwordUnset: boolean }> {
  const found = await findUserByEmail(db, input.email)
  const key = await config.codeKey
  if (!found || !(await consumeCode(db, key, found.id, 'verify_email', input.code, now))) {
    throw badRequest(INVALID_CODE)
  }
  if (await comesWithOwnSession(db, found, session, now)) {
    // The session opened here already carries the bootstrap role the proof earns.
    const role = earnsBootstrapRole(config, found) ? 'admin' : found.role
    const opened = await openSession(db, config.jwt, { id: found.id, role }, now, kind)
    const user = await writeThenRead(db, found.id, [
      proveAddress(db, config, found, now),
      opened.statement,
      recordSignInStatement(db, found.id, now),
    ])
    return { user, tokens: opened.tokens, passwordUnset: false }
  }
  const opened = await openSession(db, config.jwt, found, now, kind)
  const user = await writeThenRead(db, found.id, [
    revokeUserSessionsStatement(db, found.id, now),
    markEmailProvenStatement(db, found.id, false, now),
    setPasswordHashStatement(db, found.id, UNSET_PASSWORD_HASH, now),
    ...detachDestinationsStatements(db, found.id, now),
    opened.statement,
    recordSignInStatement(db, found.id, now),
  ])
  return { user, tokens: opened.tokens, passwordUnset: true }
}

async function issueCode(
  db: Db,
  config: AuthConfig,
  user: UserRow,
  purpose: CodePurpose,
  now: number,
): Promise<IssuedCode> {
  const code = await newCode(db, await config.codeKey, user.id, purpose, now)
  await code.statement
  return { user, code: code.code, expiresAt: code.expiresAt }
}

/** A new verification code, or undefined when there is no unverified account to send it to. */
export async function resendVerification(db: Db, config: AuthConfig, email: string, now: number) {
  const user = await findUserByEmail(db, email)
  if (!user || user.emailVerifiedAt != null) return undefined
  return issueCode(db, config, user, 'verify_email', now)
}

/** A password reset code, or undefined when no account has that email. */
export async function forgotPassword(db: Db, config: AuthConfig, email: string, now: number) {
  const user = await findUserByEmail(db, email)
  if (!user) return undefined
  return issueCode(db, config, user, 'reset_password', now)
}

/**
 * Sets a new password with a mailed code. Every session ends: whoever asked for the reset may be
 * locking out someone who knew the old password. The code proves the address, so it is verified
 * (and a bootstrap address earns its role, which the next sign-in carries). Returns whom to tell.
 */
export async function resetPassword(
  db: Db,
  config: AuthConfig,
  input: { email: string; code: string; newPassword: string },
  now: number,
) {
  const user = await findUserByEmail(db, input.email)
  const key = await config.codeKey
  if (!user || !(await consumeCode(db, key, user.id, 'reset_password', input.code, now))) {
    throw badRequest(INVALID_CODE)
  }
  const passwordHash = await hashPassword(input.newPassword)
  await db.batch([
    proveAddress(db, config, user, now),
    setPasswordHashStatement(db, user.id, passwordHash, now),
    revokeUserSessionsStatement(db, user.id, now),
  ])
  return { userId: user.id, email: user.email, name: user.name, proven: true }
}

/**
 * Changes the password of the signed-in user; their other sessions end, this one stays. Returns
 * whom to tell.
 */
export async function changePassword(
  db: Db,
  claims: AccessClaims,
  input: { currentPassword: string; newPassword: string },
  now: number,
) {
  const user = await findUser(db, claims.sub)
  if (!user) throw notFound('User not found')
  const check = await verifyPassword(input.currentPassword, user.passwordHash)
  if (!check.ok) throw badRequest('Current password is incorrect')
  if (input.newPassword === input.currentPassword) {
    throw badRequest('New password must be different from the current password')
  }
  const passwordHash = await hashPassword(input.newPassword)
  await db.batch([
    setPasswordHashStatement(db, user.id, passwordHash, now),
    revokeUserSessionsStatement(db, user.id, now, claims.sid),
  ])
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    proven: user.emailVerifiedAt != null,
  }
}

/**
 * The first password of an account whose password a bare proof took away, chosen in the session
 * that proof opened (the web app asks right after it). It settles the owner, as a reset would: a
 * bootstrap address earns its role, which the next sign-in carries, and other sessions end.
 */
export async function chooseFirstPassword(
  db: Db,
  config: AuthConfig,
  session: ProvingSession,
  newPassword: string,
  now: number,
) {
  const user = await findUser(db, session.userId)
  if (!user) throw notFound('User not found')
  if (!isPasswordUnset(user)) throw badRequest('This account already has a password')
  const passwordHash = await hashPassword(newPassword)
  await db.batch([
    proveAddress(db, config, user, now),
    setPasswordHashStatement(db, user.id, passwordHash, now),
    revokeUserSessionsStatement(db, user.id, now, session.sessionId),
  ])
  return { email: user.email, name: user.name, proven: true }
}
