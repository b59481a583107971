// What an account does with the communities it claimed, from the API and the web app alike: list
// them, change what one announces, release one. Every call names the owner, so another account's
// destination is as good as missing.
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { communityDestinations, type CommunityDestinationRow } from '../db/schema.ts'
import { liveProvenUser } from '../users/live.ts'
import type { CommunityFilters } from './filters.ts'

// An account claims a handful; the cap keeps the page and the answer bounded.
export const MAX_OWNED = 100

// Held only by a live account with a proven address; any other owner is as good as none.
const heldBy = (userId: string) =>
  and(eq(communityDestinations.ownerId, userId), liveProvenUser(userId))

const owned = (userId: string, id: string) => and(eq(communityDestinations.id, id), heldBy(userId))

/** The destinations the account claimed, the latest change first. */
export function ownedDestinations(db: Db, userId: string) {
  return db
    .select()
    .from(communityDestinations)
    .where(heldBy(userId))
    .orderBy(desc(communityDestinations.updatedAt))
    .limit(MAX_OWNED)
}

/** Replaces the filters given; undefined when the account does not own the destination. */
export async function updateOwnedFilters(
  db: Db,
  input: {
    userId: string
    id: string
    filters: Partial<CommunityFilters> & { cleanup?: boolean }
    /** A Discord channel's events switch and roles (a Telegram destination has neither). */
    discord?: { events: boolean; roles: Record<string, string> }
    /** Rank posts on or off (left as they are when undefined). */
    rankUpdates?: boolean
  },
  now: number,
) {
  const { discord } = input
  const [row] = await db
    .update(communityDestinations)
    .set({
      ...input.filters,
      ...discord,
      ...(input.rankUpdates !== undefined && { rankUpdates: input.rankUpdates }),
      // Turned on again: a server that refused the events is asked again.
      ...(discord?.events && { eventsRefusedAt: null }),
      updatedAt: now,
    })
    .where(
      and(
        owned(input.userId, input.id),
        discord ? eq(communityDestinations.channel, 'discord') : undefined,
      ),
    )
    .returning()
  return row as CommunityDestinationRow | undefined
}

/** Gives a claimed destination up; false when the account does not own it. */
export async function releaseDestination(db: Db, userId: string, id: string, now: number) {
  const released = await db
    .update(communityDestinations)
    .set({ ownerId: null, updatedAt: now })
    .where(owned(userId, id))
    .returning({ id: communityDestinations.id })
  return released.length > 0
}
