// A notification as a Slack message: Block Kit blocks (a header, the summary, a button to the
// contest, its start in the reader's own time) and the plain `text` Slack shows in notifications.
import type { ChannelText } from '../define.ts'

// Block Kit's limits: a header's text 150 characters, a section's 3,000, a message's text 40,000.
const HEADER_LIMIT = 150
const SECTION_LIMIT = 3000

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text

/** Slack's mrkdwn reads &, < and > as markup; everything else is literal. */
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function blockKitMessage(t: ChannelText) {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(t.headline, HEADER_LIMIT) } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: clip(escapeMrkdwn(t.summary), SECTION_LIMIT) },
    },
  ]
  if (t.startTime !== undefined) {
    // Slack renders <!date^…> in each reader's own time zone; the text after | is the fallback.
    const seconds = Math.floor(t.startTime / 1000)
    const fallback = new Date(t.startTime).toISOString()
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Starts <!date^${seconds}^{date_short_pretty} at {time}|${fallback}>`,
        },
      ],
    })
  }
  if (t.url) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Open the contest page' },
          url: t.url,
        },
      ],
    })
  }
  return {
    // Slack reads the fallback as mrkdwn as well: `<!channel>` in a name would ping everyone.
    text: clip(escapeMrkdwn(`${t.headline}: ${t.summary}`), SECTION_LIMIT),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  }
}
