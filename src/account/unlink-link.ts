// The signed removal links of the password-changed notice: each names an account, what it removes
// (one kind of destination, or everything with every session) and when it stops working, so a
// mail that leaks later (a forwarded message, an old mailbox) removes nothing after 7 days.
import type { ListDestinationRemovals } from '../auth/security-notices.ts'
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { DAY_MS } from '../lib/time.ts'
import { linkOn, linkSigner } from '../users/signed-link.ts'
import { linkedDestinations, REMOVAL_KINDS, type RemovalKind } from './destinations.ts'

/** The web app's page the links open: a GET shows what goes, its button POSTs. */
export const UNLINK_PATH = '/app/account/unlink'

export const UNLINK_LINK_TTL_MS = 7 * DAY_MS

const signer = linkSigner('account-unlink-link', 'unlink-destination')

// `<user id>.<kind>.<expiry, ms>.<signature>`: hex, a word, digits and base64url, so every dot
// separates; the expiry has 13 digits until the year 2286.
const TOKEN = new RegExp(
  `^([0-9a-f]{24})\\.(${REMOVAL_KINDS.join('|')})\\.(\\d{13})\\.([A-Za-z0-9_-]{43})$`,
)

/** The longest token: the id, the longest kind, the expiry, the signature and three dots. */
export const UNLINK_TOKEN_MAX_LENGTH =
  24 + Math.max(...REMOVAL_KINDS.map((kind) => kind.length)) + 13 + 43 + 3

export async function unlinkToken(
  env: Env,
  userId: string,
  kind: RemovalKind,
  now: number,
): Promise<string> {
  const expires = String(now + UNLINK_LINK_TTL_MS)
  return `${userId}.${kind}.${expires}.${await signer.sign(env, [userId, kind, expires])}`
}

export async function unlinkLink(
  env: Env,
  appUrl: string,
  userId: string,
  kind: RemovalKind,
  now: number,
): Promise<string> {
  return linkOn(appUrl, UNLINK_PATH, await unlinkToken(env, userId, kind, now))
}

export type UnlinkClaim =
  { ok: true; userId: string; kind: RemovalKind } | { ok: false; reason: 'invalid' | 'expired' }

/**
 * What a token asks, when its signature is ours and it has not expired. The signature is checked
 * first, so "expired" is never said of a forged token.
 */
export async function readUnlinkToken(env: Env, token: string, now: number): Promise<UnlinkClaim> {
  const match = token.length <= UNLINK_TOKEN_MAX_LENGTH ? TOKEN.exec(token) : null
  if (!match) return { ok: false, reason: 'invalid' }
  const [, userId, kind, expires, signature] = match
  if (!(await signer.verify(env, [userId, kind, expires], signature))) {
    return { ok: false, reason: 'invalid' }
  }
  if (Number(expires) <= now) return { ok: false, reason: 'expired' }
  return { ok: true, userId, kind: kind as RemovalKind }
}

/**
 * What the password-changed notice lists: each linked destination with its removal link, and the
 * link that removes everything and signs out everywhere. Handed to auth, which sits below.
 */
export const destinationRemovals: ListDestinationRemovals = async (env, userId, now) => {
  const linked = await linkedDestinations(createDb(env.DB), userId)
  if (!linked) return undefined
  const appUrl = settings(env).APP_URL
  const link = (kind: RemovalKind) => unlinkLink(env, appUrl, userId, kind, now)
  return {
    items: await Promise.all(
      linked.map(async ({ kind, label }) => ({ label, removeUrl: await link(kind) })),
    ),
    removeAllUrl: await link('all'),
    validDays: UNLINK_LINK_TTL_MS / DAY_MS,
  }
}
