// Hard deletion of an account and everything it owns, in one batch: whole or not at all.
import { eq, inArray } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import {
  conversations,
  emailCodes,
  messages,
  pushSubscriptions,
  rotatedRefreshTokens,
  sessions,
  submissions,
  userPlatforms,
  users,
} from '../db/schema.ts'
import { deleteUserNotificationStatements } from '../notifications/deletion.ts'

/**
 * Every statement that removes the user's rows, children first. The foreign keys cascade as
 * well; listing the tables here keeps the deletion explicit and independent of that pragma.
 * Features that add tables owned by a user add their statements here.
 */
export function deleteUserStatements(
  db: Db,
  id: string,
): [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]] {
  const userSessions = db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id))
  const userConversations = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.userId, id))
  return [
    db.delete(rotatedRefreshTokens).where(inArray(rotatedRefreshTokens.sessionId, userSessions)),
    db.delete(sessions).where(eq(sessions.userId, id)),
    db.delete(emailCodes).where(eq(emailCodes.userId, id)),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id)),
    db.delete(userPlatforms).where(eq(userPlatforms.userId, id)),
    // Second API area: conversations with their messages, and resource submissions.
    db.delete(messages).where(inArray(messages.conversationId, userConversations)),
    db.delete(conversations).where(eq(conversations.userId, id)),
    db.delete(submissions).where(eq(submissions.userId, id)),
    ...deleteUserNotificationStatements(db, id),
    db.delete(users).where(eq(users.id, id)).returning({ id: users.id }),
  ]
}

/** True when the user existed (soft-deleted or not) and is now gone. */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const results = await db.batch(deleteUserStatements(db, id))
  return (results.at(-1) as { id: string }[]).length > 0
}
