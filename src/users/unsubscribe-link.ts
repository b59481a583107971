// The signed one-click unsubscribe link of non-transactional emails (RFC 8058): its token, its URL
// and the List-Unsubscribe headers that carry it, and checking a token.
import type { Env } from '../env.ts'
import { linkOn, linkSigner } from './signed-link.ts'

/** Where the link points: the confirmation page (GET) and the unsubscribe itself (POST). */
export const UNSUBSCRIBE_PATH = '/unsubscribe'

const signer = linkSigner('email-unsubscribe-link', 'unsubscribe-email')
const TOKEN = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/

/** `<user id>.<signature>`: the id is hex, so the dot cannot be ambiguous. */
export async function unsubscribeToken(env: Env, userId: string): Promise<string> {
  return `${userId}.${await signer.sign(env, [userId])}`
}

export async function unsubscribeLink(env: Env, appUrl: string, userId: string): Promise<string> {
  return linkOn(appUrl, UNSUBSCRIBE_PATH, await unsubscribeToken(env, userId))
}

/** The RFC 8058 headers: mail clients POST `List-Unsubscribe=One-Click` to the link. */
export const listUnsubscribeHeaders = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
})

/** The user a token names when its signature is ours; undefined if malformed or forged. */
export async function readUnsubscribeToken(env: Env, token: string): Promise<string | undefined> {
  const match = TOKEN.exec(token)
  if (!match) return undefined
  return (await signer.verify(env, [match[1]], match[2])) ? match[1] : undefined
}
