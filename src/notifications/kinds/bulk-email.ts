// The bulk email: an admin's subject and HTML (and optional text) sent to up to 1000 chosen
// users. It goes out as written: HTML by intent, and only admins can send it.
import { escapeMultiline } from '../../lib/html.ts'
import { EMAIL_ONLY, type NotificationSpec } from '../spec.ts'
import { defineKind } from './kind.ts'
import { payloadText, storedHeadline } from './rendering.ts'

const NAME = 'bulk'

export interface BulkEmailText {
  subject: string
  html: string
  text?: string
}

export function bulkEmailSpec(
  email: BulkEmailText,
  dedupeKey: string,
  now: number,
): NotificationSpec {
  return {
    contestId: null,
    type: 'SYSTEM_ALERT',
    dedupeKey,
    title: email.subject,
    message: email.text ?? email.subject,
    payload: {
      kind: NAME,
      subject: email.subject,
      html: email.html,
      ...(email.text && { text: email.text }),
    },
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
}

export const bulkEmailKind = defineKind({
  name: NAME,
  headline: storedHeadline,
  summary: (n) => n.message,
  email: (n) => ({
    subject: storedHeadline(n),
    html: payloadText(n.payload?.html) ?? escapeMultiline(n.message),
    text: payloadText(n.payload?.text) ?? n.message,
  }),
})
