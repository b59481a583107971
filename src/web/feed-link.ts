// The address of the public iCalendar feed with the page's platform, type and duration filters.
import type { HomeQuery } from './home-query.ts'

export const FEED_PATH = '/contests/calendar.ics'

/**
 * The feed takes comma-separated lists and the same duration filters; search words are not a feed
 * filter, so `q` is left out.
 */
export function feedLink(query: HomeQuery): string {
  const parts: string[] = []
  if (query.platforms.length > 0) parts.push(`platform=${query.platforms.join(',')}`)
  if (query.type) parts.push(`type=${query.type}`)
  if (query.minDuration) parts.push(`minDuration=${query.minDuration}`)
  if (query.maxDuration) parts.push(`maxDuration=${query.maxDuration}`)
  return parts.length > 0 ? `${FEED_PATH}?${parts.join('&')}` : FEED_PATH
}
