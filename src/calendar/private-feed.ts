// A user's own feed: the contests their preferences select, plus those they follow, minus those
// they muted, each with one alarm per lead time. Opened by the secret token alone.
import { calendarContests, calendarContestsByIds } from '../contests/calendar.ts'
import { contestTags, filtersPass, typesAllow } from '../contests/matching.ts'
import type { Db } from '../db/client.ts'
import type { ContestRow, UserRow } from '../db/schema.ts'
import { subscriptionsOf } from '../users/contest-subscriptions.ts'
import { preferencesOf } from '../users/preferences.ts'
import { findUser } from '../users/queries.ts'
import { contestEvent } from './contest-event.ts'
import { feedOwner } from './feeds.ts'
import { FEED_REFRESH_SECONDS, renderCalendar } from './ics.ts'

const byStart = (a: ContestRow, b: ContestRow) =>
  a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The contests of `user`'s feed, by start time. */
export async function feedContests(db: Db, user: UserRow, now: number): Promise<ContestRow[]> {
  const prefs = preferencesOf(user)
  const choices = await subscriptionsOf(db, user.id)
  const followed = choices.filter((c) => c.mode === 'follow').map((c) => c.contestId)
  const muted = new Set(choices.filter((c) => c.mode === 'mute').map((c) => c.contestId))
  const { minDuration, maxDuration } = prefs.filters
  const [selected, follows] = await Promise.all([
    calendarContests(db, { platforms: prefs.platforms, minDuration, maxDuration }, now),
    calendarContestsByIds(db, followed, now),
  ])
  const chosen = new Map<string, ContestRow>()
  for (const contest of selected) {
    // The same rules as reminders (contests/matching.ts); the duration bounds were in the query.
    if (
      typesAllow(prefs.contestTypes, contestTags(contest)) &&
      filtersPass(prefs.filters, contest)
    ) {
      chosen.set(contest.id, contest)
    }
  }
  // A follow overrides the platforms, types and filters that would leave the contest out.
  for (const contest of follows) chosen.set(contest.id, contest)
  return [...chosen.values()].filter((c) => !muted.has(c.id)).sort(byStart)
}

/**
 * The feed `token` opens, as iCalendar text; undefined when no feed has that token or its owner
 * is deleted or deactivated (a deactivated account gets nothing, as with notifications).
 */
export async function privateFeed(db: Db, token: string, now: number): Promise<string | undefined> {
  const userId = await feedOwner(db, token)
  const user = userId === undefined ? undefined : await findUser(db, userId)
  if (!user?.isActive) return undefined
  const { leadTimes } = preferencesOf(user)
  const events = (await feedContests(db, user, now)).map((contest) =>
    contestEvent(contest, leadTimes),
  )
  return renderCalendar(
    { name: 'My programming contests', refreshSeconds: FEED_REFRESH_SECONDS },
    events,
  )
}
