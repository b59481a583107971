// Conversations with the knowledge assistant and their messages: counted for the admin statistics
// and removed with their user.
import { count, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { conversations, messages } from '../db/schema.ts'

/** The counts of conversations and of messages, as statements for the caller's batch. */
export function conversationCountStatements(db: Db) {
  return [
    db.select({ n: count() }).from(conversations),
    db.select({ n: count() }).from(messages),
  ] as const
}

export function deleteUserConversationStatements(db: Db, userId: string) {
  const owned = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.userId, userId))
  return [
    db.delete(messages).where(inArray(messages.conversationId, owned)),
    db.delete(conversations).where(eq(conversations.userId, userId)),
  ] as const
}
