// The secret addresses of private feeds (calendar_feeds): one per user, kept only as the SHA-256
// of the token, so a copy of the database opens no feed.
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { calendarFeeds } from '../db/schema.ts'
import { randomToken, sha256Hex } from '../lib/crypto.ts'

/** A token of 32 random bytes, base64url: the file name of a feed address without `.ics`. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** A new secret for the user, replacing any earlier one, whose address stops working at once. */
export async function issueFeedToken(db: Db, userId: string, now: number): Promise<string> {
  const token = randomToken(32)
  const tokenHash = await sha256Hex(token)
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } })
  return token
}

/**
 * When the user's current feed address was made, or undefined when they have none. Only the hash
 * is stored, so a page can say that an address exists but never show it again.
 */
export async function feedCreatedAt(db: Db, userId: string): Promise<number | undefined> {
  const row = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .get()
  return row?.createdAt
}

/** Removes the user's feed, if any. */
export async function revokeFeed(db: Db, userId: string): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
}

/**
 * The user whose feed `token` opens, if any. The lookup is by hash, so its timing says nothing
 * about how much of a guess was right.
 */
export async function feedOwner(db: Db, token: string): Promise<string | undefined> {
  if (!FEED_TOKEN.test(token)) return undefined
  const row = await db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, await sha256Hex(token)))
    .get()
  return row?.userId
}
