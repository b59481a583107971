// The signed mute link of reminder emails: building its token and URL, and checking a token.
import type { Env } from '../env.ts'
import { hmacKey, hmacSha256, timingSafeEqualText, toBase64Url } from '../lib/crypto.ts'
import { jwtConfig } from '../lib/jwt-config.ts'

/** Where the link points: the confirmation page (GET) and the mute itself (POST). */
export const MUTE_LINK_PATH = '/subscriptions/mute'

export interface MuteClaim {
  userId: string
  contestId: string
}

// The key is derived under its own label, so a token can never serve as (or reveal anything of)
// an access-token signature or a stored code's hash, which use JWT_SECRET differently.
const KEY_LABEL = 'contest-mute-link'
// The purpose is signed too: a later link for another action cannot be made from this one.
const PURPOSE = 'mute'
const TOKEN = /^([0-9a-f]{24})\.([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/

const keys = new WeakMap<object, Promise<CryptoKey>>()

function muteKey(env: Env): Promise<CryptoKey> {
  let key = keys.get(env)
  if (!key) {
    const secret = jwtConfig(env).secret
    key = hmacKey(secret)
      .then((root) => hmacSha256(root, KEY_LABEL))
      .then(hmacKey)
    keys.set(env, key)
  }
  return key
}

async function signature(env: Env, { userId, contestId }: MuteClaim): Promise<string> {
  const mac = await hmacSha256(await muteKey(env), `${PURPOSE}\n${userId}\n${contestId}`)
  return toBase64Url(mac)
}

/** `<user id>.<contest id>.<signature>`: ids are hex, so the dots cannot be ambiguous. */
export async function muteToken(env: Env, claim: MuteClaim): Promise<string> {
  return `${claim.userId}.${claim.contestId}.${await signature(env, claim)}`
}

/** The absolute link for an email, on the service's public address (APP_URL). */
export async function muteLink(env: Env, appUrl: string, claim: MuteClaim): Promise<string> {
  const token = await muteToken(env, claim)
  return `${appUrl.replace(/\/+$/, '')}${MUTE_LINK_PATH}?token=${token}`
}

/** What a token names when its signature is ours; undefined for anything malformed or forged. */
export async function readMuteToken(env: Env, token: string): Promise<MuteClaim | undefined> {
  const match = TOKEN.exec(token)
  if (!match) return undefined
  const claim = { userId: match[1], contestId: match[2] }
  const expected = await signature(env, claim)
  return timingSafeEqualText(expected, match[3]) ? claim : undefined
}
