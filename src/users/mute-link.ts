// The signed mute link of reminder emails: building its token and URL, and checking a token.
import type { Env } from '../env.ts'
import { linkOn, linkSigner } from './signed-link.ts'

/** Where the link points: the confirmation page (GET) and the mute itself (POST). */
export const MUTE_LINK_PATH = '/subscriptions/mute'

export interface MuteClaim {
  userId: string
  contestId: string
}

const signer = linkSigner('contest-mute-link', 'mute')
const TOKEN = /^([0-9a-f]{24})\.([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/

/** `<user id>.<contest id>.<signature>`: ids are hex, so the dots cannot be ambiguous. */
export async function muteToken(env: Env, claim: MuteClaim): Promise<string> {
  const signature = await signer.sign(env, [claim.userId, claim.contestId])
  return `${claim.userId}.${claim.contestId}.${signature}`
}

/** The absolute link for an email, on the service's public address (APP_URL). */
export async function muteLink(env: Env, appUrl: string, claim: MuteClaim): Promise<string> {
  return linkOn(appUrl, MUTE_LINK_PATH, await muteToken(env, claim))
}

/** What a token names when its signature is ours; undefined for anything malformed or forged. */
export async function readMuteToken(env: Env, token: string): Promise<MuteClaim | undefined> {
  const match = TOKEN.exec(token)
  if (!match) return undefined
  const claim = { userId: match[1], contestId: match[2] }
  const ours = await signer.verify(env, [claim.userId, claim.contestId], match[3])
  return ours ? claim : undefined
}
