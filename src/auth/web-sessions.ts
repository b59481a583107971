// The web app's cookie sessions: rows of `sessions` of kind 'web', found by the SHA-256 of the
// cookie's secret and only while live, so they end with every revocation API sessions end with.
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sessions, type UserRow } from '../db/schema.ts'
import { sha256Hex } from '../lib/crypto.ts'
import type { Role } from '../lib/jwt.ts'
import { findUser } from '../users/queries.ts'
import type { SignedIn } from './accounts.ts'
import { revokeSession, SESSION_TTL_MS } from './sessions.ts'

/** A live web session and its user, as the web app's pages see them. */
export interface WebSession {
  id: string
  /** The role the session began with (a demotion revokes it; a promotion waits for a sign-in). */
  role: Role
  expiresAt: number
  user: UserRow
}

/** What a browser keeps of a sign-in opened with kind 'web': the secret and when it ends. */
export function webSessionCookie(signedIn: SignedIn, now: number) {
  // For a web session the "refresh token" is the cookie's secret; nothing ever rotates it.
  return { secret: signedIn.tokens.refreshToken, expiresAt: now + SESSION_TTL_MS }
}

/** The live web session whose cookie holds `secret`, with its user (who is not deleted). */
export async function findWebSession(
  db: Db,
  secret: string,
  now: number,
): Promise<WebSession | undefined> {
  const session = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      role: sessions.role,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.refreshHash, await sha256Hex(secret)),
        eq(sessions.kind, 'web'),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .get()
  if (!session) return undefined
  // findUser reads live users only: a deleted account's session opens nothing.
  const user = await findUser(db, session.userId)
  if (!user) return undefined
  return { id: session.id, role: session.role, expiresAt: session.expiresAt, user }
}

/** Sign-out of the web app: the session ends for good, whoever holds a copy of the cookie. */
export async function endWebSession(db: Db, sessionId: string, now: number) {
  await revokeSession(db, sessionId, now)
}
