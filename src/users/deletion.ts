// The statements that remove the users feature's rows of a user: push subscriptions, followed
// platforms, contest follows and mutes, channel blocks, Telegram link tokens and, last, the user
// row itself (whose RETURNING tells whether there was one).
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import {
  channelBlocks,
  contestSubscriptions,
  pushSubscriptions,
  telegramLinks,
  userPlatforms,
  users,
} from '../db/schema.ts'

export function deleteUserRowStatements(db: Db, userId: string) {
  return [
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
    db.delete(userPlatforms).where(eq(userPlatforms.userId, userId)),
    db.delete(contestSubscriptions).where(eq(contestSubscriptions.userId, userId)),
    db.delete(channelBlocks).where(eq(channelBlocks.userId, userId)),
    db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)),
    db.delete(users).where(eq(users.id, userId)).returning({ id: users.id }),
  ] as const
}
