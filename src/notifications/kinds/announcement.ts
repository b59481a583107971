// The announcement: an admin's subject, title and message (and an optional action link) emailed
// to every user the filters select, rendered in the common email frame.
import { escapeHtml, escapeMultiline, safeHref } from '../../lib/html.ts'
import { EMAIL_ONLY, type NotificationSpec } from '../spec.ts'
import { button, layout, para, textFooter, type EmailContent } from './email-layout.ts'
import { defineKind } from './kind.ts'
import {
  payloadText,
  storedHeadline,
  type ContentContext,
  type Recipient,
  type StoredNotification,
} from './rendering.ts'

const NAME = 'announcement'

export interface AnnouncementText {
  subject: string
  title: string
  message: string
  actionUrl?: string
  actionText?: string
}

export function announcementSpec(
  text: AnnouncementText,
  dedupeKey: string,
  now: number,
): NotificationSpec {
  return {
    contestId: null,
    type: 'SYSTEM_ALERT',
    dedupeKey,
    title: text.title,
    message: text.message,
    payload: {
      kind: NAME,
      subject: text.subject,
      title: text.title,
      message: text.message,
      ...(text.actionUrl && { actionUrl: text.actionUrl }),
      ...(text.actionText && { actionText: text.actionText }),
    },
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
}

function email(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const subject = storedHeadline(n)
  const title = payloadText(n.payload?.title) ?? n.title
  const message = payloadText(n.payload?.message) ?? n.message
  const url = payloadText(n.payload?.actionUrl)
  const action = payloadText(n.payload?.actionText) ?? 'Learn more'
  const html =
    para(`Hello ${escapeHtml(r.name)},`) +
    para(escapeMultiline(message)) +
    button(safeHref(url), action)
  const text =
    `Hello ${r.name},\n\n${title}\n\n${message}\n` +
    (url ? `\n${action}: ${url}\n` : '') +
    textFooter(ctx)
  return { subject, html: layout(title, html, ctx), text }
}

export const announcementKind = defineKind({
  name: NAME,
  headline: storedHeadline,
  summary: (n) => n.message,
  email,
})
