// Codeforces' second proof of a handle, as TLE's `;handle identify` makes it: a compilation error
// submitted to a problem the service picked, inside the challenge's minutes, read back from
// user.status. The problems, the answer's schema and its reading; the request is results.ts's.
import { z } from 'zod'
import type { ChallengeAnswer, ChallengeProblem, SubmissionChallenge } from '../results.ts'

const problem = (contestId: number, index: string, name: string): ChallengeProblem => ({
  contestId,
  index,
  name,
  url: `https://codeforces.com/problemset/problem/${contestId}/${index}`,
})

/**
 * The problems a challenge picks from: well-known problemset problems of old rounds, open to
 * practice submissions for good, where a compilation error costs nothing (no penalty outside a
 * contest, no rating). A fixed list, so the page names the problem before anyone submits.
 */
export const CHALLENGE_PROBLEMS: readonly ChallengeProblem[] = [
  problem(1, 'A', 'Theatre Square'),
  problem(4, 'A', 'Watermelon'),
  problem(71, 'A', 'Way Too Long Words'),
  problem(112, 'A', 'Petya and Strings'),
  problem(158, 'A', 'Next Round'),
  problem(231, 'A', 'Team'),
  problem(236, 'A', 'Boy or Girl'),
  problem(263, 'A', 'Beautiful Matrix'),
  problem(282, 'A', 'Bit++'),
  problem(339, 'A', 'Helpful Maths'),
]

/** The verdict a challenge asks for: no one gets it on a chosen problem by chance. */
export const CHALLENGE_VERDICT = 'COMPILATION_ERROR'

/**
 * Submissions user.status is asked for, newest first. A challenge lasts minutes, in which a person
 * submits a few times at most; ten keeps the answer small and still finds the one that proves.
 */
export const STATUS_COUNT = 10

// Only what the proof reads of a Submission (codeforces.com/apiHelp/objects#Submission); the API
// leaves out the fields it has no value for (a verdict while the submission waits to be judged).
export const submissionSchema = z.object({
  id: z.number().int(),
  contestId: z.number().int().optional(),
  creationTimeSeconds: z.number().int(),
  problem: z.object({
    contestId: z.number().int().optional(),
    index: z.string(),
    name: z.string(),
  }),
  author: z.object({
    members: z.array(z.object({ handle: z.string().min(1).optional() })),
  }),
  verdict: z.string().optional(),
})
export type Submission = z.infer<typeof submissionSchema>

// Verdicts Codeforces shows while the submission is still being judged; none at all in the queue.
const JUDGING = new Set(['TESTING', 'SUBMITTED'])

/**
 * What the handle's latest submissions say of the challenge: proven by one of the challenge's
 * problem, with a compilation error, made between its issue and its deadline (Codeforces counts
 * whole seconds, so both ends are compared in whole seconds) by the handle alone (a team's
 * submission is not one person's proof), answered in Codeforces' spelling of the handle.
 */
export function challengeAnswer(
  submissions: readonly Submission[],
  handle: string,
  challenge: SubmissionChallenge,
): ChallengeAnswer {
  const from = Math.floor(challenge.issuedAt / 1000)
  const until = Math.floor(challenge.expiresAt / 1000)
  const key = handle.toLowerCase()
  const candidates = submissions.filter((s) => {
    const [member, ...others] = s.author.members
    return (
      others.length === 0 &&
      member?.handle?.toLowerCase() === key &&
      (s.problem.contestId ?? s.contestId) === challenge.problem.contestId &&
      s.problem.index === challenge.problem.index &&
      s.creationTimeSeconds >= from &&
      s.creationTimeSeconds <= until
    )
  })
  const proof = candidates.find((s) => s.verdict === CHALLENGE_VERDICT)
  if (proof) return { state: 'proven', handle: proof.author.members[0]!.handle! }
  const judging = candidates.some((s) => s.verdict === undefined || JUDGING.has(s.verdict))
  return { state: 'none', judging }
}
