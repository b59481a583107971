// The snooze of a reminder ("Remind me 10 minutes before"): when a reminder offers it, and the
// signed link that asks for it from an email or a push notification (Telegram's button names the
// contest alone, as the presser's chat names the account). The link needs no sign-in, so it is
// signed like the mute link, and it expires.
import type { Env } from '../env.ts'
import { DAY_MS, MINUTE_MS } from '../lib/time.ts'
import { linkOn, linkSigner } from '../users/signed-link.ts'

/** The snooze's reminder comes this long before the start. */
export const SNOOZE_LEAD_MINUTES = 10
export const SNOOZE_LEAD_MS = SNOOZE_LEAD_MINUTES * MINUTE_MS

/**
 * A link works this long after its message was sent: past the reminders' longest look-ahead, so
 * a link keeps working while its contest is days away (and after a reschedule to later), but a
 * copy found in an old mailbox does not.
 */
export const SNOOZE_LINK_TTL_MS = 7 * DAY_MS

/** Where the link points: a page (GET, changes nothing) and the snooze itself (POST). */
export const SNOOZE_LINK_PATH = '/notifications/snooze'

/** What a press says, on every channel (Telegram's answer, the page, the JSON's message). */
export const SNOOZE_BUTTON_TEXT = `Remind me ${SNOOZE_LEAD_MINUTES} minutes before`

/** A reminder sent now offers the snooze while its contest is further away than the snooze. */
export const offersSnooze = (type: string, startTime: number | undefined, now: number) =>
  type === 'CONTEST_REMINDER' && startTime !== undefined && startTime - now > SNOOZE_LEAD_MS

export interface SnoozeClaim {
  userId: string
  contestId: string
}

export type SnoozeTokenRead =
  | { kind: 'valid'; claim: SnoozeClaim }
  /** Malformed, or not signed by this service: forged or changed. */
  | { kind: 'invalid' }
  /** Ours, but past its lifetime. */
  | { kind: 'expired' }

const signer = linkSigner('reminder-snooze-link', 'snooze')
// Ids are hex and the expiry decimal seconds, so the dots cannot be ambiguous.
const TOKEN = /^([0-9a-f]{24})\.([0-9a-f]{24})\.(\d{10})\.([A-Za-z0-9_-]{43})$/
/** The token's fixed length, for the query's bound. */
export const SNOOZE_TOKEN_LENGTH = 24 + 1 + 24 + 1 + 10 + 1 + 43

/** `<user id>.<contest id>.<expiry in seconds>.<signature>`, good for SNOOZE_LINK_TTL_MS. */
export async function snoozeToken(env: Env, claim: SnoozeClaim, now: number): Promise<string> {
  const expires = String(Math.floor((now + SNOOZE_LINK_TTL_MS) / 1000))
  const signature = await signer.sign(env, [claim.userId, claim.contestId, expires])
  return `${claim.userId}.${claim.contestId}.${expires}.${signature}`
}

export async function snoozeLink(
  env: Env,
  appUrl: string,
  claim: SnoozeClaim,
  now: number,
): Promise<string> {
  return linkOn(appUrl, SNOOZE_LINK_PATH, await snoozeToken(env, claim, now))
}

/** What a token names; the signature is checked before the expiry, so a forgery never "expired". */
export async function readSnoozeToken(
  env: Env,
  token: string,
  now: number,
): Promise<SnoozeTokenRead> {
  const match = TOKEN.exec(token)
  if (!match) return { kind: 'invalid' }
  const [, userId, contestId, expires, signature] = match
  if (!(await signer.verify(env, [userId, contestId, expires], signature))) {
    return { kind: 'invalid' }
  }
  if (Number(expires) * 1000 <= now) return { kind: 'expired' }
  return { kind: 'valid', claim: { userId, contestId } }
}
