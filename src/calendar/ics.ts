// iCalendar (RFC 5545) text of a feed through ical-generator, which folds lines at 75 octets,
// escapes event text and writes times in UTC; the only module that knows the library.
import ical, { ICalAlarmType } from 'ical-generator'
import { singleLine } from '../lib/plain-text.ts'

export interface CalendarAlarm {
  minutesBefore: number
  description: string
}

/** Times are epoch milliseconds. */
export interface CalendarEvent {
  uid: string
  start: number
  end: number
  stamp: number
  lastModified: number
  sequence: number
  summary: string
  description: string
  url?: string
  alarms: readonly CalendarAlarm[]
}

export interface CalendarHeader {
  name: string
  /** How often a client should fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  refreshSeconds: number
}

/** Clients that honour it fetch a feed hourly: contests move by hours, not minutes. */
export const FEED_REFRESH_SECONDS = 3600

const PRODUCT = { company: 'Contest Alert Service', product: 'Contest calendar', language: 'EN' }

/**
 * A TEXT value (RFC 5545 3.3.11) written as it is: ical-generator escapes an event's SUMMARY and
 * DESCRIPTION but writes the calendar's NAME and X-WR-CALNAME raw, so a line break there would
 * start a property of its own. One line, then backslash, semicolon and comma escaped.
 */
const icalText = (text: string) => singleLine(text).replace(/[\\;,]/g, (ch) => `\\${ch}`)

/**
 * Event text the library escapes: line breaks kept as `\n` (it writes them so, the description's
 * own lines), every other control character dropped, which TEXT may not hold.
 */
const eventText = (text: string) =>
  text
    .split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)
    .map(singleLine)
    .join('\n')

export function renderCalendar(header: CalendarHeader, events: readonly CalendarEvent[]): string {
  // No METHOD: a subscribed feed is a published store, whose DTSTAMP is the event's last revision.
  const calendar = ical({
    prodId: PRODUCT,
    name: icalText(header.name),
    ttl: header.refreshSeconds,
  })
  for (const e of events) {
    const event = calendar.createEvent({
      id: e.uid,
      start: new Date(e.start),
      end: new Date(e.end),
      stamp: new Date(e.stamp),
      lastModified: new Date(e.lastModified),
      sequence: e.sequence,
      summary: eventText(e.summary),
      description: eventText(e.description),
      url: e.url ?? null,
    })
    for (const alarm of e.alarms) {
      event.createAlarm({
        type: ICalAlarmType.display,
        triggerBefore: alarm.minutesBefore * 60,
        description: eventText(alarm.description),
      })
    }
  }
  // RFC 5545 ends every content line with CRLF, the last one too; the library leaves it off.
  return `${calendar.toString()}\r\n`
}
