// Members of community destinations and their judge handles (community_members), registered from
// the chat with the bot: proven by a token in the handle's public profile as on the web (the
// member runs the command again to have it checked), or at once by the member's linked account
// holding the handle proven. A row counts only in its own destination's rank posts.
import { and, eq, ne } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { communityMembers, judgeHandles } from '../db/schema.ts'
import { newId } from '../lib/ids.ts'
import { handleKey } from './handles.ts'
import { noResultsMessage, resultsJudge, type ResultsJudge } from './judges.ts'
import { fieldsHoldToken, newProofToken, PROOF_TTL_MS } from './proof-token.ts'
import type { ProveDeps } from './prove.ts'
import { askJudge } from './upstream-answer.ts'

export type CommunityMemberRow = typeof communityMembers.$inferSelect

/** Handles one member may register in one destination: one per judge. */
export interface MemberInput {
  destinationId: string
  /** The chat service's id of the member. */
  memberId: string
  /** The account the member's chat identity is linked to, if any. */
  userId?: string | null
  platform: string
  handle: string
}

/** What a registration came to, for the bot's words. */
export type Registration =
  | { state: 'proven'; row: CommunityMemberRow; via: 'account' | 'token' | 'before' }
  | { state: 'token'; row: CommunityMemberRow; judge: ResultsJudge; fresh: boolean }
  | { state: 'refused'; message: string }

const ofMember = (destinationId: string, memberId: string) =>
  and(eq(communityMembers.destinationId, destinationId), eq(communityMembers.memberId, memberId))

function findRow(db: Db, input: Pick<MemberInput, 'destinationId' | 'memberId' | 'platform'>) {
  return db
    .select()
    .from(communityMembers)
    .where(
      and(
        ofMember(input.destinationId, input.memberId),
        eq(communityMembers.platform, input.platform),
      ),
    )
    .get()
}

/** The member's registrations in the destination, by judge. */
export function membersOf(db: Db, destinationId: string, memberId: string) {
  return db
    .select()
    .from(communityMembers)
    .where(ofMember(destinationId, memberId))
    .orderBy(communityMembers.platform)
}

/** Writes the member's row of the judge (the one key it has), whatever it held before. */
async function putRow(
  db: Db,
  input: MemberInput,
  values: Partial<CommunityMemberRow>,
  now: number,
): Promise<CommunityMemberRow> {
  const set = {
    handle: input.handle,
    handleKey: handleKey(input.handle),
    userId: input.userId ?? null,
    judgeHandleId: null,
    state: 'UNPROVEN' as const,
    proofToken: null,
    proofExpiresAt: null,
    provenAt: null,
    ...values,
    updatedAt: now,
  }
  const [row] = await db
    .insert(communityMembers)
    .values({
      id: newId(now),
      destinationId: input.destinationId,
      memberId: input.memberId,
      platform: input.platform,
      createdAt: now,
      ...set,
    })
    .onConflictDoUpdate({
      target: [
        communityMembers.destinationId,
        communityMembers.memberId,
        communityMembers.platform,
      ],
      set,
    })
    .returning()
  return row
}

/**
 * Registers the member's handle of a judge in the destination. Proven at once when the member's
 * linked account holds it proven; proven already when it was; otherwise the token to place (a
 * fresh one unless a live one is held for this handle, which is then checked with the judge).
 */
export async function registerMember(
  db: Db,
  deps: ProveDeps,
  input: MemberInput,
  now: number,
): Promise<Registration> {
  const judge = resultsJudge(input.platform)
  if (!judge) return { state: 'refused', message: noResultsMessage(input.platform) }
  const key = handleKey(input.handle)
  if (input.userId) {
    const held = await db
      .select()
      .from(judgeHandles)
      .where(
        and(
          eq(judgeHandles.userId, input.userId),
          eq(judgeHandles.relation, 'OWN'),
          eq(judgeHandles.state, 'PROVEN'),
          eq(judgeHandles.platform, input.platform),
          eq(judgeHandles.handleKey, key),
        ),
      )
      .get()
    if (held) {
      const row = await putRow(
        db,
        { ...input, handle: held.handle },
        { judgeHandleId: held.id, state: 'PROVEN', provenAt: now },
        now,
      )
      return { state: 'proven', row, via: 'account' }
    }
  }
  const current = await findRow(db, input)
  if (current && current.handleKey === key && current.state === 'PROVEN') {
    return { state: 'proven', row: current, via: 'before' }
  }
  const live =
    current &&
    current.handleKey === key &&
    current.proofToken !== null &&
    (current.proofExpiresAt ?? 0) > now
  if (!live) {
    const row = await putRow(
      db,
      input,
      { proofToken: newProofToken(), proofExpiresAt: now + PROOF_TTL_MS },
      now,
    )
    return { state: 'token', row, judge, fresh: true }
  }
  return proveMember(db, deps, judge, current, now)
}

/** Asks the judge whether the profile holds the row's token; proven in the judge's spelling. */
async function proveMember(
  db: Db,
  deps: ProveDeps,
  judge: ResultsJudge,
  row: CommunityMemberRow,
  now: number,
): Promise<Registration> {
  const name = judge.module.name
  const profile = await askJudge(name, () =>
    judge.results.proof.profile(deps.request(judge), row.handle),
  )
  if (!profile) return { state: 'refused', message: `${name} has no handle ${row.handle}.` }
  if (!fieldsHoldToken(profile.fields, row.proofToken ?? '')) {
    return { state: 'token', row, judge, fresh: false }
  }
  const key = handleKey(profile.handle)
  // Whoever controls the profile holds the handle in this destination: another member's row of
  // it goes, in the batch that proves this one.
  const [, [proven]] = await db.batch([
    db
      .delete(communityMembers)
      .where(
        and(
          eq(communityMembers.destinationId, row.destinationId),
          eq(communityMembers.platform, row.platform),
          eq(communityMembers.handleKey, key),
          ne(communityMembers.id, row.id),
        ),
      ),
    db
      .update(communityMembers)
      .set({
        state: 'PROVEN',
        handle: profile.handle,
        handleKey: key,
        proofToken: null,
        proofExpiresAt: null,
        provenAt: now,
        updatedAt: now,
      })
      .where(eq(communityMembers.id, row.id))
      .returning(),
  ])
  if (!proven) return { state: 'refused', message: 'The registration was removed meanwhile.' }
  return { state: 'proven', row: proven, via: 'token' }
}

/** Removes the member's registrations in the destination (of one judge, or all); how many. */
export async function removeMember(
  db: Db,
  destinationId: string,
  memberId: string,
  platform?: string,
) {
  const gone = await db
    .delete(communityMembers)
    .where(
      and(
        ofMember(destinationId, memberId),
        platform === undefined ? undefined : eq(communityMembers.platform, platform),
      ),
    )
    .returning({ id: communityMembers.id })
  return gone.length
}

/** A deleted account's registrations go with it (its linked chat identity's rows). To batch. */
export function deleteUserMembersStatements(db: Db, userId: string): BatchItem<'sqlite'>[] {
  return [db.delete(communityMembers).where(eq(communityMembers.userId, userId))]
}

/**
 * A member `m` whose handle counts: proven, and, when it stands on an account's handle, that
 * handle still proven by the account (one given up or taken by another account no longer counts).
 */
export const MEMBER_COUNTS_SQL = `(m.state = 'PROVEN' AND (m.judge_handle_id IS NULL OR EXISTS
    (SELECT 1 FROM judge_handles jh WHERE jh.id = m.judge_handle_id AND jh.state = 'PROVEN')))`

/** Some proven member holds the handle `keyExpr` of the platform `platformExpr`. */
export const isMemberHandleSql = (platformExpr: string, keyExpr: string) =>
  `EXISTS (SELECT 1 FROM community_members m WHERE m.platform = ${platformExpr}
    AND m.handle_key = ${keyExpr} AND ${MEMBER_COUNTS_SQL})`

/** Some proven member holds a handle of the platform `platformExpr`. */
export const platformHasMemberSql = (platformExpr: string) =>
  `EXISTS (SELECT 1 FROM community_members m WHERE m.platform = ${platformExpr}
    AND ${MEMBER_COUNTS_SQL})`

/** A member of the destination `destinationExpr` counts and took part in the contest ?1. */
export const destinationHasResultsSql = (destinationExpr: string) =>
  `EXISTS (SELECT 1 FROM community_members m JOIN contest_results r ON r.contest_id = ?1
    AND r.platform = m.platform AND r.handle_key = m.handle_key
    WHERE m.destination_id = ${destinationExpr} AND ${MEMBER_COUNTS_SQL})`

/** A member's result in a contest as a rank post lists it. */
export interface MemberResult {
  handle: string
  rank: number | null
  solved: number | null
  oldRating: number | null
  newRating: number | null
}

/** The results of the destination's counted members in the contest, each handle once. */
export async function destinationResults(
  db: Db,
  destinationId: string,
  contestId: string,
): Promise<MemberResult[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT r.handle, r.rank, r.solved, r.old_rating AS oldRating, r.new_rating AS newRating
        FROM contest_results r
        WHERE r.contest_id = ?1 AND EXISTS (SELECT 1 FROM community_members m
          WHERE m.destination_id = ?2 AND m.platform = r.platform AND m.handle_key = r.handle_key
            AND ${MEMBER_COUNTS_SQL})
        ORDER BY r.handle_key`,
    )
    .bind(contestId, destinationId)
    .all<MemberResult>()
  return results
}
