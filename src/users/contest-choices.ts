// The follow and mute use cases: choices only for contests that exist, the list with summaries.
import { findContestsByIds } from '../contests/notified.ts'
import { findContest } from '../contests/queries.ts'
import type { ContestRow } from '../db/schema.ts'
import type { Db } from '../db/client.ts'
import { notFound } from '../lib/errors.ts'
import {
  clearSubscription,
  setSubscription,
  subscriptionPage,
  type ContestSubscription,
  type SubscriptionMode,
} from './contest-subscriptions.ts'

const contestMissing = (id: string) => notFound(`Contest with ID ${id} not found`)

async function requireContest(db: Db, id: string): Promise<void> {
  if (!(await findContest(db, id))) throw contestMissing(id)
}

/** Follows or mutes a contest for the user; 404 for an unknown contest or a deleted account. */
export async function chooseForContest(
  db: Db,
  input: { userId: string; contestId: string; mode: SubscriptionMode },
  now: number,
): Promise<ContestSubscription> {
  await requireContest(db, input.contestId)
  if (!(await setSubscription(db, input.userId, input.contestId, input.mode, now))) {
    throw notFound('User not found')
  }
  return { contestId: input.contestId, mode: input.mode, updatedAt: now }
}

/**
 * Back to the default for a contest the catalogue holds, whether or not a choice was stored: the
 * outcome is the same either way, so a repeated DELETE is not an error.
 */
export async function clearForContest(
  db: Db,
  input: { userId: string; contestId: string },
): Promise<void> {
  await requireContest(db, input.contestId)
  await clearSubscription(db, input.userId, input.contestId)
}

export interface ChoiceEntry extends ContestSubscription {
  contest: ContestRow
}

/**
 * A page of the user's choices, latest first, each with its contest. A contest deleted between
 * the two reads takes its choice with it (the foreign key cascades), so such an entry is left out.
 */
export async function listChoices(
  db: Db,
  input: { userId: string; limit: number; offset: number },
): Promise<{ entries: ChoiceEntry[]; total: number }> {
  const { rows, total } = await subscriptionPage(db, input.userId, input)
  const contests = new Map(
    (
      await findContestsByIds(
        db,
        rows.map((r) => r.contestId),
      )
    ).map((c) => [c.id, c]),
  )
  const entries = rows.flatMap((r) => {
    const contest = contests.get(r.contestId)
    return contest ? [{ ...r, contest }] : []
  })
  return { entries, total }
}
