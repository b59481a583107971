// Everything an account's alerts reach besides its mailbox (the private calendar feed, a Telegram
// chat, a Discord or Slack channel, browsers, a phone), listed in words and removed one kind at a time or
// all at once with every session: what a takeover may have left behind, for its owner to undo.
import type { BatchItem } from 'drizzle-orm/batch'
import { revokeUserSessionsStatement } from '../auth/sessions.ts'
import { deleteUserCalendarStatements } from '../calendar/deletion.ts'
import { feedCreatedAt } from '../calendar/feeds.ts'
import type { Db } from '../db/client.ts'
import {
  attachedDestinations,
  detachDestinationsStatements,
  detachStatements,
  USER_DESTINATIONS,
  type UserDestination,
} from '../users/destinations.ts'
import { findUser } from '../users/queries.ts'

/** The calendar's feed and what users keeps. */
export const DESTINATION_KINDS = ['feed', ...USER_DESTINATIONS] as const
export type DestinationKind = (typeof DESTINATION_KINDS)[number]

/** What a removal link or form takes away: one kind, or all of them with every session. */
export const REMOVAL_KINDS = [...DESTINATION_KINDS, 'all'] as const
export type RemovalKind = (typeof REMOVAL_KINDS)[number]

export interface LinkedDestination {
  kind: DestinationKind
  /** Words the owner recognises it by; never a secret (no feed address, no full URL or number). */
  label: string
}

/** `2026-11-23`: a day is enough to tell one feed address from another. */
const day = (at: number) => new Date(at).toISOString().slice(0, 10)

/** What the account has linked now, in words; undefined when the account is gone. */
export async function linkedDestinations(
  db: Db,
  userId: string,
): Promise<LinkedDestination[] | undefined> {
  const user = await findUser(db, userId)
  if (!user) return undefined
  const [feedMadeAt, attached] = await Promise.all([
    feedCreatedAt(db, userId),
    attachedDestinations(db, user),
  ])
  const linked: LinkedDestination[] = []
  if (feedMadeAt !== undefined) {
    const label = `Your private calendar feed (its address was made on ${day(feedMadeAt)})`
    linked.push({ kind: 'feed', label })
  }
  if (attached.telegram) linked.push({ kind: 'telegram', label: 'A Telegram chat' })
  for (const webhook of attached.webhooks) {
    linked.push({ kind: webhook.channel, label: `${webhook.label}: ${webhook.url}` })
  }
  if (attached.browsers > 0) {
    const browsers = attached.browsers === 1 ? '1 browser' : `${attached.browsers} browsers`
    linked.push({ kind: 'push', label: `Web Push in ${browsers}` })
  }
  if (attached.phone) linked.push({ kind: 'phone', label: `WhatsApp to ${attached.phone}` })
  return linked
}

/** What of `linked` a removal of `kind` takes away. */
export const removedBy = (kind: RemovalKind, linked: LinkedDestination[]) =>
  linked.filter((destination) => kind === 'all' || destination.kind === kind)

type Batch = [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]

function removalStatements(db: Db, userId: string, kind: RemovalKind, now: number): Batch {
  if (kind === 'all') {
    return [
      revokeUserSessionsStatement(db, userId, now),
      ...detachDestinationsStatements(db, userId, now),
      ...deleteUserCalendarStatements(db, userId),
    ]
  }
  if (kind === 'feed') return deleteUserCalendarStatements(db, userId) as Batch
  return detachStatements(db, userId, [kind satisfies UserDestination], now) as Batch
}

/**
 * Signs the account out everywhere (every browser and API client, this one included) and detaches
 * every destination, the calendar feed too, in one batch: nothing is left half undone.
 */
export async function signOutAndDetachEverything(db: Db, userId: string, now: number) {
  await db.batch(removalStatements(db, userId, 'all', now))
}

/**
 * Removes one kind (or everything, sessions included) from a live account. Returns what was
 * linked of it just before, for the page that says what went; undefined when the account is gone.
 */
export async function removeDestination(
  db: Db,
  userId: string,
  kind: RemovalKind,
  now: number,
): Promise<LinkedDestination[] | undefined> {
  const linked = await linkedDestinations(db, userId)
  if (!linked) return undefined
  await db.batch(removalStatements(db, userId, kind, now))
  return removedBy(kind, linked)
}
