// Removal of expired auth records, for the daily cleanup job: sessions past their 7 days (with
// their spent refresh tokens) and email codes past their 10 minutes.
import { inArray, lt } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { emailCodes, rotatedRefreshTokens, sessions } from '../db/schema.ts'

/**
 * A revoked session is kept until it would have expired: its spent tokens must still be
 * recognised as spent until then, or a replay would look like an unknown token.
 */
export async function removeExpiredAuthRecords(db: Db, now: number) {
  const expired = db.select({ id: sessions.id }).from(sessions).where(lt(sessions.expiresAt, now))
  const [, removedSessions, removedCodes] = await db.batch([
    db.delete(rotatedRefreshTokens).where(inArray(rotatedRefreshTokens.sessionId, expired)),
    db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id }),
    db
      .delete(emailCodes)
      .where(lt(emailCodes.expiresAt, now))
      .returning({ userId: emailCodes.userId }),
  ])
  return { sessionsRemoved: removedSessions.length, codesRemoved: removedCodes.length }
}
