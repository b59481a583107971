// Proving an own handle by a submission (D164), on a judge that offers it (Codeforces and its
// gyms): the service picks one of the judge's problems and gives the account CHALLENGE_TTL_MS to
// submit a compilation error to it; the judge's list of the handle's latest submissions shows it.
// The token in the profile (prove.ts) stays the default proof.
import type { Db } from '../db/client.ts'
import { randomBytes } from '../lib/crypto.ts'
import { ApiError, conflict, notFound } from '../lib/errors.ts'
import { MINUTE_MS } from '../lib/time.ts'
import { formatTime } from '../lib/time-words.ts'
import type {
  ChallengeProblem,
  SubmissionChallenge,
  SubmissionProof,
} from '../platforms/results.ts'
import {
  findHandle,
  markProven,
  setChallenge,
  type JudgeHandleRow,
  type StoredChallenge,
} from './handles.ts'
import { noResultsMessage, resultsJudge, type ResultsJudge } from './judges.ts'
import { NO_OWN_HANDLE, type ProveDeps } from './prove.ts'
import { askJudge } from './upstream-answer.ts'

/**
 * How long a submission counts after the challenge is issued. TLE gives 60 s because its bot
 * sleeps a minute and looks once; here a person opens the problem, maybe signs in to the judge,
 * picks a language and submits, on a phone as well, then comes back to check. Five minutes does
 * that and keeps the window in which a submission of the handle's could be taken for one short.
 */
export const CHALLENGE_TTL_MS = 5 * MINUTE_MS

/**
 * How long after the deadline a check still looks: a submission made in time counts when it is
 * checked a little late (the verdict took seconds, the person came back at minute six).
 */
export const CHECK_GRACE_MS = 10 * MINUTE_MS

export const ALREADY_PROVEN = 'The handle is proven already'

const unprocessable = (message: string) => new ApiError(422, message)

/** The problem's key as a row keeps it: "4/A". */
export const problemKey = (problem: ChallengeProblem) => `${problem.contestId}/${problem.index}`

/** "4A (Watermelon)", as the judge's problemset names it. */
export const problemWords = (problem: ChallengeProblem) =>
  `${problem.contestId}${problem.index} (${problem.name})`

/** The judge's submission proof, or undefined for a judge that offers none. */
export function submissionProofOf(platform: string): SubmissionProof | undefined {
  return resultsJudge(platform)?.results.proof.submission
}

/**
 * The row's challenge, with its problem as the judge's list names it; undefined without one, or
 * when the problem is no longer on the list (a release changed it: a new challenge is needed).
 */
export function challengeOf(row: JudgeHandleRow): SubmissionChallenge | undefined {
  const proof = submissionProofOf(row.platform)
  const { challengeProblem: key, challengeIssuedAt: issuedAt, challengeExpiresAt: expiresAt } = row
  if (!proof || key === null || issuedAt === null || expiresAt === null) return undefined
  const problem = proof.problems.find((p) => problemKey(p) === key)
  return problem && { problem, issuedAt, expiresAt }
}

/** A check of the challenge can still prove: not past its deadline and the grace after it. */
export const challengeCheckable = (challenge: SubmissionChallenge, now: number) =>
  now <= challenge.expiresAt + CHECK_GRACE_MS

/** What the account is asked to do, in a sentence the API and the page share. */
export function challengeInstruction(proof: SubmissionProof, challenge: SubmissionChallenge) {
  return (
    `Submit a ${proof.what} to problem ${problemWords(challenge.problem)} at ` +
    `${challenge.problem.url} before ${formatTime(challenge.expiresAt)}, then check the proof`
  )
}

function judgeOffering(platform: string): { judge: ResultsJudge; proof: SubmissionProof } {
  const judge = resultsJudge(platform)
  if (!judge) throw unprocessable(noResultsMessage(platform))
  const proof = judge.results.proof.submission
  if (!proof) {
    throw unprocessable(
      `${judge.module.name} offers no proof by a submission: place the token in ` +
        `${judge.results.proof.where} instead`,
    )
  }
  return { judge, proof }
}

/** An index below `n`, at random (a 32-bit draw: the bias over ten problems is nil). */
function randomIndex(n: number): number {
  const [a, b, c, d] = randomBytes(4)
  return (((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0) % n
}

/**
 * Issues a new submission challenge for the account's own unproven handle `id`, replacing the one
 * it had; the problem is drawn from the judge's list, another than the last challenge's, so a
 * submission made for that one is never mistaken for this one's. Asks the judge nothing. Throws
 * 404 for a handle the account does not hold as its own, 409 once proven, 422 on a judge that
 * offers no submission proof.
 */
export async function issueChallenge(
  db: Db,
  input: { userId: string; id: string },
  now: number,
  pick: (n: number) => number = randomIndex,
): Promise<JudgeHandleRow> {
  const row = await findHandle(db, input.userId, input.id, 'OWN')
  if (!row) throw notFound(NO_OWN_HANDLE)
  if (row.state === 'PROVEN') throw conflict(ALREADY_PROVEN)
  const { proof } = judgeOffering(row.platform)
  const others = proof.problems.filter((p) => problemKey(p) !== row.challengeProblem)
  const choices = others.length > 0 ? others : proof.problems
  const problem = choices[pick(choices.length)]!
  const challenge: StoredChallenge = {
    problem: problemKey(problem),
    issuedAt: now,
    expiresAt: now + CHALLENGE_TTL_MS,
  }
  const written = await setChallenge(db, { ...input, challenge }, now)
  if (written) return written
  // Proven or removed since it was read.
  const again = await findHandle(db, input.userId, input.id, 'OWN')
  if (again?.state === 'PROVEN') throw conflict(ALREADY_PROVEN)
  throw notFound(NO_OWN_HANDLE)
}

/**
 * Proves the account's own handle `id` by its challenge, asking the judge once for the handle's
 * latest submissions. A proven handle is answered as it is, without asking. Throws 404 for a
 * handle the account does not hold as its own; 422 when the judge offers no such proof, there is
 * no challenge, it expired, the judge has no such handle, or no submission proves yet; 502 or 503
 * when the judge cannot be read. Proven, the handle takes the judge's spelling, and any other
 * account that held it proven gives it up, as with the token (markProven).
 */
export async function proveBySubmission(
  db: Db,
  deps: ProveDeps,
  input: { userId: string; id: string },
  now: number,
): Promise<JudgeHandleRow> {
  const row = await findHandle(db, input.userId, input.id, 'OWN')
  if (!row) throw notFound(NO_OWN_HANDLE)
  if (row.state === 'PROVEN') return row
  const { judge, proof } = judgeOffering(row.platform)
  const challenge = challengeOf(row)
  if (!challenge) {
    throw unprocessable(
      'No submission challenge to check: ask for one first (POST /users/handles/{id}/challenge)',
    )
  }
  if (!challengeCheckable(challenge, now)) {
    throw unprocessable(
      `The challenge expired at ${formatTime(challenge.expiresAt)}: ask for a new one ` +
        '(POST /users/handles/{id}/challenge)',
    )
  }

  const name = judge.module.name
  const answer = await askJudge(name, () => proof.check(deps.request(judge), row.handle, challenge))
  if (answer.state === 'missing') throw unprocessable(`${name} has no handle ${row.handle}`)
  if (answer.state === 'none') {
    const problem = problemWords(challenge.problem)
    const deadline = formatTime(challenge.expiresAt)
    if (answer.judging) {
      throw unprocessable(
        `${name} is still judging the submission of ${row.handle} to problem ${problem}: ` +
          'check again in a few seconds',
      )
    }
    throw unprocessable(
      now > challenge.expiresAt
        ? `${name} lists no ${proof.what} of ${row.handle} to problem ${problem} made before ` +
            `${deadline}: ask for a new challenge and try again`
        : `${name} lists no ${proof.what} of ${row.handle} to problem ${problem} since the ` +
            `challenge was issued yet: submit one at ${challenge.problem.url} before ` +
            `${deadline}, then check again`,
    )
  }
  // The submission is the proof; the rating the Handles page shows is the profile's, read once
  // more. A profile that cannot be read leaves the rating unknown, never the proof undone.
  const profile = await judge.results.proof
    .profile(deps.request(judge), answer.handle)
    .catch(() => undefined)
  const rating = profile?.rating
  const proven = await markProven(
    db,
    {
      userId: input.userId,
      id: row.id,
      platform: row.platform,
      profile: { handle: answer.handle, ...(rating !== undefined && { rating }) },
    },
    now,
  )
  // Removed while the judge was asked: nothing is left to prove.
  if (!proven) throw notFound(NO_OWN_HANDLE)
  return proven
}
