// Reads iCalendar feeds with a real parser (Mozilla's ical.js), so tests check what clients see.
import ICAL from 'ical.js'
import { expect } from 'vitest'
import { call } from './worker.ts'

export interface ParsedEvent {
  uid: string
  summary: string
  description: string
  url: string | undefined
  start: number
  end: number
  stamp: number
  lastModified: number
  sequence: number
  /** Each VALARM as [action, trigger in seconds from the start (negative: before)]. */
  alarms: [string, number][]
}

const ms = (value: unknown) => (value as ICAL.Time).toJSDate().getTime()

export function parseFeed(text: string): { name: string; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text))
  expect(calendar.name).toBe('vcalendar')
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0')
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent)
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      url: (vevent.getFirstPropertyValue('url') as string | null) ?? undefined,
      start: event.startDate.toJSDate().getTime(),
      end: event.endDate.toJSDate().getTime(),
      stamp: ms(vevent.getFirstPropertyValue('dtstamp')),
      lastModified: ms(vevent.getFirstPropertyValue('last-modified')),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      alarms: vevent
        .getAllSubcomponents('valarm')
        .map((alarm): [string, number] => [
          alarm.getFirstPropertyValue('action') as string,
          (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds(),
        ]),
    }
  })
  return { name: String(calendar.getFirstPropertyValue('x-wr-calname')), events }
}

/** Fetches a feed that must answer 200 with iCalendar text, and parses it. */
export async function fetchFeed(path: string, init: RequestInit = {}) {
  const res = await call(path, init)
  expect(res.status, await res.clone().text()).toBe(200)
  expect(res.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
  const text = await res.text()
  return { res, text, ...parseFeed(text) }
}

/** The raw content lines (RFC 5545 separates them with CRLF). */
export const contentLines = (text: string) => text.split('\r\n')
