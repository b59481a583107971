// What deleting an account does to community destinations: they stay, since they belong to their
// community, but no longer have the account as owner.
import { eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { communityDestinations } from '../db/schema.ts'

export function releaseUserCommunitiesStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [
    db
      .update(communityDestinations)
      .set({ ownerId: null })
      .where(eq(communityDestinations.ownerId, userId)),
  ]
}
