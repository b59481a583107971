// The buttons under a Telegram message about one contest: Follow and Mute, answered by the bot
// through callback queries (flow/callbacks.ts), Add to calendar, a link to the contest's .ics,
// and under a reminder that offers it, the snooze ("Remind me 10 minutes before").
import type { ChannelText } from '../define.ts'
import type { InlineButton } from './bot-api.ts'

export type ButtonAction = 'follow' | 'mute' | 'snooze'

// callback_data holds at most 64 bytes: the action and the contest's 24 hex digits fit.
const CALLBACK_DATA = /^(follow|mute|snooze):([0-9a-f]{24})$/

/** The rows of buttons for a message, or none when it is not about one contest. */
export function contestButtons(t: ChannelText): InlineButton[][] | undefined {
  if (!t.contestId) return undefined
  const rows: InlineButton[][] = [
    [
      { text: 'Follow', callback_data: `follow:${t.contestId}` },
      { text: 'Mute', callback_data: `mute:${t.contestId}` },
    ],
  ]
  if (t.snooze) rows.push([{ text: t.snooze.label, callback_data: `snooze:${t.contestId}` }])
  // Telegram refuses a link button to a local address, which would fail the whole message.
  if (t.calendarUrl?.startsWith('https://')) {
    rows.push([{ text: 'Add to calendar', url: t.calendarUrl }])
  }
  return rows
}

/** What a pressed button asks for; undefined for data the bot never made. */
export function readButton(data: string | undefined) {
  const match = CALLBACK_DATA.exec(data ?? '')
  return match ? { action: match[1] as ButtonAction, contestId: match[2] } : undefined
}
