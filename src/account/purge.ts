// The daily removal of accounts soft-deleted more than 30 days ago (past the recovery period), and
// of accounts whose address nobody proved within 7 days: both are deleted for good, with
// everything they own, and their email address is free again.
import type { Db } from '../db/client.ts'
import { DAY_MS } from '../lib/time.ts'
import { deletedUserIdsBefore, unprovenUserIdsBefore } from '../users/soft-delete.ts'
import { deleteUser } from './deletion.ts'
import { RECOVERY_PERIOD_MS } from './recovery.ts'

// Enough for any day's deletions; the rest wait for the next run.
const PURGE_LIMIT = 200

/**
 * How long an address may stay unproven. Whoever signs up with someone else's address holds it
 * only this long; the owner can then sign up afresh (and can always take it over sooner with the
 * mailed code or a reset).
 */
export const UNPROVEN_ACCOUNT_TTL_MS = 7 * DAY_MS

async function deleteAll(db: Db, ids: string[]): Promise<number> {
  let purged = 0
  // One batch per account, so a failure leaves whole accounts only.
  for (const id of ids) if (await deleteUser(db, id)) purged++
  return purged
}

export async function purgeDeletedAccounts(db: Db, now: number): Promise<number> {
  return deleteAll(db, await deletedUserIdsBefore(db, now - RECOVERY_PERIOD_MS, PURGE_LIMIT))
}

export async function purgeUnprovenAccounts(db: Db, now: number): Promise<number> {
  return deleteAll(db, await unprovenUserIdsBefore(db, now - UNPROVEN_ACCOUNT_TTL_MS, PURGE_LIMIT))
}
