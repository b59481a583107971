// The one email to the account that claimed a destination when it died: where, and the chat
// service's reason, with the way back (subscribe again from the chat).
import { sendEmail } from '../channels/email/resend.ts'
import type { Db } from '../db/client.ts'
import type { CommunityDestinationRow } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { findUser } from '../users/queries.ts'
import { SERVICE_NAMES } from './describe.ts'

export async function tellOwner(env: Env, db: Db, d: CommunityDestinationRow) {
  if (!d.ownerId) return
  const owner = await findUser(db, d.ownerId)
  if (!owner) return
  const where = `${SERVICE_NAMES[d.channel]} ${d.title ? `“${d.title}”` : d.chatId}`
  const why = d.deadReason ?? 'the bot can no longer post there'
  const text =
    `Contest announcements to ${where} have stopped: ${why}. ` +
    'Add the bot back (or give it the permission) and subscribe again from the chat.'
  const result = await sendEmail(env, {
    to: owner.email,
    subject: `[Contest Alerts] Announcements to ${where} stopped`,
    text,
    html: `<p>${escapeHtml(text)}</p>`,
    // One email per death of this destination, even if two sends learn it at once.
    idempotencyKey: `community-dead-${d.id}-${d.deadAt}`,
  }).catch((error: unknown) => ({ ok: false, error: String(error) }))
  if (!result.ok) log.warn('community-owner-notice-failed', { error: result.error })
}
