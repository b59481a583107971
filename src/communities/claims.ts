// An account claims a community destination: the web app gives a one-time code (15 minutes, kept
// in KV as its SHA-256 only), an administrator of the chat sends it there with /claim, and the
// destination's owner becomes that account, which then manages it (owned.ts) and hears when it
// stops.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { communityDestinations } from '../db/schema.ts'
import { randomBytes, sha256Hex } from '../lib/crypto.ts'
import type { KeyValueStore } from '../ports/key-value.ts'
import type { Place } from './destinations.ts'

const PREFIX = 'community-claim:'
export const CLAIM_CODE_TTL_SECONDS = 15 * 60
// No 0/O or 1/I: the code is read off one screen and typed into another.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 10

export const isClaimCode = (text: string) =>
  text.length === CODE_LENGTH && [...text].every((ch) => ALPHABET.includes(ch))

/** A new code for `userId`, shown once. */
export async function issueClaimCode(kv: KeyValueStore, userId: string): Promise<string> {
  const code = [...randomBytes(CODE_LENGTH)].map((b) => ALPHABET[b % ALPHABET.length]).join('')
  await kv.put(`${PREFIX}${await sha256Hex(code)}`, userId, {
    expirationTtl: CLAIM_CODE_TTL_SECONDS,
  })
  return code
}

export type ClaimOutcome = 'claimed' | 'unknown-code' | 'no-destination'

/** Gives the place's destination to the code's account, spending the code. */
export async function redeemClaimCode(
  kv: KeyValueStore,
  db: Db,
  code: string,
  place: Pick<Place, 'channel' | 'chatId'>,
  now: number,
): Promise<ClaimOutcome> {
  const normalized = code.trim().toUpperCase()
  if (!isClaimCode(normalized)) return 'unknown-code'
  const key = `${PREFIX}${await sha256Hex(normalized)}`
  const userId = await kv.get(key)
  if (!userId) return 'unknown-code'
  const claimed = await db
    .update(communityDestinations)
    .set({ ownerId: userId, updatedAt: now })
    .where(
      and(
        eq(communityDestinations.channel, place.channel),
        eq(communityDestinations.chatId, place.chatId),
      ),
    )
    .returning({ id: communityDestinations.id })
  if (claimed.length === 0) return 'no-destination'
  await kv.delete(key)
  return 'claimed'
}

/** What a bot replies to /claim. */
export function claimWords(outcome: ClaimOutcome): string {
  if (outcome === 'claimed') {
    return 'Claimed: the account that made the code manages these announcements on its Communities page.'
  }
  if (outcome === 'no-destination') return 'Subscribe first, then claim with the same code.'
  return 'That code is unknown or expired. Make a new one on the Communities page (codes last 15 minutes).'
}
