// One-time Telegram link tokens (telegram_links): the deep link t.me/<bot>?start=<token> a signed-in
// user opens, kept only as the token's SHA-256 so a copy of the database links no chat.
import { eq, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { telegramLinks } from '../db/schema.ts'
import { randomToken, sha256Hex } from '../lib/crypto.ts'
import { MINUTE_MS, toIso } from '../lib/time.ts'
import { requireProvenAddress } from './destinations.ts'
import { findUser } from './queries.ts'

/** Long enough to switch to Telegram and press Start, short enough that a leaked link soon dies. */
export const LINK_TOKEN_TTL_MS = 15 * MINUTE_MS

/** 32 random bytes, base64url: 43 characters of A-Z a-z 0-9 _ -, as start parameters allow. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/

export interface TelegramLink {
  url: string
  expiresAt: string
}

/** The deep link that opens the bot with the token as /start's parameter. */
export const deepLink = (botUsername: string, token: string) =>
  `https://t.me/${encodeURIComponent(botUsername.replace(/^@/, ''))}?start=${token}`

/**
 * A new link for a live user, replacing any earlier one (only the newest works); undefined when
 * the user is gone, 403 while the address is unproven.
 */
export async function issueTelegramLink(
  db: Db,
  userId: string,
  botUsername: string,
  now: number,
): Promise<TelegramLink | undefined> {
  const user = await findUser(db, userId)
  if (!user) return undefined
  requireProvenAddress(user)
  const token = randomToken(32)
  const expiresAt = now + LINK_TOKEN_TTL_MS
  await db.batch([
    db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)),
    db
      .insert(telegramLinks)
      .values({ tokenHash: await sha256Hex(token), userId, expiresAt, createdAt: now }),
  ])
  return { url: deepLink(botUsername, token), expiresAt: toIso(expiresAt) }
}

/** The stored form of a token /start carried; undefined for anything that cannot be one. */
export async function linkTokenHash(token: string): Promise<string | undefined> {
  return LINK_TOKEN.test(token) ? sha256Hex(token) : undefined
}

/** Deletes link tokens past their expiry (the daily cleanup); returns how many. */
export async function removeExpiredTelegramLinks(db: Db, now: number): Promise<number> {
  const removed = await db
    .delete(telegramLinks)
    .where(lte(telegramLinks.expiresAt, now))
    .returning({ hash: telegramLinks.tokenHash })
  return removed.length
}
