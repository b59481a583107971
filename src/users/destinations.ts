// The places an account's alerts go that its holder attached (a Telegram chat, a Discord or Slack
// channel's webhook, browsers for Web Push, a verified phone for WhatsApp): the rule that only a proven address may
// attach one, and the statements that detach them all, so whoever held the account before its
// owner proved the mailbox (or took it back by a reset) keeps no way of hearing from it.
import { and, eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { DestinationField } from '../channels/define.ts'
import { CHANNEL_MODULES, WEBHOOK_CHANNELS } from '../channels/registry.ts'
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

// The channels whose destination is a users column: a linked chat, a pasted webhook.
const COLUMN_CHANNELS = CHANNEL_MODULES.filter(
  (m): m is Extract<(typeof CHANNEL_MODULES)[number], { destination: { field: string } }> =>
    'field' in m.destination,
)
type ColumnChannel = (typeof COLUMN_CHANNELS)[number]['id']

/** The destinations this module keeps, each detachable on its own. */
export const USER_DESTINATIONS = [...COLUMN_CHANNELS.map((c) => c.id), 'push', 'phone'] as [
  ...ColumnChannel[],
  'push',
  'phone',
]
export type UserDestination = ColumnChannel | 'push' | 'phone'

// The columns each kind clears; its channel goes off with it, so nothing is left pointing nowhere.
const DETACHED: Record<UserDestination, Partial<UserRow>> = {
  ...(Object.fromEntries(
    COLUMN_CHANNELS.map((c) => [c.id, { [c.destination.field]: null, [c.switchField]: false }]),
  ) as unknown as Record<ColumnChannel, Partial<UserRow>>),
  phone: { phoneNumber: null, phoneVerifiedAt: null, phoneVerifiedNumber: null },
  push: {},
}

/**
 * The statements (for a batch) that detach the given kinds: a Telegram chat with its unused link
 * tokens, a webhook URL, a phone number with its verification, every push subscription.
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
  /** Per webhook channel set, its URL masked and without its scheme ('discord.com/api/…'). */
  webhooks: { channel: (typeof WEBHOOK_CHANNELS)[number]['id']; label: string; url: string }[]
  phone: string | undefined
  browsers: number
}

/** `••••••••3210`: the last four digits are what the owner recognises. */
function phoneLabel(phone: string): string {
  return `${'•'.repeat(Math.max(phone.length - 4, 0))}${phone.slice(-4)}`
}

export async function attachedDestinations(db: Db, user: UserRow): Promise<AttachedDestinations> {
  const browsers = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, user.id))
  return {
    telegram: user.telegramChatId != null,
    webhooks: WEBHOOK_CHANNELS.flatMap(({ id, label, destination: { field, webhook } }) => {
      const url = user[field]
      return url ? [{ channel: id, label, url: webhook.mask(url).replace(/^https:\/\//, '') }] : []
    }),
    phone: user.phoneNumber ? phoneLabel(user.phoneNumber) : undefined,
    browsers: browsers.length,
  }
}

/**
 * The provider says the destination lives at a new address (a Telegram group upgraded to a
 * supergroup): the column follows, if it still holds the old one.
 */
export async function moveDestination(
  db: Db,
  userId: string,
  field: DestinationField,
  move: { from: string; to: string },
  now: number,
): Promise<void> {
  await db
    .update(users)
    .set({ [field]: move.to, updatedAt: now })
    .where(and(liveUserById(userId), eq(users[field], move.from)))
}
