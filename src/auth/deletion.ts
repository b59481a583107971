// The statements that remove what auth keeps of a user (sessions, spent refresh tokens, codes), for
// the account deletion batch.
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { emailCodes, rotatedRefreshTokens, sessions } from '../db/schema.ts'

export function deleteUserAuthStatements(db: Db, userId: string) {
  const userSessions = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId))
  return [
    db.delete(rotatedRefreshTokens).where(inArray(rotatedRefreshTokens.sessionId, userSessions)),
    db.delete(sessions).where(eq(sessions.userId, userId)),
    db.delete(emailCodes).where(eq(emailCodes.userId, userId)),
  ] as const
}
