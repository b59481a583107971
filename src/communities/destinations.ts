// Community destinations (community_destinations): subscribed from the chat itself, changed,
// unsubscribed, moved with a group that became a supergroup, and marked dead when the chat service
// says the bot can never post there again.
import { and, eq, isNull, notExists, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { communityDestinations, type CommunityDestinationRow } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'
import { DEFAULT_LEAD_TIMES, type CommunityFilters } from './filters.ts'

export interface Place {
  channel: CommunityDestinationRow['channel']
  chatId: string
  guildId?: string | null
  /** A Telegram forum topic's message_thread_id; none for the whole chat. */
  threadId?: string
  title: string
  /** The forum topic's name. */
  threadTitle?: string | null
}

/**
 * Where a place is: a Discord channel with its server, so an id from another never matches; a
 * Telegram chat, or one topic of it.
 */
export type PlaceKey = Pick<Place, 'channel' | 'chatId' | 'guildId' | 'threadId'>

/** The destination row of a place: its service, chat and topic, and a Discord channel's server. */
export const at = (place: PlaceKey) =>
  and(
    eq(communityDestinations.channel, place.channel),
    eq(communityDestinations.chatId, place.chatId),
    eq(communityDestinations.threadId, place.threadId ?? ''),
    place.channel === 'discord'
      ? eq(communityDestinations.guildId, place.guildId ?? '')
      : undefined,
  )

/**
 * The Discord channel is subscribed under another server. Channel ids are unique across Discord, so
 * only a forged or mistaken id gets here; the destination is left as it is.
 */
export class OtherServerError extends Error {
  constructor() {
    super('The channel is subscribed from another server')
  }
}

export function findDestinationById(db: Db, id: string) {
  return db.select().from(communityDestinations).where(eq(communityDestinations.id, id)).get()
}

export function findDestination(db: Db, place: PlaceKey) {
  return db.select().from(communityDestinations).where(at(place)).get()
}

/**
 * Subscribes the place to `platforms` (and, on Discord, a role to mention): a new destination with
 * the default filters, or the existing one with these platforms, alive again if it was dead.
 * Throws OtherServerError when the channel's row belongs to another Discord server.
 */
export async function subscribe(
  db: Db,
  place: Place,
  choice: {
    platforms: string[]
    roleId?: string | null
    leadTimes?: number[]
    events?: boolean
    cleanup?: boolean
  },
  now: number,
): Promise<CommunityDestinationRow> {
  const [row] = await db
    .insert(communityDestinations)
    .values({
      id: newId(now),
      channel: place.channel,
      chatId: place.chatId,
      guildId: place.guildId ?? null,
      threadId: place.threadId ?? '',
      threadTitle: place.threadTitle ?? null,
      title: place.title,
      roleId: choice.roleId ?? null,
      platforms: choice.platforms,
      leadTimes: choice.leadTimes ?? DEFAULT_LEAD_TIMES,
      events: choice.events ?? false,
      cleanup: choice.cleanup ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [
        communityDestinations.channel,
        communityDestinations.chatId,
        communityDestinations.threadId,
      ],
      set: {
        title: place.title,
        ...(place.threadTitle && { threadTitle: place.threadTitle }),
        ...(choice.cleanup !== undefined && { cleanup: choice.cleanup }),
        platforms: choice.platforms,
        ...(choice.roleId !== undefined && { roleId: choice.roleId }),
        ...(choice.leadTimes && { leadTimes: choice.leadTimes }),
        // Turned on (again): a server that refused them before is asked again.
        ...(choice.events !== undefined && { events: choice.events, eventsRefusedAt: null }),
        deadAt: null,
        deadReason: null,
        ownerToldAt: null,
        updatedAt: now,
      },
      // The row of a Discord channel is changed only from its own server (Telegram's have none).
      setWhere: sql`${communityDestinations.guildId} IS excluded.guild_id`,
    })
    .returning()
  if (!row) throw new OtherServerError()
  return row
}

/** Whether the place had a destination, now gone with its announcements. */
export async function unsubscribe(db: Db, place: PlaceKey) {
  const gone = await db
    .delete(communityDestinations)
    .where(at(place))
    .returning({ id: communityDestinations.id })
  return gone.length > 0
}

/** Replaces the filters sent; undefined when the place has no destination. */
export async function updateFilters(
  db: Db,
  place: PlaceKey,
  filters: Partial<CommunityFilters> & { cleanup?: boolean },
  now: number,
) {
  const [row] = await db
    .update(communityDestinations)
    .set({ ...filters, updatedAt: now })
    .where(at(place))
    .returning()
  return row as CommunityDestinationRow | undefined
}

/**
 * Marks the destination dead with the chat service's reason, once: the owner to tell (if it was
 * claimed) comes back only from the call that marked it.
 */
export async function markDead(db: Db, id: string, reason: string, now: number) {
  const [row] = await db
    .update(communityDestinations)
    .set({ deadAt: now, deadReason: reason.slice(0, 300), ownerToldAt: now, updatedAt: now })
    .where(and(eq(communityDestinations.id, id), isNull(communityDestinations.deadAt)))
    .returning()
  return row as CommunityDestinationRow | undefined
}

/**
 * A Telegram group became a supergroup with a new chat id: the destination follows it, unless the
 * supergroup was subscribed on its own meanwhile. The moved row, or undefined. (A plain group has
 * no topics, so the destination is the whole chat.)
 */
export async function moveChat(db: Db, id: string, chatId: string, now: number) {
  const taken = db
    .select({ id: communityDestinations.id })
    .from(communityDestinations)
    .where(at({ channel: 'telegram', chatId }))
  const [row] = await db
    .update(communityDestinations)
    .set({ chatId, updatedAt: now })
    .where(and(eq(communityDestinations.id, id), notExists(taken)))
    .returning()
  return row as CommunityDestinationRow | undefined
}

/**
 * The server refused the destination's events (no Manage Events): they stop until turned on again.
 * The row only from the call that stopped them, so the channel is told once.
 */
export async function refuseEvents(db: Db, id: string, now: number) {
  const [row] = await db
    .update(communityDestinations)
    .set({ eventsRefusedAt: now, updatedAt: now })
    .where(and(eq(communityDestinations.id, id), isNull(communityDestinations.eventsRefusedAt)))
    .returning()
  return row as CommunityDestinationRow | undefined
}

/**
 * Maps a platform or contest type (`key`) to a role, or takes the mapping away (`roleId` null);
 * undefined when the place has no destination.
 */
export async function setRole(
  db: Db,
  place: PlaceKey,
  key: string,
  roleId: string | null,
  now: number,
) {
  const path = `$."${key.replace(/["\\]/g, '')}"`
  const roles =
    roleId === null
      ? sql`json_remove(${communityDestinations.roles}, ${path})`
      : sql`json_set(${communityDestinations.roles}, ${path}, ${roleId})`
  const [row] = await db
    .update(communityDestinations)
    .set({ roles, updatedAt: now })
    .where(at(place))
    .returning()
  return row as CommunityDestinationRow | undefined
}

/** Turns the place's rank posts on or off; undefined when the place has no destination. */
export async function setRankUpdates(db: Db, place: PlaceKey, on: boolean, now: number) {
  const [row] = await db
    .update(communityDestinations)
    .set({ rankUpdates: on, updatedAt: now })
    .where(at(place))
    .returning()
  return row as CommunityDestinationRow | undefined
}
