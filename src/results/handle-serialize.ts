// A linked handle as the API shows it: an own one with its state and, while unproven, what to do
// to prove it (the token, the field, the judge's page, until when; the submission challenge asked
// last); a friend with less.
import type { z } from '@hono/zod-openapi'
import { toIso } from '../lib/time.ts'
import type { JudgeHandleRow } from './handles.ts'
import type {
  ChallengeSchema,
  FriendSchema,
  HandleHistorySchema,
  HandleSchema,
} from './handle-schemas.ts'
import type { HandleHistory } from './history.ts'
import type { Env } from '../env.ts'
import {
  CHECK_GRACE_MS,
  challengeCheckable,
  challengeInstruction,
  challengeOf,
  submissionProofOf,
} from './challenge.ts'
import { clistEnabled, clistJudges, resultsJudge, resultsJudges } from './judges.ts'

/** The row's submission challenge as the API shows it; null without one. */
export function toApiChallenge(
  row: JudgeHandleRow,
  now: number,
): z.infer<typeof ChallengeSchema> | null {
  const proof = submissionProofOf(row.platform)
  const challenge = challengeOf(row)
  if (!proof || !challenge) return null
  return {
    method: 'submission',
    problem: { ...challenge.problem },
    verdict: proof.verdict,
    instruction: challengeInstruction(proof, challenge),
    issuedAt: toIso(challenge.issuedAt),
    expiresAt: toIso(challenge.expiresAt),
    checkUntil: toIso(challenge.expiresAt + CHECK_GRACE_MS),
    expired: !challengeCheckable(challenge, now),
  }
}

export function toApiHandle(row: JudgeHandleRow, now: number): z.infer<typeof HandleSchema> {
  const judge = resultsJudge(row.platform)
  const live = row.proofToken !== null && row.proofExpiresAt !== null && row.proofExpiresAt > now
  return {
    id: row.id,
    platform: row.platform,
    handle: row.handle,
    state: row.state === 'PROVEN' ? 'proven' : 'unproven',
    provenAt: row.provenAt === null ? null : toIso(row.provenAt),
    rating: row.rating,
    proof:
      row.state === 'PROVEN'
        ? null
        : {
            token: live ? row.proofToken : null,
            // A judge that stopped declaring results (an old row) keeps its link; no field to name.
            where: judge?.results.proof.where ?? '',
            editUrl: judge?.results.proof.editUrl ?? '',
            expiresAt: live ? toIso(row.proofExpiresAt!) : null,
            expired: !live,
            challenge: toApiChallenge(row, now),
          },
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

export function toApiFriend(row: JudgeHandleRow): z.infer<typeof FriendSchema> {
  return { id: row.id, platform: row.platform, handle: row.handle, createdAt: toIso(row.createdAt) }
}

/**
 * The judges a handle can be linked on, with where each wants the token; then the platforms whose
 * results come from clist.by (friends only, no proof), `enabled` only while CLIST_API_KEY is set.
 */
export function apiJudges(env: Env) {
  const clist = clistEnabled(env)
  return [
    ...resultsJudges().map(({ module, results }) => ({
      platform: module.id,
      name: module.name,
      where: results.proof.where,
      editUrl: results.proof.editUrl,
      source: 'judge' as const,
      own: true,
      submissionProof: results.proof.submission !== undefined,
      enabled: true,
    })),
    ...clistJudges().map((module) => ({
      platform: module.id,
      name: module.name,
      where: '',
      editUrl: '',
      source: 'clist' as const,
      own: false,
      submissionProof: false,
      enabled: clist,
    })),
  ]
}

export function toApiHistory(
  row: JudgeHandleRow,
  history: HandleHistory,
): z.infer<typeof HandleHistorySchema> {
  return {
    id: row.id,
    platform: row.platform,
    handle: row.handle,
    points: history.points.map((p) => ({ ...p, time: toIso(p.time) })),
    current: history.current,
  }
}
