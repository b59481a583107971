// The calendar's part of hard account deletion: the user's feed address.
import { eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { calendarFeeds } from '../db/schema.ts'

export function deleteUserCalendarStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))]
}
