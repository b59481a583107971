// What the home page lists: the next contest, contests running now and those starting in the next
// two weeks, with the long challenges (longer than a day) in a group of their own.
import { comingContests } from '../contests/coming.ts'
import type { Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import { DAY_MS } from '../lib/time.ts'
import type { HomeQuery } from './home-query.ts'

/** Far enough to plan the next weekends; the feed reaches further for those who subscribe. */
export const HOME_WINDOW_DAYS = 14

/** Four platforms hold a few dozen contests in two weeks; the bound keeps the page light. */
export const HOME_LIMIT = 200

/**
 * Longer than this is a long challenge (a month-long monthly challenge, a training series):
 * people come for rounds of a few hours, which such events would push down "Running now".
 */
export const LONG_CHALLENGE_MINUTES = 24 * 60

export interface HomeListing {
  /** The time the listing was read at, which its running/upcoming split and countdowns use. */
  now: number
  /** The first upcoming round (not a long challenge): the "Next up" box. */
  next?: ContestRow
  running: ContestRow[]
  upcoming: ContestRow[]
  /** Running or upcoming contests longer than LONG_CHALLENGE_MINUTES, by start. */
  long: ContestRow[]
}

export async function homeListing(db: Db, query: HomeQuery, now: number): Promise<HomeListing> {
  const rows = await comingContests(
    db,
    {
      platforms: query.platforms.length > 0 ? query.platforms : undefined,
      type: query.type,
      text: query.q,
      minDuration: query.minDuration,
      maxDuration: query.maxDuration,
      until: now + HOME_WINDOW_DAYS * DAY_MS,
      limit: HOME_LIMIT,
    },
    now,
  )
  const rounds = rows.filter((row) => row.durationMinutes <= LONG_CHALLENGE_MINUTES)
  const upcoming = rounds.filter((row) => row.startTime > now)
  return {
    now,
    next: upcoming[0],
    running: rounds.filter((row) => row.startTime <= now),
    upcoming,
    long: rows.filter((row) => row.durationMinutes > LONG_CHALLENGE_MINUTES),
  }
}
