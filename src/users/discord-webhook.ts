// A user's Discord webhook that Discord no longer knows (deleted, or its token reset): the service
// turns Discord off, forgets the dead URL and records the block 'webhook-unknown', in one batch.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { channelBlocks, users } from '../db/schema.ts'
import { liveUserById } from './live.ts'

/**
 * Only while the user still has `webhookUrl`: a URL set since the failed send is a new webhook,
 * which this answer says nothing about. A block already there keeps its first time.
 */
export async function blockUnknownDiscordWebhook(
  db: Db,
  userId: string,
  webhookUrl: string,
  now: number,
) {
  const stillSet = and(liveUserById(userId), eq(users.discordWebhookUrl, webhookUrl))
  await db.batch([
    db
      .insert(channelBlocks)
      .select(
        db
          .select({
            userId: users.id,
            channel: sql<string>`'discord'`.as('channel'),
            reason: sql<string>`'webhook-unknown'`.as('reason'),
            blockedAt: sql<number>`${now}`.as('blocked_at'),
          })
          .from(users)
          .where(stillSet),
      )
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ notifyDiscord: false, discordWebhookUrl: null, updatedAt: now })
      .where(stillSet),
  ])
}
