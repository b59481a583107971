// The one email to the account that claimed a destination when it died: which service, the chat
// service's reason, and the way back (subscribe again from the chat; the Communities page lists
// it). Only to a live account's proven address, and quoting nothing a chat's members chose: a
// group's title is whatever its creator typed, so the mail names the place by its service and id.
import { sendEmail } from '../channels/email/resend.ts'
import type { Db } from '../db/client.ts'
import type { CommunityDestinationRow } from '../db/schema.ts'
import { settings, type Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { findUser } from '../users/queries.ts'

const PLACES = { telegram: 'Telegram chat', discord: 'Discord channel' } as const

/** The subject and text of the notice; no part of it comes from the chat's members. */
function ownerNotice(d: CommunityDestinationRow, appUrl: string) {
  const place = PLACES[d.channel]
  const why = d.deadReason ?? 'the bot can no longer post there'
  const page = `${appUrl.replace(/\/+$/, '')}/app/communities`
  const text =
    `Contest announcements to the ${place} ${d.chatId} that your account claimed have stopped: ` +
    `${why}. Add the bot back (or give it the permission) and subscribe again from the chat.`
  return { subject: `[Contest Alerts] Announcements to a ${place} you claimed stopped`, text, page }
}

export async function tellOwner(env: Env, db: Db, d: CommunityDestinationRow) {
  if (!d.ownerId) return
  const owner = await findUser(db, d.ownerId)
  // An unproven address may be someone else's: it hears nothing about chats.
  if (!owner || owner.emailVerifiedAt == null) return
  const { subject, text, page } = ownerNotice(d, settings(env).APP_URL)
  const result = await sendEmail(env, {
    to: owner.email,
    subject,
    text: `${text}\n\nYour communities: ${page}`,
    html: `<p>${escapeHtml(text)}</p><p><a href="${escapeHtml(page)}">Your communities</a></p>`,
    // One email per death of this destination, even if two sends learn it at once.
    idempotencyKey: `community-dead-${d.id}-${d.deadAt}`,
  }).catch((error: unknown) => ({ ok: false, error: String(error) }))
  if (!result.ok) log.warn('community-owner-notice-failed', { error: result.error })
}
