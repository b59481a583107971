// Channels the service turned off for a user: recorded with the reason and time (an email
// address that hard-bounced or complained, push subscriptions that all expired, a chat or webhook
// that is gone), shown in the profile as channelStatus, and cleared when the user turns the
// channel on again.
import { and, eq, inArray, notExists, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import { BLOCKABLE_CHANNELS, channelModule, isChannel, type Channel } from '../channels/registry.ts'
import type { Db } from '../db/client.ts'
import { channelBlocks, pushSubscriptions, users } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import { liveUserById } from './live.ts'

type Statement = BatchItem<'sqlite'>
export type ChannelBlockRow = typeof channelBlocks.$inferSelect
export type BlockedChannel = Channel
export type BlockReason = ChannelBlockRow['reason']

/** The channels the service can turn off (and a user can turn on again). */
export { BLOCKABLE_CHANNELS }

/**
 * Turns the channel off for the user and records why; run them in one batch. A block already
 * there is kept, so `since` stays the first time the service turned the channel off.
 */
export function blockChannelStatements(
  db: Db,
  block: { userId: string; channel: BlockedChannel; reason: BlockReason },
  now: number,
): Statement[] {
  const field = channelModule(block.channel).switchField
  return [
    db
      .insert(channelBlocks)
      .values({ ...block, blockedAt: now })
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ [field]: false, updatedAt: now })
      .where(and(liveUserById(block.userId), eq(users[field], true))),
  ]
}

/**
 * A linked chat or a webhook that will never take a message again (the bot was blocked, the
 * webhook deleted): the channel is turned off, the destination forgotten and the block recorded,
 * in one batch. Only while the user still has that destination, so one set since is left alone;
 * a block already there keeps its first time.
 */
export async function blockDeadDestination(
  db: Db,
  userId: string,
  channel: Channel,
  destination: string,
  now: number,
) {
  const m = channelModule(channel)
  if (m.destination.kind !== 'linked' && m.destination.kind !== 'webhook') return
  const field = m.destination.field
  const reason: BlockReason = m.destination.kind === 'linked' ? 'bot-blocked' : 'webhook-unknown'
  const stillSet = and(liveUserById(userId), eq(users[field], destination))
  await db.batch([
    db
      .insert(channelBlocks)
      .select(
        db
          .select({
            userId: users.id,
            channel: sql<string>`${channel}`.as('channel'),
            reason: sql<string>`${reason}`.as('reason'),
            blockedAt: sql<number>`${now}`.as('blocked_at'),
          })
          .from(users)
          .where(stillSet),
      )
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ [field]: null, [m.switchField]: false, updatedAt: now })
      .where(stillSet),
  ])
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
    if (!isChannel(row.channel)) continue
    status[row.channel] = { blocked: true, reason: row.reason, since: toIso(row.blockedAt) }
  }
  return status
}
