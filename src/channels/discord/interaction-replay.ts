// Each Discord interaction runs once: its id is written to discord_interactions by one atomic insert
// before the command runs, so the same signed request posted again (its signature holds for 5
// minutes) finds the id taken and is refused, however many copies race. A row is needed only while
// its signature could still be accepted; the daily cleanup removes it after that.
import { lt } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { discordInteractions } from '../../db/schema.ts'
import { MAX_SKEW_SECONDS } from './interaction-signature.ts'

// A minute past the signature's window, for clocks of isolates that disagree a little.
const KEEP_PAST_WINDOW_MS = 60_000

/**
 * Whether this is the first time the interaction `id`, signed at `timestamp` (seconds), is seen:
 * true once, false for every copy after.
 */
export async function firstSighting(db: Db, id: string, timestamp: number): Promise<boolean> {
  const expiresAt = (timestamp + MAX_SKEW_SECONDS) * 1000 + KEEP_PAST_WINDOW_MS
  const inserted = await db
    .insert(discordInteractions)
    .values({ id, expiresAt })
    .onConflictDoNothing()
    .returning({ id: discordInteractions.id })
  return inserted.length > 0
}

/** Removes the ids whose signatures are stale by `now`, for the daily cleanup; how many went. */
export async function removeStaleInteractions(db: Db, now: number): Promise<number> {
  const gone = await db
    .delete(discordInteractions)
    .where(lt(discordInteractions.expiresAt, now))
    .returning({ id: discordInteractions.id })
  return gone.length
}
