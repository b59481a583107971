// The chat renderings of every kind: a Telegram message (Bot API HTML) and a Discord webhook body
// (one embed), both made of the kind's headline and summary and the contest's link.
import { escapeHtml } from '../../lib/html.ts'
import { contestView } from './contest-view.ts'
import type { ContentContext, StoredNotification } from './rendering.ts'

// Telegram caps a message at 4,096 characters; Discord an embed's title at 256, its text at 4,096.
const TELEGRAM_LIMIT = 4000
const EMBED_TITLE_LIMIT = 256
const EMBED_TEXT_LIMIT = 4000
// The service's accent, as Discord wants it: an integer RGB.
const EMBED_COLOR = 0x2563eb

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text

/** Bot API `parse_mode: HTML`: the headline in bold, the summary, and the contest's link. */
export function telegramText(
  headline: string,
  summary: string,
  n: StoredNotification,
  ctx: ContentContext,
): string {
  const url = contestView(n, ctx)?.url
  const link = url ? `\n\n<a href="${escapeHtml(url)}">Open the contest page</a>` : ''
  return `<b>${escapeHtml(clip(headline, 300))}</b>\n\n${escapeHtml(clip(summary, TELEGRAM_LIMIT - 600))}${link}`
}

export interface DiscordMessage {
  embeds: {
    title: string
    description: string
    url?: string
    color: number
    timestamp?: string
    footer: { text: string }
  }[]
  /** No @everyone or role pings, whatever the text says. */
  allowed_mentions: { parse: never[] }
}

/** An execute-webhook body: one embed linking the contest, timestamped with its start. */
export function discordMessage(
  headline: string,
  summary: string,
  n: StoredNotification,
  ctx: ContentContext,
): DiscordMessage {
  const contest = contestView(n, ctx)
  return {
    embeds: [
      {
        title: clip(headline, EMBED_TITLE_LIMIT),
        description: clip(summary, EMBED_TEXT_LIMIT),
        ...(contest?.url && { url: contest.url }),
        color: EMBED_COLOR,
        ...(contest?.startTime !== undefined && {
          timestamp: new Date(contest.startTime).toISOString(),
        }),
        footer: { text: 'Contest Alert Service' },
      },
    ],
    allowed_mentions: { parse: [] },
  }
}
