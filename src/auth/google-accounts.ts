// Which account a verified Google identity signs in to (found, created, or refused), and the
// session that a redeemed sign-in opens: the same session and tokens as POST /auth/signin.
import type { Db } from '../db/client.ts'
import { unauthorized } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { hashPassword, randomToken } from '../lib/crypto.ts'
import { markEmailProvenStatement } from '../users/credentials.ts'
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
export type GoogleRefusal = 'email_not_verified' | 'account_not_verified' | 'account_unavailable'

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
  ])
  return id
}

/**
 * The account a Google identity signs in to. Only an address Google has verified counts, and it
 * reaches an existing account only when that account proved the same address: an unverified
 * account may have been registered by someone else, who would otherwise share it with the owner.
 */
export async function accountForGoogle(
  db: Db,
  config: AuthConfig,
  identity: GoogleIdentity,
  now: number,
): Promise<GoogleAccount> {
  if (!identity.emailVerified) return { refused: 'email_not_verified' }
  const found = await findUserByEmail(db, identity.email)
  if (found) {
    if (found.emailVerifiedAt == null) return { refused: 'account_not_verified' }
    return { userId: found.id }
  }
  // A soft-deleted account keeps its address until it is purged; recovery is by password.
  if (await isEmailTaken(db, identity.email)) return { refused: 'account_unavailable' }
  try {
    return { userId: await createAccount(db, config, identity, now) }
  } catch (error) {
    if (!isDuplicateEmailError(error)) throw error
    // Another request created the account meanwhile: judge that one by the same rules.
    const raced = await findUserByEmail(db, identity.email)
    if (!raced || raced.emailVerifiedAt == null) return { refused: 'account_not_verified' }
    return { userId: raced.id }
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
