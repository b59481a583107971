// Which account a verified Google identity signs in to (found, created, or refused), and the
// session that a redeemed sign-in opens: the same session and tokens as POST /auth/signin.
import type { Db } from '../db/client.ts'
import { unauthorized } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { hashPassword, randomToken } from '../lib/crypto.ts'
import { markEmailProvenStatement } from '../users/credentials.ts'
import {
  findUserByGoogleSubject,
  isDuplicateGoogleSubjectError,
  linkGoogleSubject,
  linkGoogleSubjectStatement,
} from '../users/google-subject.ts'
import {
  createUserStatements,
  findUser,
  findUserByEmail,
  isDuplicateEmailError,
  isEmailTaken,
  recordSignInStatement,
} from '../users/queries.ts'
import { writeThenRead, type SignedIn } from './accounts.ts'
import type { AuthConfig } from './config.ts'
import type { GoogleIdentity } from './google-id-token.ts'
import { openSession, type SessionKind } from './sessions.ts'

/** Why a Google identity was refused, as the client's redirect says it (`error=<reason>`). */
export type GoogleRefusal =
  'email_not_verified' | 'account_not_verified' | 'account_unavailable' | 'google_account_mismatch'

export type GoogleAccount = { userId: string } | { refused: GoogleRefusal }

const MAX_NAME = 100

function nameOf(identity: GoogleIdentity): string {
  const name = (identity.name ?? '').trim() || identity.email.split('@')[0]
  return name.padEnd(2, '.').slice(0, MAX_NAME)
}

/**
 * An account made by Google sign-in. Its password hash is of a random secret nobody knows, so a
 * password sign-in is impossible until a reset; Google proved the address, so it is verified (and
 * a bootstrap address earns its role, as a mailed code would).
 */
async function createAccount(db: Db, config: AuthConfig, identity: GoogleIdentity, now: number) {
  const id = newId(now)
  const newUser = {
    id,
    email: identity.email,
    name: nameOf(identity),
    passwordHash: await hashPassword(randomToken()),
    role: 'user',
  } as const
  const bootstrap = config.bootstrapAdmins.includes(identity.email)
  await writeThenRead(db, id, [
    ...createUserStatements(db, newUser, now),
    markEmailProvenStatement(db, id, bootstrap, now),
    linkGoogleSubjectStatement(db, id, identity.sub, now),
  ])
  return id
}

/**
 * The account of an identity whose Google account (`sub`) is linked to none: the one with its
 * address, linked now, or a new one. Only an address Google has verified counts, and it reaches
 * an existing account only when that account proved the same address (an unverified account may
 * have been registered by someone else, who would otherwise share it with the owner) and no other
 * Google account is linked to it (whoever holds the address at Google now is not the one who
 * signed in before: an address can be given up and handed on).
 */
async function accountByEmail(
  db: Db,
  config: AuthConfig,
  identity: GoogleIdentity,
  now: number,
): Promise<GoogleAccount> {
  if (!identity.emailVerified) return { refused: 'email_not_verified' }
  const found = await findUserByEmail(db, identity.email)
  if (found) {
    if (found.emailVerifiedAt == null) return { refused: 'account_not_verified' }
    if (found.googleSubject != null) return { refused: 'google_account_mismatch' }
    if (await linkGoogleSubject(db, found.id, identity.sub, now)) return { userId: found.id }
    // Since it was read, another Google account was linked to it, or it was deleted.
    const still = await findUser(db, found.id)
    return { refused: still ? 'google_account_mismatch' : 'account_unavailable' }
  }
  // A soft-deleted account keeps its address until it is purged; recovery is by password.
  if (await isEmailTaken(db, identity.email)) return { refused: 'account_unavailable' }
  return { userId: await createAccount(db, config, identity, now) }
}

/**
 * The account the Google account `sub` is linked to, else the one its address reaches (linked at
 * this first sign-in). By the subject first, so a changed address at Google still signs in to the
 * same account; the address is Google's word only when it links. A soft-deleted account keeps its
 * subject, as its address, until it is purged.
 */
async function judge(
  db: Db,
  config: AuthConfig,
  identity: GoogleIdentity,
  now: number,
): Promise<GoogleAccount> {
  const linked = await findUserByGoogleSubject(db, identity.sub)
  if (linked) {
    return linked.deletedAt == null ? { userId: linked.id } : { refused: 'account_unavailable' }
  }
  return accountByEmail(db, config, identity, now)
}

/** The account a Google identity signs in to, or why it signs in to none. */
export async function accountForGoogle(
  db: Db,
  config: AuthConfig,
  identity: GoogleIdentity,
  now: number,
): Promise<GoogleAccount> {
  try {
    return await judge(db, config, identity, now)
  } catch (error) {
    if (!isDuplicateEmailError(error) && !isDuplicateGoogleSubjectError(error)) throw error
    // Another request created or linked an account meanwhile: judge again, by the same rules.
    return judge(db, config, identity, now)
  }
}

/** Opens the session of a redeemed Google sign-in, exactly as a password sign-in does. */
export async function openGoogleSession(
  db: Db,
  config: AuthConfig,
  userId: string,
  now: number,
  kind: SessionKind = 'api',
): Promise<SignedIn> {
  const found = await findUser(db, userId)
  if (!found) throw unauthorized()
  const session = await openSession(db, config.jwt, found, now, kind)
  const user = await writeThenRead(db, found.id, [
    session.statement,
    recordSignInStatement(db, found.id, now),
  ])
  return { user, tokens: session.tokens }
}
