// Notification emails: HTML and text for reminders, reschedules, digests, announcements and bulk
// messages. Every value that came from a person or a platform is escaped.
import { escapeHtml, escapeMultiline, safeHref } from '../lib/html.ts'
import {
  contestView,
  digestContests,
  headline,
  kindOf,
  str,
  summary,
  type ContentContext,
  type Recipient,
  type StoredNotification,
} from './content.ts'
import { formatDuration, formatTime, formatUntil, platformName } from './wording.ts'

export interface EmailContent {
  subject: string
  html: string
  text: string
}

const para = (html: string) => `<p style="margin:0 0 16px">${html}</p>`

function button(href: string | undefined, label: string): string {
  if (!href) return ''
  return para(
    `<a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;` +
      `color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>`,
  )
}

function layout(heading: string, body: string, appUrl: string): string {
  const manage = safeHref(appUrl)
  const footer = manage
    ? `You get this email because of your Contest Alerts preferences. ` +
      `<a href="${manage}" style="color:#7b8794">Change them</a>.`
    : 'You get this email because of your Contest Alerts preferences.'
  return (
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f5f7fa">' +
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;' +
    'font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">' +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}` +
    `<p style="margin:32px 0 0;font-size:12px;color:#7b8794">${footer}</p></div></body></html>`
  )
}

const textFooter = (appUrl: string) =>
  `\n\n--\nYou get this email because of your Contest Alerts preferences: ${appUrl}\n`

function reminderEmail(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const subject = headline(n, ctx)
  const contest = contestView(n, ctx)
  if (!contest) return plainEmail(n, r, ctx)
  const rescheduled = kindOf(n) === 'reschedule'
  const when =
    contest.startTime !== undefined
      ? `at ${formatTime(contest.startTime, r.timezone)} (${formatUntil(contest.startTime - ctx.now)})`
      : 'soon'
  const details = [
    contest.type && `Type: ${contest.type}`,
    contest.durationMinutes !== undefined && `Duration: ${formatDuration(contest.durationMinutes)}`,
  ].filter((d): d is string => typeof d === 'string')
  const custom = str(n.payload?.customMessage)
  const lead = rescheduled ? 'has been rescheduled. It now starts' : 'starts'
  const html =
    para(`Hello ${escapeHtml(r.name)},`) +
    para(
      `<strong>${escapeHtml(contest.name)}</strong> on ${escapeHtml(contest.platform)} ` +
        `${lead} ${escapeHtml(when)}.`,
    ) +
    (details.length ? para(escapeHtml(details.join(' · '))) : '') +
    (custom ? para(escapeMultiline(custom)) : '') +
    button(safeHref(contest.url), 'Open the contest')
  const text =
    `Hello ${r.name},\n\n${contest.name} on ${contest.platform} ${lead} ${when}.\n` +
    (details.length ? `${details.join(' · ')}\n` : '') +
    (custom ? `\n${custom}\n` : '') +
    (contest.url ? `\n${contest.url}\n` : '') +
    textFooter(ctx.appUrl)
  return { subject, html: layout(subject, html, ctx.appUrl), text }
}

function digestEmail(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const contests = digestContests(n, ctx)
  const weekly = str(n.payload?.frequency) === 'weekly'
  const period = weekly ? 'the next 7 days' : 'the next 24 hours'
  const subject = `Your ${weekly ? 'weekly' : 'daily'} contest digest: ${contests.length} contest${
    contests.length === 1 ? '' : 's'
  }`
  const rows = contests
    .map((c) => {
      const href = safeHref(c.websiteUrl ?? c.registrationUrl)
      const name = href
        ? `<a href="${href}" style="color:#2563eb">${escapeHtml(c.name)}</a>`
        : escapeHtml(c.name)
      const cell = 'style="padding:6px 8px;border-bottom:1px solid #e4e7eb"'
      return (
        `<tr><td ${cell}>${name}</td><td ${cell}>${escapeHtml(platformName(c.platform))}</td>` +
        `<td ${cell}>${escapeHtml(formatTime(c.startTime, r.timezone))}</td></tr>`
      )
    })
    .join('')
  const table = contests.length
    ? `<table style="border-collapse:collapse;width:100%;font-size:14px;margin:0 0 16px">${rows}</table>`
    : para('The contests of this digest are no longer scheduled.')
  const html = para(`Hello ${escapeHtml(r.name)},`) + para(`Contests in ${period}:`) + table
  const text =
    `Hello ${r.name},\n\nContests in ${period}:\n` +
    contests
      .map(
        (c) =>
          `- ${c.name} (${platformName(c.platform)}), ${formatTime(c.startTime, r.timezone)}` +
          `${c.websiteUrl ? `\n  ${c.websiteUrl}` : ''}`,
      )
      .join('\n') +
    textFooter(ctx.appUrl)
  return { subject, html: layout(subject, html, ctx.appUrl), text }
}

function announcementEmail(n: StoredNotification, r: Recipient, ctx: ContentContext) {
  const subject = str(n.payload?.subject) ?? n.title
  const title = str(n.payload?.title) ?? n.title
  const message = str(n.payload?.message) ?? n.message
  const url = str(n.payload?.actionUrl)
  const action = str(n.payload?.actionText) ?? 'Learn more'
  const html =
    para(`Hello ${escapeHtml(r.name)},`) +
    para(escapeMultiline(message)) +
    button(safeHref(url), action)
  const text =
    `Hello ${r.name},\n\n${title}\n\n${message}\n` +
    (url ? `\n${action}: ${url}\n` : '') +
    textFooter(ctx.appUrl)
  return { subject, html: layout(title, html, ctx.appUrl), text }
}

function plainEmail(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const subject = headline(n, ctx)
  const message = summary(n, r, ctx)
  const html = para(`Hello ${escapeHtml(r.name)},`) + para(escapeMultiline(message))
  const text = `Hello ${r.name},\n\n${message}\n${textFooter(ctx.appUrl)}`
  return { subject, html: layout(subject, html, ctx.appUrl), text }
}

/**
 * The email for a notification. Bulk emails carry the HTML an admin wrote, sent as written:
 * it is HTML by intent, and only admins can send it.
 */
export function renderEmail(
  n: StoredNotification,
  recipient: Recipient,
  ctx: ContentContext,
): EmailContent {
  const kind = kindOf(n)
  if (kind === 'reminder' || kind === 'reschedule') return reminderEmail(n, recipient, ctx)
  if (kind === 'digest') return digestEmail(n, recipient, ctx)
  if (kind === 'announcement') return announcementEmail(n, recipient, ctx)
  if (kind === 'bulk') {
    return {
      subject: str(n.payload?.subject) ?? n.title,
      html: str(n.payload?.html) ?? escapeMultiline(n.message),
      text: str(n.payload?.text) ?? n.message,
    }
  }
  return plainEmail(n, recipient, ctx)
}
