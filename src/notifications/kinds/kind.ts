// The shape every notification kind has at send time: its email, its WhatsApp template variables
// and its push payload. Push and WhatsApp say the kind's headline and summary; the email is the
// kind's own, or the plain one of the same two texts.
import { toIso } from '../../lib/time.ts'
import { discordMessage, telegramText, type DiscordMessage } from './chat.ts'
import { contestView } from './contest-view.ts'
import { plainEmail, type EmailContent } from './email-layout.ts'
import type { ContentContext, Recipient, StoredNotification } from './rendering.ts'

type Render<T> = (n: StoredNotification, recipient: Recipient, ctx: ContentContext) => T

export interface NotificationKind {
  /** The payload's `kind` that selects this module. */
  name: string
  email: Render<EmailContent>
  /** The template variables of a WhatsApp message: {{1}} the headline, {{2}} the summary. */
  whatsapp: Render<string[]>
  push: Render<PushPayload>
  /** A Telegram message in the Bot API's HTML. */
  telegram: Render<string>
  /** A Discord execute-webhook body. */
  discord: Render<DiscordMessage>
  /** Whether a push may be dropped once the notification's contest has started. */
  pushExpiresAtContestStart: boolean
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
  pushExpiresAtContestStart?: boolean
}

export type PushPayload = ReturnType<typeof pushPayload>

/** The Web Push payload: small, since a push message carries at most about 4 KB. */
function pushPayload(title: string, body: string, n: StoredNotification, ctx: ContentContext) {
  const contest = contestView(n, ctx)
  return {
    title: title.slice(0, 200),
    body: body.length > 1000 ? `${body.slice(0, 999)}…` : body,
    tag: n.id,
    ...(contest?.url && { url: contest.url }),
    data: {
      notificationId: n.id,
      type: n.type,
      ...(n.contestId && { contestId: n.contestId }),
      ...(contest?.startTime !== undefined && { startTime: toIso(contest.startTime) }),
    },
  }
}

export function defineKind(text: KindText): NotificationKind {
  const { headline, summary } = text
  return {
    name: text.name,
    email: text.email ?? ((n, r, ctx) => plainEmail(headline(n, ctx), summary(n, r, ctx), r, ctx)),
    whatsapp: (n, r, ctx) => [headline(n, ctx), summary(n, r, ctx)],
    push: (n, r, ctx) => pushPayload(headline(n, ctx), summary(n, r, ctx), n, ctx),
    telegram: (n, r, ctx) => telegramText(headline(n, ctx), summary(n, r, ctx), n, ctx),
    discord: (n, r, ctx) => discordMessage(headline(n, ctx), summary(n, r, ctx), n, ctx),
    pushExpiresAtContestStart: text.pushExpiresAtContestStart ?? true,
  }
}
