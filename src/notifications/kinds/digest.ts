// The daily and weekly digest: one email listing the contests of the next day or week that match
// the user's preferences. The stored message lists them as they were; the email lists them as
// they are at send time, in the recipient's time zone.
import type { ContestRow } from '../../db/schema.ts'
import { escapeHtml, safeHref } from '../../lib/html.ts'
import { toIso } from '../../lib/time.ts'
import { EMAIL_ONLY, type NotificationSpec } from '../spec.ts'
import { layout, para, textFooter, type EmailContent } from './email-layout.ts'
import { defineKind } from './kind.ts'
import {
  payloadText,
  storedHeadline,
  type ContentContext,
  type Recipient,
  type StoredNotification,
} from './rendering.ts'
import { platformName } from '../../contests/describe.ts'
import { formatTime } from '../../lib/time-words.ts'

export type DigestFrequency = 'daily' | 'weekly'

const NAME = 'digest'
// The stored message lists this many contests; the email lists them all.
const LISTED_IN_MESSAGE = 20
const NONE_LEFT = 'The contests of this digest are no longer scheduled.'

const digestTitle = (frequency: DigestFrequency, count: number) =>
  `Your ${frequency} contest digest: ${count} contest${count === 1 ? '' : 's'}`

const period = (frequency: DigestFrequency) =>
  frequency === 'daily' ? 'the next 24 hours' : 'the next 7 days'

/** One line of the list: "- Round 1 (Codeforces), Sun, 22 Nov 2026, 14:35 UTC". */
const listLine = (c: ContestRow, zone?: string) =>
  `- ${c.name} (${platformName(c.platform)}), ${formatTime(c.startTime, zone)}`

export function digestSpec(
  frequency: DigestFrequency,
  localDate: string,
  contests: readonly ContestRow[],
  from: number,
  until: number,
): NotificationSpec {
  const count = contests.length
  const lines = contests.slice(0, LISTED_IN_MESSAGE).map((c) => listLine(c))
  if (count > LISTED_IN_MESSAGE) lines.push(`- and ${count - LISTED_IN_MESSAGE} more`)
  return {
    contestId: null,
    type: 'CONTEST_REMINDER',
    dedupeKey: `${frequency}:${localDate}`,
    title: digestTitle(frequency, count),
    message: `Contests in ${period(frequency)}:\n${lines.join('\n')}`,
    payload: {
      kind: NAME,
      frequency,
      date: localDate,
      from: toIso(from),
      until: toIso(until),
      contestIds: contests.map((c) => c.id),
    },
    channels: EMAIL_ONLY,
    scheduledAt: from,
  }
}

/** The contests a digest lists that still exist, soonest first. */
function listedContests(n: StoredNotification, ctx: ContentContext): ContestRow[] {
  const ids = Array.isArray(n.payload?.contestIds) ? (n.payload.contestIds as unknown[]) : []
  return ids
    .map((id) => (typeof id === 'string' ? ctx.contests.get(id) : undefined))
    .filter((c): c is ContestRow => c !== undefined)
    .sort((a, b) => a.startTime - b.startTime)
}

const frequencyOf = (n: StoredNotification): DigestFrequency =>
  payloadText(n.payload?.frequency) === 'weekly' ? 'weekly' : 'daily'

function summary(n: StoredNotification, r: Recipient, ctx: ContentContext): string {
  const contests = listedContests(n, ctx)
  if (contests.length === 0) return NONE_LEFT
  return contests
    .map((c) => `${c.name} (${platformName(c.platform)}) ${formatTime(c.startTime, r.timezone)}`)
    .join('; ')
}

function email(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const contests = listedContests(n, ctx)
  const frequency = frequencyOf(n)
  const subject = digestTitle(frequency, contests.length)
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
    ? '<table style="border-collapse:collapse;width:100%;font-size:14px;margin:0 0 16px">' +
      `${rows}</table>`
    : para(NONE_LEFT)
  const html =
    para(`Hello ${escapeHtml(r.name)},`) + para(`Contests in ${period(frequency)}:`) + table
  const text =
    `Hello ${r.name},\n\nContests in ${period(frequency)}:\n` +
    contests
      .map((c) => listLine(c, r.timezone) + `${c.websiteUrl ? `\n  ${c.websiteUrl}` : ''}`)
      .join('\n') +
    textFooter(ctx)
  return { subject, html: layout(subject, html, ctx), text }
}

export const digestKind = defineKind({
  name: NAME,
  // The stored title: push and WhatsApp never carry a digest (email only).
  headline: storedHeadline,
  summary,
  email,
  expiresAtContestStart: false,
})
