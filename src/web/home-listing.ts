// What the home page lists: contests running now and those starting in the next two weeks.
import { comingContests } from '../contests/coming.ts'
import type { Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import { DAY_MS } from '../lib/time.ts'
import type { HomeQuery } from './home-query.ts'

/** Far enough to plan the next weekends; the feed reaches further for those who subscribe. */
export const HOME_WINDOW_DAYS = 14

/** Four platforms hold a few dozen contests in two weeks; the bound keeps the page light. */
export const HOME_LIMIT = 200

export interface HomeListing {
  running: ContestRow[]
  upcoming: ContestRow[]
}

export async function homeListing(db: Db, query: HomeQuery, now: number): Promise<HomeListing> {
  const rows = await comingContests(
    db,
    {
      platforms: query.platforms.length > 0 ? query.platforms : undefined,
      type: query.type,
      text: query.q,
      until: now + HOME_WINDOW_DAYS * DAY_MS,
      limit: HOME_LIMIT,
    },
    now,
  )
  return {
    running: rows.filter((row) => row.startTime <= now),
    upcoming: rows.filter((row) => row.startTime > now),
  }
}
