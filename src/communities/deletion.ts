// What deleting an account does to community destinations: they stay, since they belong to their
// community, but no longer have the account as owner. The daily cleanup also releases any whose
// owner is deleted or unproven (claimed before claiming needed a proven address, or soft-deleted).
import { and, eq, isNotNull, not } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { communityDestinations } from '../db/schema.ts'
import { liveProvenUser } from '../users/live.ts'

export function releaseUserCommunitiesStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [
    db
      .update(communityDestinations)
      .set({ ownerId: null })
      .where(eq(communityDestinations.ownerId, userId)),
  ]
}

/** Releases every destination whose owner is not a live account with a proven address. */
export async function releaseUnheldCommunities(db: Db, now: number): Promise<number> {
  const released = await db
    .update(communityDestinations)
    .set({ ownerId: null, updatedAt: now })
    .where(
      and(
        isNotNull(communityDestinations.ownerId),
        not(liveProvenUser(communityDestinations.ownerId)),
      ),
    )
    .returning({ id: communityDestinations.id })
  return released.length
}
