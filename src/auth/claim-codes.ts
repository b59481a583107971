// The claim codes of the Communities page, kept with the other one-time codes in email_codes under
// the purpose 'claim_community'. Unlike a mailed code, one is found by its hash alone (the chat that
// sends it names no account), and it is spent only by the statement the claiming batch runs after
// its write, so a code gives one community to one account whatever races (communities/claims.ts).
import { and, eq, exists, gt, type SQL } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/sqlite-core'
import type { Db } from '../db/client.ts'
import { emailCodes } from '../db/schema.ts'

const PURPOSE = 'claim_community'

// The fragment below runs inside the caller's statement; it needs no db of its own.
const qb = new QueryBuilder()

const liveWithHash = (codeHash: string, now: number) =>
  and(
    eq(emailCodes.purpose, PURPOSE),
    eq(emailCodes.codeHash, codeHash),
    gt(emailCodes.expiresAt, now),
  )

/** Stores the account's new code, replacing any earlier one: only the newest code works. */
export function storeClaimCodeStatement(
  db: Db,
  input: { userId: string; codeHash: string; expiresAt: number },
  now: number,
) {
  const values = {
    codeHash: input.codeHash,
    attempts: 0,
    expiresAt: input.expiresAt,
    createdAt: now,
  }
  return db
    .insert(emailCodes)
    .values({ userId: input.userId, purpose: PURPOSE, ...values })
    .onConflictDoUpdate({ target: [emailCodes.userId, emailCodes.purpose], set: values })
}

/** The account whose live claim code has that hash, if any (the claiming batch checks again). */
export async function claimCodeHolder(db: Db, codeHash: string, now: number) {
  const row = await db
    .select({ userId: emailCodes.userId })
    .from(emailCodes)
    .where(liveWithHash(codeHash, now))
    .get()
  return row?.userId
}

/** For the caller's statement: the account's claim code is live and has that hash. */
export const liveClaimCode = (userId: string, codeHash: string, now: number): SQL =>
  exists(
    qb
      .select({ userId: emailCodes.userId })
      .from(emailCodes)
      .where(and(eq(emailCodes.userId, userId), liveWithHash(codeHash, now))),
  )

/**
 * Spends the account's code with that hash, only while `done` (the caller's condition: what the
 * code was for happened) holds; to batch after the write it checks.
 */
export function spendClaimCodeStatement(db: Db, userId: string, codeHash: string, done: SQL) {
  return db
    .delete(emailCodes)
    .where(
      and(
        eq(emailCodes.userId, userId),
        eq(emailCodes.purpose, PURPOSE),
        eq(emailCodes.codeHash, codeHash),
        done,
      ),
    )
    .returning({ userId: emailCodes.userId })
}
