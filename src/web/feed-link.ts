// The address of the public iCalendar feed with the page's platform and type filters.
import type { HomeQuery } from './home-query.ts'

export const FEED_PATH = '/contests/calendar.ics'

/** The feed takes comma-separated lists; search words are not a feed filter, so `q` is left out. */
export function feedLink(query: HomeQuery): string {
  const parts: string[] = []
  if (query.platforms.length > 0) parts.push(`platform=${query.platforms.join(',')}`)
  if (query.type) parts.push(`type=${query.type}`)
  return parts.length > 0 ? `${FEED_PATH}?${parts.join('&')}` : FEED_PATH
}
