// The shape every notification kind has at send time: its headline and summary, which every
// channel module renders in its own form (src/channels/<id>/), and its email, the kind's own or
// the plain one of the same two texts.
import type { ChannelText } from '../../channels/define.ts'
import { contestCalendarPath } from '../../contests/describe.ts'
import { contestView } from './contest-view.ts'
import { plainEmail, type EmailContent } from './email-layout.ts'
import type { ContentContext, Recipient, StoredNotification } from './rendering.ts'

type Render<T> = (n: StoredNotification, recipient: Recipient, ctx: ContentContext) => T

export interface NotificationKind {
  /** The payload's `kind` that selects this module. */
  name: string
  email: Render<EmailContent>
  /** The words every other channel renders from. */
  text: Render<ChannelText>
}

export interface KindText {
  name: string
  /** The title as of the send ("starts in 45 minutes"): email subject, push title, {{1}}. */
  headline: (n: StoredNotification, ctx: ContentContext) => string
  /** One paragraph of plain text in the recipient's time zone: push body, {{2}}. */
  summary: Render<string>
  /** The kind's own email; the plain email of headline and summary when left out. */
  email?: Render<EmailContent>
  /** Defaults to true; a digest lists several contests, so the first one's start says nothing. */
  expiresAtContestStart?: boolean
}

export function defineKind(kind: KindText): NotificationKind {
  const { headline, summary } = kind
  const expires = kind.expiresAtContestStart ?? true
  return {
    name: kind.name,
    email: kind.email ?? ((n, r, ctx) => plainEmail(headline(n, ctx), summary(n, r, ctx), r, ctx)),
    text: (n, r, ctx) => {
      const contest = contestView(n, ctx)
      // The calendar file needs the contest in the catalogue; a removed one has none.
      const listed = n.contestId && ctx.contests.has(n.contestId) ? n.contestId : undefined
      return {
        notificationId: n.id,
        type: n.type,
        headline: headline(n, ctx),
        summary: summary(n, r, ctx),
        ...(n.contestId && { contestId: n.contestId }),
        ...(contest?.url && { url: contest.url }),
        ...(contest?.startTime !== undefined && { startTime: contest.startTime }),
        ...(listed && { calendarUrl: `${ctx.appUrl}${contestCalendarPath(listed)}` }),
        ...(expires && contest?.startTime !== undefined && { expiresAt: contest.startTime }),
        now: ctx.now,
      }
    },
  }
}
