// What deleting an account does to its handles: a hard deletion removes them, its choice of result
// alerts, its registrations in communities (community_members), and the stored results of its
// handles that no other account links (nor a community's member proved); a soft delete gives
// its proven handles up at once (as its communities are), so the handles' owners can prove them
// from another account during the 30 days of recovery, and keeps the results for a recovery.
import { and, eq, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { contestResults, judgeHandles } from '../db/schema.ts'
import { deleteUserMembersStatements, isMemberHandleSql } from './community-members.ts'
import { releaseUserHandlesStatement } from './handles.ts'
import { LINKED_HANDLE_SQL } from './handles-sql.ts'
import { deleteUserResultPreferencesStatement } from './result-preferences.ts'

/**
 * contest_results rows are by handle, not account (one row serves everyone who links it): those
 * of the account's handles (own, proven or not, and friends) that no other account links as the
 * pipeline keeps them (LINKED_HANDLE_SQL) go with the account. One statement, before the handles
 * themselves are deleted in the same batch; the rows are found by (platform, handle) through the
 * results join's index, never by a walk over the table.
 */
export function deleteUnlinkedResultsStatement(db: Db, userId: string) {
  return db.delete(contestResults).where(
    and(
      sql`(${contestResults.platform}, ${contestResults.handleKey}) IN
          (SELECT mine.platform, mine.handle_key FROM judge_handles mine
            WHERE mine.user_id = ${userId})`,
      sql`NOT EXISTS (SELECT 1 FROM judge_handles h WHERE h.platform = ${contestResults.platform}
          AND h.handle_key = ${contestResults.handleKey} AND h.user_id <> ${userId}
          AND ${sql.raw(LINKED_HANDLE_SQL)})`,
      // A community's member who proved the handle there keeps its rows for the rank posts.
      sql`NOT ${sql.raw(isMemberHandleSql(`"contest_results"."platform"`, `"contest_results"."handle_key"`))}`,
    ),
  )
}

export function deleteUserHandleStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [
    // First, so the rows its community registrations held are no reason to keep results.
    ...deleteUserMembersStatements(db, userId),
    deleteUnlinkedResultsStatement(db, userId),
    db.delete(judgeHandles).where(eq(judgeHandles.userId, userId)),
    deleteUserResultPreferencesStatement(db, userId),
  ]
}

/**
 * The soft delete's part: proven handles unproven again (a recovered account proves anew), and
 * its community registrations removed.
 */
export function releaseUserHandlesStatements(
  db: Db,
  userId: string,
  now: number,
): BatchItem<'sqlite'>[] {
  // Its registrations in communities go at once: a recovered account registers again.
  return [releaseUserHandlesStatement(db, userId, now), ...deleteUserMembersStatements(db, userId)]
}
