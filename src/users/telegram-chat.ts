// The Telegram chat linked to a user (users.telegram_chat_id): linking it with a link token,
// unlinking it; each change one D1 batch (the block when the bot may no longer write to it is
// channel-blocks.ts blockDeadDestination).
import { and, eq, exists, gt, ne } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { channelBlocks, telegramLinks, users } from '../db/schema.ts'
import { liveUserById, notDeleted } from './live.ts'

const UNLINKED = { telegramChatId: null, notifyTelegram: false } as const

/**
 * Links `chatId` to the user the live, unexpired token (its hash) names: the chat becomes theirs
 * alone (another account that had it loses it), Telegram is turned on, a 'bot-blocked' block is
 * cleared and the token is spent. Every statement checks the token, so it links once only.
 */
export async function linkChat(db: Db, tokenHash: string, chatId: string, now: number) {
  const token = await db
    .select({ userId: telegramLinks.userId })
    .from(telegramLinks)
    .innerJoin(users, liveUserById(telegramLinks.userId))
    .where(and(eq(telegramLinks.tokenHash, tokenHash), gt(telegramLinks.expiresAt, now)))
    .get()
  if (!token) return undefined
  const live = exists(
    db
      .select({ hash: telegramLinks.tokenHash })
      .from(telegramLinks)
      .where(and(eq(telegramLinks.tokenHash, tokenHash), gt(telegramLinks.expiresAt, now))),
  )
  await db.batch([
    db
      .update(users)
      .set({ ...UNLINKED, updatedAt: now })
      .where(and(eq(users.telegramChatId, chatId), ne(users.id, token.userId), live)),
    db
      .update(users)
      .set({ telegramChatId: chatId, notifyTelegram: true, updatedAt: now })
      .where(and(liveUserById(token.userId), live)),
    db
      .delete(channelBlocks)
      .where(
        and(
          eq(channelBlocks.userId, token.userId),
          eq(channelBlocks.channel, 'telegram'),
          eq(channelBlocks.reason, 'bot-blocked'),
          live,
        ),
      ),
    db.delete(telegramLinks).where(eq(telegramLinks.tokenHash, tokenHash)),
  ])
  return token.userId
}

/** The user's chat unlinked and Telegram off, and their unused link tokens dropped. */
export async function unlinkUser(db: Db, userId: string, now: number): Promise<void> {
  await db.batch([
    db
      .update(users)
      .set({ ...UNLINKED, updatedAt: now })
      .where(liveUserById(userId)),
    db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)),
  ])
}

/** /stop in a chat: whichever account has the chat loses it. Whether one had it. */
export async function unlinkChat(db: Db, chatId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ ...UNLINKED, updatedAt: now })
    .where(eq(users.telegramChatId, chatId))
    .returning({ id: users.id })
  return rows.length > 0
}

/** The live account a chat is linked to, if any. */
export async function userOfChat(db: Db, chatId: string): Promise<string | undefined> {
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.telegramChatId, chatId), notDeleted()))
    .get()
  return row?.id
}
