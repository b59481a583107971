// Channels the service turned off for a user: recorded with the reason and time (an email
// address that hard-bounced or complained, push subscriptions that all expired), shown in the
// profile as channelStatus, and cleared when the user turns the channel on again.
import { and, eq, inArray, notExists, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { channelBlocks, pushSubscriptions, users } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import { liveUserById } from './live.ts'

type Statement = BatchItem<'sqlite'>
export type ChannelBlockRow = typeof channelBlocks.$inferSelect
export type BlockedChannel = ChannelBlockRow['channel']
export type BlockReason = ChannelBlockRow['reason']

/** The channels the service can turn off (and a user can turn on again). */
export const BLOCKABLE_CHANNELS = channelBlocks.channel.enumValues

// The switch of each channel the service can turn off.
const FLAG = {
  email: 'notifyEmail',
  push: 'notifyPush',
  telegram: 'notifyTelegram',
  discord: 'notifyDiscord',
} as const satisfies Record<BlockedChannel, keyof typeof users.$inferSelect>

/**
 * Turns the channel off for the user and records why; run them in one batch. A block already
 * there is kept, so `since` stays the first time the service turned the channel off.
 */
export function blockChannelStatements(
  db: Db,
  block: { userId: string; channel: BlockedChannel; reason: BlockReason },
  now: number,
): Statement[] {
  const flag = { [FLAG[block.channel]]: false }
  return [
    db
      .insert(channelBlocks)
      .values({ ...block, blockedAt: now })
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ ...flag, updatedAt: now })
      .where(and(liveUserById(block.userId), eq(users[FLAG[block.channel]], true))),
  ]
}

/**
 * Removes a push subscription the push service no longer knows; when it was the user's last one,
 * push is turned off with the block 'subscription-expired', in the same batch.
 */
export async function removeExpiredPushSubscription(
  db: Db,
  userId: string,
  endpoint: string,
  now: number,
) {
  const noneLeft = notExists(
    db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId)),
  )
  await db.batch([
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint))),
    db
      .insert(channelBlocks)
      .select(
        db
          .select({
            userId: users.id,
            channel: sql<string>`'push'`.as('channel'),
            reason: sql<string>`'subscription-expired'`.as('reason'),
            blockedAt: sql<number>`${now}`.as('blocked_at'),
          })
          .from(users)
          .where(and(liveUserById(userId), eq(users.notifyPush, true), noneLeft)),
      )
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ notifyPush: false, updatedAt: now })
      .where(and(liveUserById(userId), eq(users.notifyPush, true), noneLeft)),
  ])
}

/** The statement that clears the blocks of channels the user turned on again. */
export function clearBlocksStatement(db: Db, userId: string, channels: BlockedChannel[]) {
  return db
    .delete(channelBlocks)
    .where(and(eq(channelBlocks.userId, userId), inArray(channelBlocks.channel, channels)))
}

export function listChannelBlocksStatement(db: Db, userId: string) {
  return db.select().from(channelBlocks).where(eq(channelBlocks.userId, userId))
}

export interface ChannelBlockView {
  blocked: true
  reason: BlockReason
  since: string
}

/** The profile's channelStatus: one entry per channel the service turned off, none otherwise. */
export function channelStatusOf(rows: readonly ChannelBlockRow[]) {
  const status: Partial<Record<BlockedChannel, ChannelBlockView>> = {}
  for (const row of rows) {
    status[row.channel] = { blocked: true, reason: row.reason, since: toIso(row.blockedAt) }
  }
  return status
}
