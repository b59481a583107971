// The next contests as a Telegram message (Bot API HTML): each a linked name, its platform, its
// start in UTC (a chat has no time zone of its own) and how far off it is.
import { contestUrl, formatDuration, platformName } from '../../../contests/describe.ts'
import type { ContestRow } from '../../../db/schema.ts'
import { escapeHtml } from '../../../lib/html.ts'
import { formatTime, formatUntil } from '../../../lib/time-words.ts'

function entry(c: ContestRow, now: number): string {
  const url = contestUrl(c)
  const name = url
    ? `<a href="${escapeHtml(url)}">${escapeHtml(c.name)}</a>`
    : `<b>${escapeHtml(c.name)}</b>`
  return (
    `${name} · ${escapeHtml(platformName(c.platform))}\n` +
    `${formatTime(c.startTime)}, ${formatUntil(c.startTime - now)} · ${formatDuration(c.durationMinutes)}`
  )
}

export function contestListText(
  title: string,
  rows: readonly ContestRow[],
  empty: string,
  now: number,
): string {
  if (rows.length === 0) return escapeHtml(empty)
  return `<b>${escapeHtml(title)}</b>\n\n${rows.map((c) => entry(c, now)).join('\n\n')}`
}
