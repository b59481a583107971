// The daily removal of accounts soft-deleted more than 30 days ago: past the recovery period they
// are deleted for good, with everything they own, and their email address is free again.
import { and, asc, isNotNull, lte } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { deleteUser } from './deletion.ts'
import { RECOVERY_PERIOD_MS } from './recovery.ts'

// Enough for any day's deletions; the rest wait for the next run.
const PURGE_LIMIT = 200

export async function purgeDeletedAccounts(db: Db, now: number): Promise<number> {
  const expired = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.deletedAt), lte(users.deletedAt, now - RECOVERY_PERIOD_MS)))
    .orderBy(asc(users.deletedAt))
    .limit(PURGE_LIMIT)
  let purged = 0
  // One batch per account, so a failure leaves whole accounts only.
  for (const { id } of expired) if (await deleteUser(db, id)) purged++
  return purged
}
