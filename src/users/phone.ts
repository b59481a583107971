// When a user's phone number may carry WhatsApp messages: only the exact number a code proved.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users, type UserRow } from '../db/schema.ts'
import { liveUserById } from './live.ts'

type PhoneState = Pick<UserRow, 'phoneNumber' | 'phoneVerifiedNumber'>

/**
 * True when the account's number is the one verified. Comparing the numbers (not only reading a
 * flag) keeps any write that changes phone_number without clearing the verification harmless.
 * VERIFIED_PHONE_SQL in users/recipients.ts states the same rule in SQL.
 */
export function isPhoneVerified(row: PhoneState): boolean {
  return row.phoneNumber != null && row.phoneVerifiedNumber === row.phoneNumber
}

/**
 * The columns that set the phone number. In the same UPDATE the verification is kept only when
 * the new number is the verified one (SQLite evaluates the CASE against the row before the
 * update), so changing the number drops it atomically and re-sending the same number does not.
 */
export function phoneNumberColumns(phoneNumber: string | null) {
  const unchanged = sql`${users.phoneVerifiedNumber} IS ${phoneNumber}`
  return {
    phoneNumber,
    phoneVerifiedAt: sql`CASE WHEN ${unchanged} THEN ${users.phoneVerifiedAt} END`,
    phoneVerifiedNumber: sql`CASE WHEN ${unchanged} THEN ${users.phoneVerifiedNumber} END`,
  }
}

/**
 * Records that `phone` was proven by a code, only while it is still the account's number (a
 * change in between makes the proof worthless); false when it no longer is.
 */
export async function markPhoneVerified(db: Db, userId: string, phone: string, now: number) {
  const marked = await db
    .update(users)
    .set({ phoneVerifiedAt: now, phoneVerifiedNumber: phone, updatedAt: now })
    .where(and(liveUserById(userId), eq(users.phoneNumber, phone)))
    .returning({ id: users.id })
  return marked.length > 0
}
