// Which result alerts an account takes (result_preferences): its own handles' results, on by
// default, and its friends', off by default. No row means the defaults, so an account that never
// chose costs no row.
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { resultPreferences } from '../db/schema.ts'

export interface ResultPreferences {
  ownResults: boolean
  friendResults: boolean
}

export const DEFAULT_RESULT_PREFERENCES: ResultPreferences = {
  ownResults: true,
  friendResults: false,
}

export async function resultPreferencesOf(db: Db, userId: string): Promise<ResultPreferences> {
  const row = await db
    .select({
      ownResults: resultPreferences.ownResults,
      friendResults: resultPreferences.friendResults,
    })
    .from(resultPreferences)
    .where(eq(resultPreferences.userId, userId))
    .get()
  return row ?? DEFAULT_RESULT_PREFERENCES
}

/**
 * Merges the fields given into the stored choice (the defaults for the rest when there is none),
 * in one statement, so two changes of different fields at once both hold.
 */
export async function updateResultPreferences(
  db: Db,
  userId: string,
  change: Partial<ResultPreferences>,
  now: number,
): Promise<ResultPreferences> {
  const [row] = await db
    .insert(resultPreferences)
    .values({ userId, ...DEFAULT_RESULT_PREFERENCES, ...change, updatedAt: now })
    .onConflictDoUpdate({ target: resultPreferences.userId, set: { ...change, updatedAt: now } })
    .returning({
      ownResults: resultPreferences.ownResults,
      friendResults: resultPreferences.friendResults,
    })
  return row!
}

/** Removes the account's choice: its hard deletion. To batch. */
export function deleteUserResultPreferencesStatement(db: Db, userId: string) {
  return db.delete(resultPreferences).where(eq(resultPreferences.userId, userId))
}
