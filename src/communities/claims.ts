// An account claims a community destination: the web app gives a one-time code (15 minutes, kept
// as its SHA-256 with the account's other one-time codes, auth/claim-codes.ts), an administrator
// of the chat sends it there with /claim, and the destination's owner becomes that account, which
// then manages it (owned.ts) and hears when it stops. Only a live account with a proven address
// makes a code or is given a community: whoever signed up with someone else's address holds none.
import { and, eq, exists } from 'drizzle-orm'
import {
  claimCodeHolder,
  liveClaimCode,
  spendClaimCodeStatement,
  storeClaimCodeStatement,
} from '../auth/claim-codes.ts'
import type { Db } from '../db/client.ts'
import { communityDestinations } from '../db/schema.ts'
import { forbidden } from '../lib/errors.ts'
import { randomBytes, sha256Hex } from '../lib/crypto.ts'
import { liveProvenUser } from '../users/live.ts'
import { findUser } from '../users/queries.ts'
import { at, findDestination, type PlaceKey } from './destinations.ts'

export const CLAIM_CODE_TTL_SECONDS = 15 * 60
// No 0/O or 1/I: the code is read off one screen and typed into another.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 10

export const UNVERIFIED_CANNOT_CLAIM =
  'Verify your email address first: an unverified account cannot claim a community'

export const isClaimCode = (text: string) =>
  text.length === CODE_LENGTH && [...text].every((ch) => ALPHABET.includes(ch))

/**
 * A new code for the account, shown once, replacing its earlier one; undefined when the account is
 * gone (deleted), 403 while its address is unproven.
 */
export async function issueClaimCode(db: Db, userId: string, now: number) {
  const user = await findUser(db, userId)
  if (!user) return undefined
  if (user.emailVerifiedAt == null) throw forbidden(UNVERIFIED_CANNOT_CLAIM)
  const code = [...randomBytes(CODE_LENGTH)].map((b) => ALPHABET[b % ALPHABET.length]).join('')
  const expiresAt = now + CLAIM_CODE_TTL_SECONDS * 1000
  await storeClaimCodeStatement(db, { userId, codeHash: await sha256Hex(code), expiresAt }, now)
  return { code, expiresAt }
}

export type ClaimOutcome = 'claimed' | 'unknown-code' | 'no-destination'

/**
 * Gives the place's destination to the code's account, spending the code. One batch (one
 * transaction): the owner is set only while the code is live and its account live and proven,
 * and the code is spent only where that happened, so two chats racing with one code cannot both
 * have it, and a code sent before the chat subscribed is kept for a second try.
 */
export async function redeemClaimCode(
  db: Db,
  code: string,
  place: PlaceKey,
  now: number,
): Promise<ClaimOutcome> {
  const normalized = code.trim().toUpperCase()
  if (!isClaimCode(normalized)) return 'unknown-code'
  const codeHash = await sha256Hex(normalized)
  const userId = await claimCodeHolder(db, codeHash, now)
  if (!userId) return 'unknown-code'
  const ownedHere = db
    .select({ id: communityDestinations.id })
    .from(communityDestinations)
    .where(and(at(place), eq(communityDestinations.ownerId, userId)))
  const [claimed] = await db.batch([
    db
      .update(communityDestinations)
      .set({ ownerId: userId, updatedAt: now })
      .where(and(at(place), liveClaimCode(userId, codeHash, now), liveProvenUser(userId)))
      .returning({ id: communityDestinations.id }),
    spendClaimCodeStatement(db, userId, codeHash, exists(ownedHere)),
  ])
  if (claimed.length > 0) return 'claimed'
  return (await findDestination(db, place)) ? 'unknown-code' : 'no-destination'
}

/** What a bot replies to /claim. */
export function claimWords(outcome: ClaimOutcome): string {
  if (outcome === 'claimed') {
    return 'Claimed: the account that made the code manages these announcements on its Communities page.'
  }
  if (outcome === 'no-destination') return 'Subscribe first, then claim with the same code.'
  return 'That code is unknown or expired. Make a new one on the Communities page (codes last 15 minutes).'
}
