// The daily removal of accounts soft-deleted more than 30 days ago: past the recovery period they
// are deleted for good, with everything they own, and their email address is free again.
import type { Db } from '../db/client.ts'
import { deletedUserIdsBefore } from '../users/soft-delete.ts'
import { deleteUser } from './deletion.ts'
import { RECOVERY_PERIOD_MS } from './recovery.ts'

// Enough for any day's deletions; the rest wait for the next run.
const PURGE_LIMIT = 200

export async function purgeDeletedAccounts(db: Db, now: number): Promise<number> {
  const expired = await deletedUserIdsBefore(db, now - RECOVERY_PERIOD_MS, PURGE_LIMIT)
  let purged = 0
  // One batch per account, so a failure leaves whole accounts only.
  for (const id of expired) if (await deleteUser(db, id)) purged++
  return purged
}
