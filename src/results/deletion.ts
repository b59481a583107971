// What deleting an account does to its handles: a hard deletion removes them and its choice of
// result alerts; a soft delete gives its proven handles up at once (as its communities are), so
// the handles' owners can prove them from another account during the 30 days of recovery.
import { eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { judgeHandles } from '../db/schema.ts'
import { releaseUserHandlesStatement } from './handles.ts'
import { deleteUserResultPreferencesStatement } from './result-preferences.ts'

export function deleteUserHandleStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [
    db.delete(judgeHandles).where(eq(judgeHandles.userId, userId)),
    deleteUserResultPreferencesStatement(db, userId),
  ]
}

/** The soft delete's part: proven handles unproven again (a recovered account proves anew). */
export function releaseUserHandlesStatements(
  db: Db,
  userId: string,
  now: number,
): BatchItem<'sqlite'>[] {
  return [releaseUserHandlesStatement(db, userId, now)]
}
