// The next contests as a Discord embed: each a linked name, its platform, and its start as a
// Discord timestamp, which every reader's client shows in their own time zone.
import { contestUrl, formatDuration, platformName } from '../../../contests/describe.ts'
import type { ContestRow } from '../../../db/schema.ts'

// The service's accent, as Discord wants it: an integer RGB.
const EMBED_COLOR = 0x2563eb

/** Markdown Discord would read in a contest's name. */
const escapeMarkdown = (text: string) => text.replace(/([\\*_~`|>[\]()])/g, '\\$1')

function line(c: ContestRow): string {
  const name = escapeMarkdown(c.name)
  const url = contestUrl(c)
  const start = Math.floor(c.startTime / 1000)
  return (
    `**${url ? `[${name}](${url})` : name}** · ${platformName(c.platform)}\n` +
    `<t:${start}:F> (<t:${start}:R>) · ${formatDuration(c.durationMinutes)}`
  )
}

export function upcomingEmbed(rows: readonly ContestRow[], platform: string | undefined) {
  const what = platform ? `${platformName(platform)} contests` : 'contests'
  return {
    title: `Upcoming ${what}`,
    description:
      rows.length > 0 ? rows.map(line).join('\n\n') : `No upcoming ${what} in the catalogue.`,
    color: EMBED_COLOR,
    footer: { text: 'Contest Alert Service' },
  }
}
