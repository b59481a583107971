// The frame of a notice about one contest (a reminder, a reschedule): what it says on each channel
// as of the send, given the kind's own title and verb. A notice whose contest is unknown says what
// was stored.
import { escapeHtml, escapeMultiline, safeHref } from '../../lib/html.ts'
import { contestView } from './contest-view.ts'
import { button, layout, para, plainEmail, textFooter, type EmailContent } from './email-layout.ts'
import { defineKind, type NotificationKind } from './kind.ts'
import {
  payloadText,
  storedHeadline,
  type ContentContext,
  type Recipient,
  type StoredNotification,
} from './rendering.ts'
import { formatDuration } from '../../contests/describe.ts'
import { formatTime, formatUntil } from '../../lib/time-words.ts'
import { SNOOZE_BUTTON_TEXT } from '../snooze-link.ts'

const MUTE_QUESTION = 'Not interested in this contest?'

/** The one-step mute link, small, under the contest's button; nothing without a safe link. */
function muteHtml(url: string | undefined): string {
  const href = safeHref(url)
  if (!href) return ''
  return para(
    `<span style="font-size:13px;color:#52606d">${MUTE_QUESTION} ` +
      `<a href="${href}" style="color:#52606d">Mute it</a>.</span>`,
  )
}

/** The snooze link of a reminder, beside the contest's button; nothing without a safe link. */
function snoozeHtml(url: string | undefined): string {
  const href = safeHref(url)
  if (!href) return ''
  return para(`<a href="${href}" style="color:#2563eb">${SNOOZE_BUTTON_TEXT}</a>`)
}

export interface NoticeWording {
  /** The payload's kind. */
  name: string
  /** The title from the contest's name and when it starts ("starts in 45 minutes"). */
  title: (name: string, when: string) => string
  /** What the contest does, as in "<name> on <platform> <verb> at <time>." */
  verb: string
}

/** "<name> on <platform> <verb> <when>.": the stored message, the summary and the email's lead. */
export function noticeSentence(
  wording: NoticeWording,
  name: string,
  platform: string,
  when: string,
) {
  return `${name} on ${platform} ${wording.verb} ${when}.`
}

export function contestNoticeKind(wording: NoticeWording): NotificationKind {
  const headline = (n: StoredNotification, ctx: ContentContext) => {
    const contest = contestView(n, ctx)
    if (contest?.startTime === undefined) return storedHeadline(n)
    const when =
      contest.startTime > ctx.now
        ? `starts ${formatUntil(contest.startTime - ctx.now)}`
        : 'has started'
    return wording.title(contest.name, when)
  }

  const summary = (n: StoredNotification, r: Recipient, ctx: ContentContext) => {
    const contest = contestView(n, ctx)
    if (!contest) return n.message
    const when =
      contest.startTime !== undefined ? formatTime(contest.startTime, r.timezone) : 'soon'
    const lead = noticeSentence(wording, contest.name, contest.platform, `at ${when}`)
    const custom = payloadText(n.payload?.customMessage)
    return custom ? `${lead} ${custom}` : lead
  }

  const email = (n: StoredNotification, r: Recipient, ctx: ContentContext): EmailContent => {
    const subject = headline(n, ctx)
    const contest = contestView(n, ctx)
    if (!contest) return plainEmail(subject, summary(n, r, ctx), r, ctx)
    const start = contest.startTime
    const when =
      start !== undefined
        ? `at ${formatTime(start, r.timezone)} (${formatUntil(start - ctx.now)})`
        : 'soon'
    const details = [
      contest.type && `Type: ${contest.type}`,
      contest.durationMinutes !== undefined &&
        `Duration: ${formatDuration(contest.durationMinutes)}`,
    ].filter((d): d is string => typeof d === 'string')
    const custom = payloadText(n.payload?.customMessage)
    const name = `<strong>${escapeHtml(contest.name)}</strong>`
    const html =
      para(`Hello ${escapeHtml(r.name)},`) +
      para(noticeSentence(wording, name, escapeHtml(contest.platform), escapeHtml(when))) +
      (details.length ? para(escapeHtml(details.join(' · '))) : '') +
      (custom ? para(escapeMultiline(custom)) : '') +
      button(safeHref(contest.url), 'Open the contest') +
      snoozeHtml(ctx.snoozeUrl) +
      muteHtml(ctx.muteUrl)
    const text =
      `Hello ${r.name},\n\n${noticeSentence(wording, contest.name, contest.platform, when)}\n` +
      (details.length ? `${details.join(' · ')}\n` : '') +
      (custom ? `\n${custom}\n` : '') +
      (contest.url ? `\n${contest.url}\n` : '') +
      (ctx.snoozeUrl ? `\n${SNOOZE_BUTTON_TEXT}: ${ctx.snoozeUrl}\n` : '') +
      (ctx.muteUrl ? `\n${MUTE_QUESTION} Mute it: ${ctx.muteUrl}\n` : '') +
      textFooter(ctx)
    return { subject, html: layout(subject, html, ctx), text }
  }

  return defineKind({ name: wording.name, headline, summary, email })
}
