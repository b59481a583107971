// Six-digit codes (mailed, or sent over WhatsApp to verify a phone number): bound to a user and a
// purpose, optionally to a value such as the number, 10 minutes, 3 attempts, stored as an HMAC.
import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { emailCodes } from '../db/schema.ts'
import { hmacSha256Hex, randomDigits, timingSafeEqualText } from '../lib/crypto.ts'
import { MINUTE_MS } from '../lib/time.ts'

export type CodePurpose = 'verify_email' | 'reset_password'
/** Every purpose a stored code can have: the mailed ones and the phone number's WhatsApp code. */
export type StoredCodePurpose = CodePurpose | 'verify_phone'

export const CODE_TTL_MS = 10 * MINUTE_MS
export const MAX_CODE_ATTEMPTS = 3
const CODE_DIGITS = 6

/**
 * Keyed with a secret pepper: a leaked table does not let anyone try the million codes offline.
 * `boundTo` is hashed in, so the code checks only against that same value (the number it went to).
 */
function codeHash(
  key: CryptoKey,
  userId: string,
  purpose: StoredCodePurpose,
  code: string,
  boundTo: string | undefined,
) {
  const bound = boundTo === undefined ? '' : `:${boundTo}`
  return hmacSha256Hex(key, `${purpose}:${userId}:${code}${bound}`)
}

/**
 * A fresh code and the statement that stores it, replacing any earlier code of that purpose (so
 * only the newest mailed code works). The caller batches the statement with its other writes.
 */
export async function newCode(
  db: Db,
  key: CryptoKey,
  userId: string,
  purpose: StoredCodePurpose,
  now: number,
  boundTo?: string,
) {
  const code = randomDigits(CODE_DIGITS)
  const expiresAt = now + CODE_TTL_MS
  const values = {
    codeHash: await codeHash(key, userId, purpose, code, boundTo),
    attempts: 0,
    expiresAt,
    createdAt: now,
  }
  const statement = db
    .insert(emailCodes)
    .values({ userId, purpose, ...values })
    .onConflictDoUpdate({ target: [emailCodes.userId, emailCodes.purpose], set: values })
  return { code, expiresAt, statement }
}

/**
 * True when `code` is the live code of that purpose; it is then used up. Every check counts as
 * an attempt before the comparison, so concurrent guesses cannot exceed the allowance.
 */
export async function consumeCode(
  db: Db,
  key: CryptoKey,
  userId: string,
  purpose: StoredCodePurpose,
  code: string,
  now: number,
  boundTo?: string,
): Promise<boolean> {
  const mine = and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, purpose))
  const [live] = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(and(mine, lt(emailCodes.attempts, MAX_CODE_ATTEMPTS), gt(emailCodes.expiresAt, now)))
    .returning({ codeHash: emailCodes.codeHash })
  if (!live) return false
  const expected = await codeHash(key, userId, purpose, code, boundTo)
  if (!timingSafeEqualText(live.codeHash, expected)) return false
  // Deleting with the hash as a condition makes the code single-use even under concurrency.
  const used = await db
    .delete(emailCodes)
    .where(and(mine, eq(emailCodes.codeHash, live.codeHash)))
    .returning({ userId: emailCodes.userId })
  return used.length > 0
}
