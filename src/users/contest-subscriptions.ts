// A user's follow or mute of single contests (contest_subscriptions): the writes, the user's list,
// and SQL fragments for other features' set-based statements (the scheduler, digests, the feed).
import { and, count, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { contestSubscriptions, users } from '../db/schema.ts'
import { liveUserById } from './live.ts'

export const SUBSCRIPTION_MODES = ['follow', 'mute'] as const
export type SubscriptionMode = (typeof SUBSCRIPTION_MODES)[number]

export interface ContestSubscription {
  contestId: string
  mode: SubscriptionMode
  updatedAt: number
}

/**
 * Follows or mutes `contestId` for a live user (replacing the other mode); false when the user is
 * not live. The caller checks the contest exists.
 */
export async function setSubscription(
  db: Db,
  userId: string,
  contestId: string,
  mode: SubscriptionMode,
  now: number,
): Promise<boolean> {
  const live = await db.select({ id: users.id }).from(users).where(liveUserById(userId)).get()
  if (!live) return false
  await db
    .insert(contestSubscriptions)
    .values({ userId, contestId, mode, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [contestSubscriptions.userId, contestSubscriptions.contestId],
      set: { mode, updatedAt: now },
    })
  return true
}

/** Back to the default (the preferences decide); true when there was a choice to remove. */
export async function clearSubscription(
  db: Db,
  userId: string,
  contestId: string,
): Promise<boolean> {
  const removed = await db
    .delete(contestSubscriptions)
    .where(
      and(eq(contestSubscriptions.userId, userId), eq(contestSubscriptions.contestId, contestId)),
    )
    .returning({ contestId: contestSubscriptions.contestId })
  return removed.length > 0
}

// What a choice is as the API and the pages show it.
const CHOICE = {
  contestId: contestSubscriptions.contestId,
  mode: contestSubscriptions.mode,
  updatedAt: contestSubscriptions.updatedAt,
}

/** The user's choice for one contest, if any (the web app's page of one contest). */
export async function subscriptionOf(
  db: Db,
  userId: string,
  contestId: string,
): Promise<ContestSubscription | undefined> {
  return db
    .select(CHOICE)
    .from(contestSubscriptions)
    .where(
      and(eq(contestSubscriptions.userId, userId), eq(contestSubscriptions.contestId, contestId)),
    )
    .get()
}

/** The user's choices, the latest first. */
export function subscriptionsOf(db: Db, userId: string): Promise<ContestSubscription[]> {
  return db
    .select(CHOICE)
    .from(contestSubscriptions)
    .where(eq(contestSubscriptions.userId, userId))
    .orderBy(desc(contestSubscriptions.updatedAt), contestSubscriptions.contestId)
}

/**
 * One page of the user's choices, the latest first, with how many there are. The contest id
 * breaks ties, so pages never overlap.
 */
export async function subscriptionPage(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: ContestSubscription[]; total: number }> {
  const mine = eq(contestSubscriptions.userId, userId)
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(contestSubscriptions).where(mine),
    db
      .select(CHOICE)
      .from(contestSubscriptions)
      .where(mine)
      .orderBy(desc(contestSubscriptions.updatedAt), contestSubscriptions.contestId)
      .limit(page.limit)
      .offset(page.offset),
  ])
  return { rows, total }
}

/**
 * SQL: the user `u` chose `mode` for the contest whose id is `contestExpr` (a column or parameter
 * of the caller's statement). One indexed probe of the (user_id, contest_id) key.
 */
export const chose = (mode: SubscriptionMode, contestExpr: string) =>
  `EXISTS (SELECT 1 FROM contest_subscriptions cs WHERE cs.user_id = u.id
      AND cs.contest_id = ${contestExpr} AND cs.mode = '${mode}')`

/**
 * FROM clause of the users who follow one contest: each choice as `cs` (filter on `cs.contest_id`
 * through the (contest_id, mode, user_id) index) with the user's row as `u`.
 */
export const CONTEST_FOLLOWERS_FROM = `contest_subscriptions cs JOIN users u ON u.id = cs.user_id`
