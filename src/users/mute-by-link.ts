// What a checked mute link does: find the account and contest it names, and mute one for the other.
import { findContest } from '../contests/queries.ts'
import type { Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import { setSubscription } from './contest-subscriptions.ts'
import type { MuteClaim } from './mute-link.ts'
import { findUser } from './queries.ts'

export type MuteLinkTarget =
  | { kind: 'ready'; contest: ContestRow }
  /** Deleted (or soft-deleted) since the email was sent: the link no longer works. */
  | { kind: 'account-gone' }
  /** Removed from the catalogue since: there is nothing left to mute. */
  | { kind: 'contest-gone' }

export async function muteLinkTarget(db: Db, claim: MuteClaim): Promise<MuteLinkTarget> {
  const [user, contest] = await Promise.all([
    findUser(db, claim.userId),
    findContest(db, claim.contestId),
  ])
  if (!user) return { kind: 'account-gone' }
  if (!contest) return { kind: 'contest-gone' }
  return { kind: 'ready', contest }
}

/** Mutes the contest for the account; muting twice is the same as once. */
export async function muteByLink(db: Db, claim: MuteClaim, now: number): Promise<MuteLinkTarget> {
  const target = await muteLinkTarget(db, claim)
  if (target.kind !== 'ready') return target
  const muted = await setSubscription(db, claim.userId, claim.contestId, 'mute', now)
  // The account may be deleted between the two reads; setSubscription checks it again.
  return muted ? target : { kind: 'account-gone' }
}
