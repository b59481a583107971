// Sessions: one per sign-in, holding only the SHA-256 of its refresh token, rotated on every use.
import { and, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm'
import type { SessionChecks } from '../app-env.ts'
import { createDb, type Db } from '../db/client.ts'
import { rotatedRefreshTokens, sessions } from '../db/schema.ts'
import { unauthorized } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { randomToken, sha256Hex } from '../lib/crypto.ts'
import { signAccessToken, type JwtConfig, type Role } from '../lib/jwt.ts'
import { DAY_MS } from '../lib/time.ts'
import { liveAdmin, liveUser } from '../users/live.ts'
import { userRowExists } from '../users/queries.ts'

// Absolute, not sliding: the role frozen in a session must reach the user within 7 days.
export const SESSION_TTL_MS = 7 * DAY_MS

export interface TokenPair {
  accessToken: string
  refreshToken: string
}

/**
 * Who holds a session: an API client (bearer access tokens and a rotating refresh token) or a
 * browser of the web app (the refresh token is the cookie's secret, never rotated and never
 * exchanged at /auth/refresh). Both are rows here, so every revocation reaches both.
 */
export type SessionKind = 'api' | 'web'

/** A new session for `user`: the insert to batch with the caller's writes, and its tokens. */
export async function openSession(
  db: Db,
  jwt: JwtConfig,
  user: { id: string; role: Role },
  now: number,
  kind: SessionKind = 'api',
) {
  const sessionId = newId(now)
  const refreshToken = randomToken()
  const statement = db.insert(sessions).values({
    id: sessionId,
    userId: user.id,
    refreshHash: await sha256Hex(refreshToken),
    role: user.role,
    kind,
    expiresAt: now + SESSION_TTL_MS,
    createdAt: now,
  })
  const accessToken = await signAccessToken(
    jwt,
    { sub: user.id, sid: sessionId, role: user.role },
    now,
  )
  return { statement, sessionId, tokens: { accessToken, refreshToken } satisfies TokenPair }
}

/**
 * Exchanges a refresh token for a new pair. The swap is one conditional UPDATE, so of two
 * concurrent uses only one wins. A token that was already exchanged revokes its whole session:
 * either it leaked or a client is replaying it, and in both cases nobody should hold the session.
 */
export async function rotateRefreshToken(db: Db, jwt: JwtConfig, token: string, now: number) {
  const hash = await sha256Hex(token)
  const nextToken = randomToken()
  const nextHash = await sha256Hex(nextToken)
  const ownerIsLive = liveUser(sessions.userId)
  // The refreshed role is the lesser of the session's and the user's: a refresh never brings back
  // a role the user lost, and a promotion still waits for the next sign-in (spec).
  const stillAdmin = liveAdmin(sessions.userId)
  const [[session]] = await db.batch([
    db
      .update(sessions)
      .set({
        refreshHash: nextHash,
        refreshedAt: now,
        role: sql<Role>`case when ${stillAdmin} then ${sessions.role} else 'user' end`,
      })
      .where(
        and(
          eq(sessions.refreshHash, hash),
          // A web session's cookie secret is no refresh token: it never buys API tokens.
          eq(sessions.kind, 'api'),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          ownerIsLive,
        ),
      )
      .returning({ id: sessions.id, userId: sessions.userId, role: sessions.role }),
    // Written only when the swap above happened: remember the old token as spent.
    db.insert(rotatedRefreshTokens).select(
      db
        .select({
          hash: sql<string>`${hash}`.as('hash'),
          sessionId: sessions.id,
          rotatedAt: sql<number>`${now}`.as('rotated_at'),
        })
        .from(sessions)
        .where(eq(sessions.refreshHash, nextHash)),
    ),
  ])
  if (!session) {
    const spent = await db
      .select({ sessionId: rotatedRefreshTokens.sessionId })
      .from(rotatedRefreshTokens)
      .where(eq(rotatedRefreshTokens.hash, hash))
      .get()
    if (spent) await revokeSession(db, spent.sessionId, now)
    throw unauthorized()
  }
  const claims = { sub: session.userId, sid: session.id, role: session.role }
  const accessToken = await signAccessToken(jwt, claims, now)
  return { session, tokens: { accessToken, refreshToken: nextToken } satisfies TokenPair }
}

export async function revokeSession(db: Db, sessionId: string, now: number) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
}

/** Revokes every live session of the user, except `keep` (the caller's own, when it stays). */
export function revokeUserSessionsStatement(db: Db, userId: string, now: number, keep?: string) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keep ? ne(sessions.id, keep) : undefined,
      ),
    )
}

/** Whether a session row meets `condition`: one read by primary key. */
async function hasSession(db: Db, condition: SQL | undefined): Promise<boolean> {
  const row = await db.select({ id: sessions.id }).from(sessions).where(condition).get()
  return row !== undefined
}

/** The token's session, of the token's user, neither revoked nor expired. */
const liveTokenSession = (claims: { sub: string; sid: string }, now: number) =>
  and(
    eq(sessions.id, claims.sid),
    eq(sessions.userId, claims.sub),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
  )

/**
 * Whether an admin claim still holds: its session is live and began as admin, and its user is
 * still an admin and not deleted. One read by primary keys, made only for admin claims.
 */
export async function isAdminSessionLive(
  db: Db,
  claims: { sub: string; sid: string },
  now: number,
): Promise<boolean> {
  return hasSession(
    db,
    and(liveTokenSession(claims, now), eq(sessions.role, 'admin'), liveAdmin(sessions.userId)),
  )
}

/** Whether the session is still usable (not revoked, not expired). */
export async function isSessionLive(db: Db, sessionId: string, now: number): Promise<boolean> {
  return hasSession(
    db,
    and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
  )
}

/**
 * Whether an access token's session is still usable: live, and the token's user's. The read every
 * signed-in request makes, by primary key. A deletion ends every session in its batch, so a
 * deleted account fails here too without reading `users`.
 */
export async function isTokenSessionLive(
  db: Db,
  claims: { sub: string; sid: string },
  now: number,
): Promise<boolean> {
  return hasSession(db, liveTokenSession(claims, now))
}

/** The checks the bearer guards ask of this module (handed to them by the app). */
export const sessionChecks: SessionChecks = {
  isLive: (env, claims, now) => isTokenSessionLive(createDb(env.DB), claims, now),
  isAdminLive: (env, claims, now) => isAdminSessionLive(createDb(env.DB), claims, now),
  isUserGone: async (env, userId) => !(await userRowExists(createDb(env.DB), userId)),
}
