// The places an account's alerts go that its holder attached (a Telegram chat, a Discord channel,
// browsers for Web Push, a verified phone for WhatsApp): the rule that only a proven address may
// attach one, and the statements that detach them all, so whoever held the account before its
// owner proved the mailbox (or took it back by a reset) keeps no way of hearing from it.
import { eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import { maskDiscordWebhookUrl } from '../channels/discord-webhook-url.ts'
import type { Db } from '../db/client.ts'
import { pushSubscriptions, telegramLinks, users, type UserRow } from '../db/schema.ts'
import { forbidden } from '../lib/errors.ts'
import { liveUserById } from './live.ts'

export const UNVERIFIED_CANNOT_ATTACH =
  'Verify your email address first: an unverified account cannot link a destination'

/**
 * Refuses (403) to attach anything to an account whose address is unproven: whoever signed up
 * with someone else's address must have nothing the owner would inherit on proving it.
 */
export function requireProvenAddress(user: Pick<UserRow, 'emailVerifiedAt'>): void {
  if (user.emailVerifiedAt == null) throw forbidden(UNVERIFIED_CANNOT_ATTACH)
}

/** The destinations this module keeps, each detachable on its own. */
export const USER_DESTINATIONS = ['telegram', 'discord', 'push', 'phone'] as const
export type UserDestination = (typeof USER_DESTINATIONS)[number]

// The columns each kind clears; its channel goes off with it, so nothing is left pointing nowhere.
const DETACHED = {
  telegram: { telegramChatId: null, notifyTelegram: false },
  discord: { discordWebhookUrl: null, notifyDiscord: false },
  phone: { phoneNumber: null, phoneVerifiedAt: null, phoneVerifiedNumber: null },
  push: {},
} satisfies Record<UserDestination, Partial<UserRow>>

/**
 * The statements (for a batch) that detach the given kinds: a Telegram chat with its unused link
 * tokens, a Discord URL, a phone number with its verification, every push subscription.
 */
export function detachStatements(
  db: Db,
  userId: string,
  kinds: readonly UserDestination[],
  now: number,
): BatchItem<'sqlite'>[] {
  const columns = Object.assign({}, ...kinds.map((kind) => DETACHED[kind])) as Partial<UserRow>
  return [
    db
      .update(users)
      .set({ ...columns, updatedAt: now })
      .where(liveUserById(userId)),
    ...(kinds.includes('telegram')
      ? [db.delete(telegramLinks).where(eq(telegramLinks.userId, userId))]
      : []),
    ...(kinds.includes('push')
      ? [db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))]
      : []),
  ]
}

/** Every destination of the user detached, and their channels off, in statements for a batch. */
export function detachDestinationsStatements(
  db: Db,
  userId: string,
  now: number,
): BatchItem<'sqlite'>[] {
  return detachStatements(db, userId, USER_DESTINATIONS, now)
}

/** What the user has attached, for the notice that lists it (no secret: the URL is cut down). */
export interface AttachedDestinations {
  telegram: boolean
  discord: string | undefined
  phone: string | undefined
  browsers: number
}

/** `discord.com/api/webhooks/1234…`: the profile's mask without its scheme, no token. */
const discordLabel = (url: string) => maskDiscordWebhookUrl(url).replace(/^https:\/\//, '')

/** `••••••••3210`: the last four digits are what the owner recognises. */
function phoneLabel(phone: string): string {
  return `${'•'.repeat(Math.max(phone.length - 4, 0))}${phone.slice(-4)}`
}

export async function attachedDestinations(
  db: Db,
  user: Pick<UserRow, 'id' | 'telegramChatId' | 'discordWebhookUrl' | 'phoneNumber'>,
): Promise<AttachedDestinations> {
  const browsers = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, user.id))
  return {
    telegram: user.telegramChatId != null,
    discord: user.discordWebhookUrl ? discordLabel(user.discordWebhookUrl) : undefined,
    phone: user.phoneNumber ? phoneLabel(user.phoneNumber) : undefined,
    browsers: browsers.length,
  }
}
