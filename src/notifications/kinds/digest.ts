// The daily and weekly digest: one email listing the contests of the next day or week that match
// the user's preferences, and the results of the user's own proven handles published since the
// last digest. The stored message lists the contests as they were; the email lists them as they
// are at send time, in the recipient's time zone. Results are final numbers: kept in the payload
// as they were told.
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
import { entryWords, type ResultEntry } from './result.ts'

export type DigestFrequency = 'daily' | 'weekly'

const NAME = 'digest'
// The stored message lists this many contests; the email lists them all.
const LISTED_IN_MESSAGE = 20
const NONE_LEFT = 'The contests of this digest are no longer scheduled.'

/** One of the user's results a digest carries: a handle's line in a contest. */
export interface DigestResult extends ResultEntry {
  contestId: string
  contestName: string
  platform: string
  rated: boolean
  participants: number | null
  url?: string
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

const digestTitle = (frequency: DigestFrequency, count: number, results = 0) =>
  `Your ${frequency} contest digest: ${plural(count, 'contest')}` +
  (results > 0 ? `, ${plural(results, 'result')}` : '')

const RESULTS_LEAD = 'Your results since the last digest:'

/** "- Round 1 (Codeforces, unrated): tourist: rank 3 of 20,000, ...". */
const resultLine = (r: DigestResult) =>
  `- ${r.contestName} (${platformName(r.platform)}${r.rated ? '' : ', unrated'}): ` +
  `${r.handle}: ${entryWords(r, r.participants)}`

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
  results: readonly DigestResult[] = [],
): NotificationSpec {
  const count = contests.length
  const lines = contests.slice(0, LISTED_IN_MESSAGE).map((c) => listLine(c))
  if (count > LISTED_IN_MESSAGE) lines.push(`- and ${count - LISTED_IN_MESSAGE} more`)
  const sections = [
    ...(count > 0 ? [`Contests in ${period(frequency)}:\n${lines.join('\n')}`] : []),
    ...(results.length > 0 ? [`${RESULTS_LEAD}\n${results.map(resultLine).join('\n')}`] : []),
  ]
  return {
    contestId: null,
    type: 'CONTEST_REMINDER',
    dedupeKey: `${frequency}:${localDate}`,
    title: digestTitle(frequency, count, results.length),
    message: sections.join('\n\n'),
    payload: {
      kind: NAME,
      frequency,
      date: localDate,
      from: toIso(from),
      until: toIso(until),
      contestIds: contests.map((c) => c.id),
      ...(results.length > 0 && { results }),
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

/** The results a stored digest carries (payloads are stored JSON). */
function resultsOf(n: StoredNotification): DigestResult[] {
  const list = n.payload?.results
  return Array.isArray(list)
    ? list.filter(
        (e): e is DigestResult =>
          typeof e === 'object' && e !== null && 'handle' in e && 'contestName' in e,
      )
    : []
}

/** The digest listed contests when it was made (one carrying results only lists none). */
const listedAny = (n: StoredNotification) =>
  !Array.isArray(n.payload?.contestIds) || n.payload.contestIds.length > 0

function summary(n: StoredNotification, r: Recipient, ctx: ContentContext): string {
  const contests = listedContests(n, ctx)
  const results = resultsOf(n).map((e) => resultLine(e).slice(2))
  const listed = contests.map(
    (c) => `${c.name} (${platformName(c.platform)}) ${formatTime(c.startTime, r.timezone)}`,
  )
  if (listed.length === 0 && listedAny(n)) listed.push(NONE_LEFT)
  return [...listed, ...results].join('; ')
}

/** The email's section of results: a table of contest, handle and numbers. */
function resultsHtml(results: readonly DigestResult[]) {
  if (results.length === 0) return ''
  const cell = 'style="padding:6px 8px;border-bottom:1px solid #e4e7eb"'
  const rows = results
    .map((e) => {
      const href = safeHref(e.url ?? null)
      const name = href
        ? `<a href="${href}" style="color:#2563eb">${escapeHtml(e.contestName)}</a>`
        : escapeHtml(e.contestName)
      return (
        `<tr><td ${cell}>${name}</td><td ${cell}>${escapeHtml(e.handle)}</td>` +
        `<td ${cell}>${escapeHtml(entryWords(e, e.participants))}</td></tr>`
      )
    })
    .join('')
  return (
    para(RESULTS_LEAD) +
    '<table style="border-collapse:collapse;width:100%;font-size:14px;margin:0 0 16px">' +
    `${rows}</table>`
  )
}

function email(n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent {
  const contests = listedContests(n, ctx)
  const results = resultsOf(n)
  const frequency = frequencyOf(n)
  const subject = digestTitle(frequency, contests.length, results.length)
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
  const showContests = contests.length > 0 || listedAny(n)
  const html =
    para(`Hello ${escapeHtml(r.name)},`) +
    (showContests ? para(`Contests in ${period(frequency)}:`) + table : '') +
    resultsHtml(results)
  const contestText = showContests
    ? `\n\nContests in ${period(frequency)}:\n` +
      (contests.length
        ? contests
            .map((c) => listLine(c, r.timezone) + `${c.websiteUrl ? `\n  ${c.websiteUrl}` : ''}`)
            .join('\n')
        : NONE_LEFT)
    : ''
  const resultText = results.length
    ? `\n\n${RESULTS_LEAD}\n` +
      results.map((e) => resultLine(e) + `${e.url ? `\n  ${e.url}` : ''}`).join('\n')
    : ''
  const text = `Hello ${r.name},${contestText}${resultText}` + textFooter(ctx)
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
