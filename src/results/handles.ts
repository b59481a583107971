// The handles an account linked on judges (judge_handles): its own, unproven until a token in the
// handle's public profile (or a submission, D164) proves them and then held by this account alone,
// and the friends it follows (never proven). Plain functions of (db, input, now); every call names
// the account, so another account's row is as good as missing.
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { judgeHandles } from '../db/schema.ts'
import { badRequest } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { newProofToken, PROOF_TTL_MS } from './proof-token.ts'

export type JudgeHandleRow = typeof judgeHandles.$inferSelect
export type Relation = JudgeHandleRow['relation']

/**
 * Own handles per account: one per judge and a few more (an old account, a second judge's), and
 * each costs an upstream request per contest on judges asked per handle (LeetCode).
 */
export const MAX_OWN_HANDLES = 10
/** Friends per account: a friends' results message names at most this many. */
export const MAX_FRIENDS = 100

const MAX_BY_RELATION: Record<Relation, number> = { OWN: MAX_OWN_HANDLES, FRIEND: MAX_FRIENDS }

/** Every lookup and the results join compare handles in lower case (judges ignore case). */
export const handleKey = (handle: string) => handle.toLowerCase()

const ofAccount = (userId: string, relation: Relation) =>
  and(eq(judgeHandles.userId, userId), eq(judgeHandles.relation, relation))

/** The account's handles of one relation, oldest link first. */
export function listHandles(db: Db, userId: string, relation: Relation) {
  return db
    .select()
    .from(judgeHandles)
    .where(ofAccount(userId, relation))
    .orderBy(asc(judgeHandles.createdAt), asc(judgeHandles.id))
    .limit(MAX_BY_RELATION[relation])
}

/** One of the account's handles by id, of the relation given (or either); undefined otherwise. */
export function findHandle(db: Db, userId: string, id: string, relation?: Relation) {
  return db
    .select()
    .from(judgeHandles)
    .where(
      and(
        eq(judgeHandles.id, id),
        eq(judgeHandles.userId, userId),
        relation && eq(judgeHandles.relation, relation),
      ),
    )
    .get()
}

// One statement, so the cap holds under concurrent links. A new row is made only while the account
// is under its cap; a link it holds already is left as it is, except that an own unproven handle
// whose token expired (or was taken back when another account proved the handle) gets a fresh one.
const LINK_SQL = `INSERT INTO judge_handles
    (id, user_id, platform, handle, handle_key, relation, state, proof_token, proof_expires_at,
     created_at, updated_at)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, 'UNPROVEN', ?7, ?8, ?9, ?9
  WHERE (SELECT count(*) FROM judge_handles WHERE user_id = ?2 AND relation = ?6) < ?10
  ON CONFLICT (user_id, relation, platform, handle_key) DO UPDATE SET
    proof_token = excluded.proof_token,
    proof_expires_at = excluded.proof_expires_at,
    updated_at = excluded.updated_at
  WHERE judge_handles.relation = 'OWN' AND judge_handles.state = 'UNPROVEN'
    AND (judge_handles.proof_expires_at IS NULL OR judge_handles.proof_expires_at <= ?9)
  RETURNING id`

export interface LinkInput {
  userId: string
  platform: string
  /** As the account typed it; the judge's own spelling replaces it once proven. */
  handle: string
  relation: Relation
}

/**
 * Links a handle: a new row (created), or the one the account holds already, its token renewed
 * when it has none that still proves. Throws 400 past the cap.
 */
export async function linkHandle(
  db: Db,
  input: LinkInput,
  now: number,
): Promise<{ row: JudgeHandleRow; created: boolean }> {
  const id = newId(now)
  const own = input.relation === 'OWN'
  const key = handleKey(input.handle)
  const max = MAX_BY_RELATION[input.relation]
  const written = await db.$client
    .prepare(LINK_SQL)
    .bind(
      id,
      input.userId,
      input.platform,
      input.handle,
      key,
      input.relation,
      own ? newProofToken() : null,
      own ? now + PROOF_TTL_MS : null,
      now,
      max,
    )
    .first<{ id: string }>()
  const held = await db
    .select()
    .from(judgeHandles)
    .where(
      and(
        ofAccount(input.userId, input.relation),
        eq(judgeHandles.platform, input.platform),
        eq(judgeHandles.handleKey, key),
      ),
    )
    .get()
  if (held) return { row: held, created: written?.id === id }
  throw badRequest(
    own
      ? `At most ${MAX_OWN_HANDLES} own handles per account; remove one first`
      : `At most ${MAX_FRIENDS} friends per account; remove one first`,
  )
}

/** Removes one of the account's handles of that relation; false when it holds no such row. */
export async function removeHandle(db: Db, userId: string, id: string, relation: Relation) {
  const removed = await db
    .delete(judgeHandles)
    .where(and(eq(judgeHandles.id, id), ofAccount(userId, relation)))
    .returning({ id: judgeHandles.id })
  return removed.length > 0
}

/** A submission challenge as a row keeps it: the problem's key ("4/A") and its two times. */
export interface StoredChallenge {
  problem: string
  issuedAt: number
  expiresAt: number
}

/**
 * Puts a new submission challenge on an own unproven handle of the account, replacing any it had.
 * The row afterwards, or undefined when the account holds no such unproven row (removed, or
 * proven meanwhile).
 */
export async function setChallenge(
  db: Db,
  input: { userId: string; id: string; challenge: StoredChallenge },
  now: number,
): Promise<JudgeHandleRow | undefined> {
  const { userId, id, challenge } = input
  const [row] = await db
    .update(judgeHandles)
    .set({
      challengeProblem: challenge.problem,
      challengeIssuedAt: challenge.issuedAt,
      challengeExpiresAt: challenge.expiresAt,
      updatedAt: now,
    })
    .where(
      and(eq(judgeHandles.id, id), ofAccount(userId, 'OWN'), eq(judgeHandles.state, 'UNPROVEN')),
    )
    .returning()
  return row
}

/** What a proof read from the judge: the handle as it spells it now, and its rating. */
export interface ProvenProfile {
  handle: string
  rating?: number
}

/**
 * Marks an own unproven handle proven, in the judge's spelling, in one batch: another account that
 * held the handle proven gives it up (its row stays, unproven and without a token, so it can prove
 * again: whoever controls the profile holds the handle), and a second row of this account that the
 * judge's spelling now names (a rename the judge followed) is merged into this one. Both run only
 * while this row is still there to be proven. The row afterwards, or undefined when the
 * account no longer holds it.
 */
export async function markProven(
  db: Db,
  input: { userId: string; id: string; platform: string; profile: ProvenProfile },
  now: number,
): Promise<JudgeHandleRow | undefined> {
  const { userId, id, platform, profile } = input
  const key = handleKey(profile.handle)
  const stillUnproven = sql`EXISTS (SELECT 1 FROM judge_handles AS mine WHERE mine.id = ${id}
    AND mine.user_id = ${userId} AND mine.relation = 'OWN' AND mine.state = 'UNPROVEN')`
  const sameHandle = and(
    eq(judgeHandles.platform, platform),
    eq(judgeHandles.handleKey, key),
    eq(judgeHandles.relation, 'OWN'),
  )
  const [, , [row]] = await db.batch([
    db
      .update(judgeHandles)
      .set(released(now))
      .where(
        and(
          sameHandle,
          eq(judgeHandles.state, 'PROVEN'),
          ne(judgeHandles.userId, userId),
          stillUnproven,
        ),
      ),
    db
      .delete(judgeHandles)
      .where(
        and(sameHandle, eq(judgeHandles.userId, userId), ne(judgeHandles.id, id), stillUnproven),
      ),
    db
      .update(judgeHandles)
      .set({
        state: 'PROVEN',
        handle: profile.handle,
        handleKey: key,
        proofToken: null,
        proofExpiresAt: null,
        ...NO_CHALLENGE,
        provenAt: now,
        rating: profile.rating ?? null,
        updatedAt: now,
      })
      .where(
        and(eq(judgeHandles.id, id), ofAccount(userId, 'OWN'), eq(judgeHandles.state, 'UNPROVEN')),
      )
      .returning(),
  ])
  return row ?? (await findHandle(db, userId, id, 'OWN'))
}

/** The challenge columns of a row without one (proven, released, or never asked). */
const NO_CHALLENGE = { challengeProblem: null, challengeIssuedAt: null, challengeExpiresAt: null }

/** A proven own handle given up: unproven again, with no token (a new link issues one). */
function released(now: number) {
  return {
    state: 'UNPROVEN' as const,
    proofToken: null,
    proofExpiresAt: null,
    ...NO_CHALLENGE,
    provenAt: null,
    updatedAt: now,
  }
}

/**
 * Gives up every proven handle of the account: its soft delete, so that while it waits out its
 * recovery period the handles are free to be proven by their owners' other accounts. To batch.
 */
export function releaseUserHandlesStatement(db: Db, userId: string, now: number) {
  return db
    .update(judgeHandles)
    .set(released(now))
    .where(and(ofAccount(userId, 'OWN'), eq(judgeHandles.state, 'PROVEN')))
}

/** A handle the judge renamed: every link of the old key, as it is linked now. */
export interface Rename {
  platform: string
  oldKey: string
  handle: string
}

/**
 * Follows renames in one batch: every link of an old handle (own or friend, proven or not) takes
 * the new spelling and key, its state, proof and dates kept; the results stored under the old key
 * move with it, so the account's results and its history stay whole. A link that would collide
 * (the same account links the new handle already, or another account proved it) is left as it is,
 * except a friend's duplicate, which is dropped: the account follows the new handle already.
 */
export async function applyRenames(db: Db, renames: readonly Rename[], now: number) {
  if (renames.length === 0) return 0
  const d1 = db.$client
  const statements = renames.flatMap(({ platform, oldKey, handle }) => {
    const key = handleKey(handle)
    return [
      d1
        .prepare(
          `UPDATE OR IGNORE judge_handles SET handle = ?3, handle_key = ?4, updated_at = ?5
            WHERE platform = ?1 AND handle_key = ?2`,
        )
        .bind(platform, oldKey, handle, key, now),
      d1
        .prepare(
          `DELETE FROM judge_handles WHERE platform = ?1 AND handle_key = ?2 AND ?2 <> ?3
            AND relation = 'FRIEND'`,
        )
        .bind(platform, oldKey, key),
      d1
        .prepare(
          `UPDATE OR IGNORE contest_results SET handle = ?3, handle_key = ?4
            WHERE platform = ?1 AND handle_key = ?2`,
        )
        .bind(platform, oldKey, handle, key),
    ]
  })
  const results = await d1.batch(statements)
  return results.filter((_, i) => i % 3 === 0).reduce((sum, r) => sum + r.meta.changes, 0)
}
