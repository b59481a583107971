// Hard deletion of an account: every owner's statements for the user's rows, in one batch, so it
// happens whole or not at all. A feature that adds a table owned by a user adds its statements here.
import type { BatchItem } from 'drizzle-orm/batch'
import { deleteUserAuthStatements } from '../auth/deletion.ts'
import { deleteUserCalendarStatements } from '../calendar/deletion.ts'
import { releaseUserCommunitiesStatements } from '../communities/deletion.ts'
import type { Db } from '../db/client.ts'
import { deleteUserNotificationStatements } from '../notifications/deletion.ts'
import { deleteUserConversationStatements } from '../resources/conversations.ts'
import { deleteUserSubmissionStatements } from '../resources/submissions.ts'
import { deleteUserHandleStatements } from '../results/deletion.ts'
import { deleteUserRowStatements } from '../users/deletion.ts'

/**
 * Children first, the user row last. The foreign keys cascade as well; listing the tables keeps
 * the deletion explicit and independent of that pragma.
 */
export function deleteUserStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [
    ...deleteUserNotificationStatements(db, userId),
    ...deleteUserSubmissionStatements(db, userId),
    ...deleteUserConversationStatements(db, userId),
    ...deleteUserCalendarStatements(db, userId),
    ...releaseUserCommunitiesStatements(db, userId),
    ...deleteUserHandleStatements(db, userId),
    ...deleteUserAuthStatements(db, userId),
    ...deleteUserRowStatements(db, userId),
  ]
}

/** True when the user existed (soft-deleted or not) and is now gone. */
export async function deleteUser(db: Db, userId: string): Promise<boolean> {
  const statements = deleteUserStatements(db, userId) as [
    BatchItem<'sqlite'>,
    ...BatchItem<'sqlite'>[],
  ]
  const results = await db.batch(statements)
  return (results.at(-1) as { id: string }[]).length > 0
}
