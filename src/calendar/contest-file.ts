// One contest as an iCalendar file, for "add to calendar": the same event the feeds carry.
import { findContest } from '../contests/queries.ts'
import type { Db } from '../db/client.ts'
import { contestEvent } from './contest-event.ts'
import { FEED_REFRESH_SECONDS, renderCalendar } from './ics.ts'

/** The file of contest `id`, or undefined when no contest has that id. */
export async function contestFile(db: Db, id: string): Promise<string | undefined> {
  const contest = await findContest(db, id)
  if (!contest) return undefined
  // The same UID as in the feeds, so a calendar holding both keeps one event.
  return renderCalendar({ name: contest.name, refreshSeconds: FEED_REFRESH_SECONDS }, [
    contestEvent(contest),
  ])
}
