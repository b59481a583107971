// iCalendar (RFC 5545) text of a feed through ical-generator, which folds lines at 75 octets,
// escapes text and writes times in UTC; the only module that knows the library.
import ical, { ICalAlarmType } from 'ical-generator'

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

export function renderCalendar(header: CalendarHeader, events: readonly CalendarEvent[]): string {
  // No METHOD: a subscribed feed is a published store, whose DTSTAMP is the event's last revision.
  const calendar = ical({ prodId: PRODUCT, name: header.name, ttl: header.refreshSeconds })
  for (const e of events) {
    const event = calendar.createEvent({
      id: e.uid,
      start: new Date(e.start),
      end: new Date(e.end),
      stamp: new Date(e.stamp),
      lastModified: new Date(e.lastModified),
      sequence: e.sequence,
      summary: e.summary,
      description: e.description,
      url: e.url ?? null,
    })
    for (const alarm of e.alarms) {
      event.createAlarm({
        type: ICalAlarmType.display,
        triggerBefore: alarm.minutesBefore * 60,
        description: alarm.description,
      })
    }
  }
  // RFC 5545 ends every content line with CRLF, the last one too; the library leaves it off.
  return `${calendar.toString()}\r\n`
}
