// The public feed: every active contest in the window that passes the query's filters.
import { calendarContests } from '../contests/calendar.ts'
import type { Db } from '../db/client.ts'
import { contestEvent } from './contest-event.ts'
import { FEED_REFRESH_SECONDS, renderCalendar } from './ics.ts'
import type { CalendarQueryInput } from './schemas.ts'

export async function publicFeed(db: Db, query: CalendarQueryInput, now: number): Promise<string> {
  const rows = await calendarContests(
    db,
    {
      platforms: query.platform,
      types: query.type,
      minDuration: query.minDuration,
      maxDuration: query.maxDuration,
    },
    now,
  )
  const events = rows.map((row) => contestEvent(row))
  return renderCalendar(
    { name: 'Programming contests', refreshSeconds: FEED_REFRESH_SECONDS },
    events,
  )
}
