// Codeforces' public results: the proofs (a token in user.info, or a submission in user.status),
// a round's rating changes or its final standings, a handle's rating history and Codeforces'
// titles. codeforces-gym reuses the proofs and the standings (a gym has no ratings).
import { z } from 'zod'
import { HOUR_MS } from '../../lib/time.ts'
import type { FixtureRoute } from '../fixture-route.ts'
import { shiftJson } from '../fixture-time.ts'
import type {
  ChallengeAnswer,
  ContestResults,
  EndedContest,
  HandleProof,
  PublicProfile,
  RatingPoint,
  RatingRank,
  ResultRow,
  ResultsModule,
  ResultsRequest,
  SubmissionChallenge,
  SubmissionProof,
} from '../results.ts'
import { describeIssues } from '../source.ts'
import { fetchJson, tryParseJson, UpstreamError, type UpstreamResponse } from '../upstream.ts'
import {
  CHALLENGE_PROBLEMS,
  CHALLENGE_VERDICT,
  challengeAnswer,
  STATUS_COUNT,
  submissionSchema,
} from './submission-proof.ts'

type CodeforcesPlatform = 'codeforces' | 'codeforces-gym'

/** The API's terms: "API may be requested at most 1 time per two seconds" (codeforces.com/apiHelp). */
export const CODEFORCES_MIN_INTERVAL_MS = 2_000

/**
 * How long after a round's end an empty contest.ratingChanges still means "not published yet".
 * The API says nowhere whether a round is rated: it answers an empty list both before ratings are
 * published and for an unrated round. TLE watches a finished round for 36 hours
 * (tle/util/cache/rating_changes.py, `_RATED_DELAY`); ratings have come later than that after a
 * cheater purge, and a rating missed is worse than an unrated round told late, so we wait 72.
 * A round whose name says it is unrated does not wait (unratedByName).
 */
export const RATINGS_GRACE_MS = 72 * HOUR_MS

// Names Codeforces gives rounds that are never rated: "(Unrated, Online Mirror...)", April Fools,
// Kotlin Heroes, Q# and testing rounds (TLE's "nonstandard" names, tle/util/codeforces_common.py).
const UNRATED_NAME = /\bunrated\b|\bapril fools\b|\bkotlin heroes\b|\bq#|\btesting round\b/i

export function unratedByName(name: string): boolean {
  return UNRATED_NAME.test(name)
}

// Codeforces handles: 3 to 24 latin letters, digits, '_', '-' and '.'. Anything else is asked of
// nobody (a ';' would ask user.info for several users at once).
const HANDLE = /^[A-Za-z0-9_.-]{3,24}$/

// --- the titles --------------------------------------------------------------------------------

/**
 * Codeforces' titles and their lower bounds, as its profiles show them (TLE's RATED_RANKS in
 * tle/util/codeforces_api.py has the same bounds), in the colours of Codeforces' own style sheet
 * (its user-gray ... user-red classes). A legendary grandmaster's handle is red with a black first
 * letter, which one colour cannot say.
 */
export const CODEFORCES_RANKS: readonly (RatingRank & { from: number })[] = [
  { from: 3000, title: 'Legendary Grandmaster', colour: '#ff0000' },
  { from: 2600, title: 'International Grandmaster', colour: '#ff0000' },
  { from: 2400, title: 'Grandmaster', colour: '#ff0000' },
  { from: 2300, title: 'International Master', colour: '#ff8c00' },
  { from: 2100, title: 'Master', colour: '#ff8c00' },
  { from: 1900, title: 'Candidate Master', colour: '#aa00aa' },
  { from: 1600, title: 'Expert', colour: '#0000ff' },
  { from: 1400, title: 'Specialist', colour: '#03a89e' },
  { from: 1200, title: 'Pupil', colour: '#008000' },
  { from: Number.NEGATIVE_INFINITY, title: 'Newbie', colour: '#808080' },
]

export function codeforcesRank(rating: number): RatingRank {
  const { title, colour } = CODEFORCES_RANKS.find((r) => rating >= r.from)!
  return { title, colour }
}

// --- the API -----------------------------------------------------------------------------------

const envelopeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('OK'), result: z.unknown() }),
  z.object({ status: z.literal('FAILED'), comment: z.string().optional() }),
])

/** A FAILED answer of a method, with the comment the API gave. */
export class CodeforcesRefusal extends UpstreamError {
  constructor(
    platform: CodeforcesPlatform,
    method: string,
    readonly comment: string,
    status?: number,
  ) {
    super(platform, 'api', `${method} FAILED: ${comment}`, status)
  }
}

/**
 * The `result` of `method` with `params`, read by `schema`. A FAILED answer (Codeforces sends it
 * with HTTP 400; one with 200 reads the same) throws a CodeforcesRefusal; anything that is not
 * the documented envelope, or whose result `schema` refuses, throws malformed.
 */
async function callApi<S extends z.ZodType>(
  platform: CodeforcesPlatform,
  request: ResultsRequest,
  method: string,
  params: Record<string, string>,
  schema: S,
  wellFormed?: (result: unknown) => z.output<S> | undefined,
): Promise<z.output<S>> {
  const refusal = (res: UpstreamResponse) => {
    const body = envelopeSchema.safeParse(tryParseJson(res.text))
    if (body.success && body.data.status === 'FAILED') {
      return new CodeforcesRefusal(platform, method, body.data.comment ?? 'no comment', res.status)
    }
    return undefined
  }
  const query = new URLSearchParams(params).toString()
  const answer = await fetchJson(platform, request, `/${method}?${query}`, {}, refusal)
  const envelope = envelopeSchema.safeParse(answer)
  if (!envelope.success) {
    throw new UpstreamError(platform, 'malformed', `${method} answer has no status/result`)
  }
  if (envelope.data.status === 'FAILED') {
    throw new CodeforcesRefusal(platform, method, envelope.data.comment ?? 'no comment')
  }
  // A large answer that is well formed is read without zod (30,000 rating changes took zod most
  // of the answer's time: npm run bench:results); anything else goes to zod, which names faults.
  const read = wellFormed?.(envelope.data.result)
  if (read !== undefined) return read
  const result = schema.safeParse(envelope.data.result)
  if (!result.success) {
    throw new UpstreamError(platform, 'malformed', `${method}: ${describeIssues(result.error)}`)
  }
  return result.data
}

// The API's "handles: User with handle X not found" (user.info) and "handle: ..." (user.rating).
const NOT_FOUND = /\bUser with handle .+ not found\b/

function isNotFound(error: unknown): boolean {
  return error instanceof CodeforcesRefusal && NOT_FOUND.test(error.comment)
}

// --- the proof ---------------------------------------------------------------------------------

// Only what a proof and a title read; user.info carries more (contribution, avatar...).
const userSchema = z.object({
  handle: z.string().min(1),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  organization: z.string().optional(),
  rating: z.number().int().optional(),
})

/**
 * The handle's public profile from user.info, with checkHistoricHandles so that a renamed handle
 * answers with its new spelling (Codeforces allows a rename a year); undefined when Codeforces has
 * no such handle.
 */
export async function codeforcesProfile(
  platform: CodeforcesPlatform,
  request: ResultsRequest,
  handle: string,
): Promise<PublicProfile | undefined> {
  if (!HANDLE.test(handle)) return undefined
  let users: z.infer<typeof userSchema>[]
  try {
    const params = { handles: handle, checkHistoricHandles: 'true' }
    users = await callApi(platform, request, 'user.info', params, z.array(userSchema).length(1))
  } catch (error) {
    if (isNotFound(error)) return undefined
    throw error
  }
  const [user] = users
  const fields = [user.firstName, user.lastName, user.organization].filter(
    (f): f is string => !!f?.trim(),
  )
  return { handle: user.handle, fields, ...(user.rating !== undefined && { rating: user.rating }) }
}

// The handle a "handles: User with handle X not found" names.
const MISSING_HANDLE = /\bUser with handle (\S+) not found\b/

/** Handles asked in one user.info (the API takes up to 10,000; 200 keeps the URL short). */
export const RENAME_BATCH = 200

/**
 * The handles as Codeforces spells them now, from one user.info asked with
 * checkHistoricHandles=false (so every answer is the very handle asked, in the order asked), or
 * the first handle it does not know under that name: a renamed handle, or one gone.
 */
export async function codeforcesExactHandles(
  request: ResultsRequest,
  handles: readonly string[],
): Promise<{ found: string[] } | { missing: string }> {
  // A handle Codeforces could not hold is asked of nobody: it is gone under that name.
  const invalid = handles.find((h) => !HANDLE.test(h))
  if (invalid !== undefined) return { missing: invalid }
  const asked = [...handles]
  if (asked.length === 0) return { found: [] }
  try {
    const params = { handles: asked.join(';'), checkHistoricHandles: 'false' }
    const users = await callApi(
      'codeforces',
      request,
      'user.info',
      params,
      z.array(userSchema).length(asked.length),
    )
    return { found: users.map((u) => u.handle) }
  } catch (error) {
    if (!isNotFound(error)) throw error
    const named = MISSING_HANDLE.exec((error as CodeforcesRefusal).comment)?.[1]
    const missing = asked.find((h) => h.toLowerCase() === named?.toLowerCase())
    // A refusal naming none of the handles asked is not an answer about them.
    if (missing === undefined) throw error
    return { missing }
  }
}

/** The handle Codeforces answers for a former one (user.info with checkHistoricHandles=true). */
export async function codeforcesCurrentHandle(
  request: ResultsRequest,
  handle: string,
): Promise<string | undefined> {
  return (await codeforcesProfile('codeforces', request, handle))?.handle
}

/**
 * The handle's latest STATUS_COUNT submissions from user.status (newest first), read for the
 * challenge (submission-proof.ts); missing when Codeforces has no such handle ("handle: User with
 * handle X not found").
 */
export async function codeforcesChallengeAnswer(
  platform: CodeforcesPlatform,
  request: ResultsRequest,
  handle: string,
  challenge: SubmissionChallenge,
): Promise<ChallengeAnswer> {
  if (!HANDLE.test(handle)) return { state: 'missing' }
  try {
    const params = { handle, from: '1', count: String(STATUS_COUNT) }
    const submissions = await callApi(
      platform,
      request,
      'user.status',
      params,
      z.array(submissionSchema),
    )
    return challengeAnswer(submissions, handle, challenge)
  } catch (error) {
    if (isNotFound(error)) return { state: 'missing' }
    throw error
  }
}

function codeforcesSubmissionProof(platform: CodeforcesPlatform): SubmissionProof {
  return {
    what: 'compilation error',
    verdict: CHALLENGE_VERDICT,
    problems: CHALLENGE_PROBLEMS,
    check: (request, handle, challenge) =>
      codeforcesChallengeAnswer(platform, request, handle, challenge),
  }
}

export function codeforcesProof(platform: CodeforcesPlatform): HandleProof {
  return {
    where: 'First name, last name or organization (Settings > Social)',
    editUrl: 'https://codeforces.com/settings/social',
    profile: (request, handle) => codeforcesProfile(platform, request, handle),
    // A gym handle is a Codeforces account: the problemset takes its submissions the same way.
    submission: codeforcesSubmissionProof(platform),
  }
}

// --- a round's results -------------------------------------------------------------------------

export const ratingChangeSchema = z.object({
  contestId: z.number().int().positive(),
  contestName: z.string(),
  handle: z.string().min(1),
  // The rank at the moment of the rating update; the API documents that it is not updated after
  // (a disqualification moves the standings, not this field).
  rank: z.number().int().positive(),
  ratingUpdateTimeSeconds: z.number().int().positive(),
  oldRating: z.number().int(),
  newRating: z.number().int(),
})
type RatingChange = z.infer<typeof ratingChangeSchema>

const isInt = (v: unknown): v is number => Number.isInteger(v)
const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0

/**
 * The rating changes as `z.array(ratingChangeSchema)` reads them (the schema's fields only) when
 * every row is well formed by its rules, else undefined: zod then reads the answer and names what
 * is wrong. Pinned to the schema by results.test.ts.
 */
export function wellFormedRatingChanges(result: unknown): RatingChange[] | undefined {
  if (!Array.isArray(result)) return undefined
  const changes: RatingChange[] = new Array(result.length)
  for (let i = 0; i < result.length; i++) {
    const c = result[i] as Record<string, unknown> | null
    if (
      typeof c !== 'object' ||
      c === null ||
      Array.isArray(c) ||
      !isPositiveInt(c.contestId) ||
      typeof c.contestName !== 'string' ||
      typeof c.handle !== 'string' ||
      c.handle.length < 1 ||
      !isPositiveInt(c.rank) ||
      !isPositiveInt(c.ratingUpdateTimeSeconds) ||
      !isInt(c.oldRating) ||
      !isInt(c.newRating)
    ) {
      return undefined
    }
    changes[i] = {
      contestId: c.contestId,
      contestName: c.contestName,
      handle: c.handle,
      rank: c.rank,
      ratingUpdateTimeSeconds: c.ratingUpdateTimeSeconds,
      oldRating: c.oldRating,
      newRating: c.newRating,
    }
  }
  return changes
}

/**
 * contest.ratingChanges: every rated participant's change, or [] while ratings are not published
 * and for unrated rounds. Some contests refuse the call instead ("Rating changes are unavailable
 * for this contest"), which TLE's codeforces_api.py reads as "no changes", as we do.
 */
async function ratingChanges(request: ResultsRequest, contestId: string): Promise<RatingChange[]> {
  try {
    const changes = await callApi(
      'codeforces',
      request,
      'contest.ratingChanges',
      { contestId },
      z.array(ratingChangeSchema),
      wellFormedRatingChanges,
    )
    if (changes.some((c) => String(c.contestId) !== contestId)) {
      throw new UpstreamError(
        'codeforces',
        'malformed',
        `contest.ratingChanges: rows of another contest than ${contestId}`,
      )
    }
    return changes
  } catch (error) {
    if (
      error instanceof CodeforcesRefusal &&
      /rating changes are unavailable/i.test(error.comment)
    ) {
      return []
    }
    throw error
  }
}

const standingsSchema = z.object({
  contest: z.object({
    id: z.number().int().positive(),
    name: z.string(),
    type: z.string(),
    phase: z.string().min(1),
  }),
  problems: z.array(z.object({ index: z.string(), points: z.number().optional() })),
  rows: z.array(
    z.object({
      party: z.object({
        members: z.array(z.object({ handle: z.string().min(1).optional() })),
        participantType: z.string(),
        teamId: z.number().int().optional(),
        teamName: z.string().optional(),
        ghost: z.boolean().optional(),
      }),
      rank: z.number().int().nonnegative(),
      points: z.number(),
      problemResults: z.array(z.object({ points: z.number() })),
    }),
  ),
})
type Standings = z.infer<typeof standingsSchema>

/**
 * contest.standings of the official participants (showUnofficial=false: no virtual, practice or
 * out-of-competition rows). `count` asks for the first rows only: the contest's name and phase
 * without the whole table.
 */
export async function codeforcesStandings(
  platform: CodeforcesPlatform,
  request: ResultsRequest,
  contestId: string,
  count?: number,
): Promise<Standings> {
  const params = {
    contestId,
    ...(count !== undefined && { from: '1', count: String(count) }),
    showUnofficial: 'false',
  }
  const standings = await callApi(platform, request, 'contest.standings', params, standingsSchema)
  if (String(standings.contest.id) !== contestId) {
    throw new UpstreamError(
      platform,
      'malformed',
      `contest.standings: contest ${standings.contest.id} for ${contestId}`,
    )
  }
  return standings
}

/**
 * Final standings as result rows: each member of a party gets the party's row (a team's three
 * members each rank 2nd). Ghosts (a gym's onsite teams, named but without accounts) rank and are
 * counted but give no row; unofficial rows (virtual, practice, out of competition) are neither.
 * `participants` counts parties, as the judge ranks them.
 */
export function standingsResults(standings: Standings): ContestResults & { state: 'published' } {
  const official = standings.rows.filter((row) => row.party.participantType === 'CONTESTANT')
  const rows: ResultRow[] = official.flatMap((row) => {
    if (row.party.ghost) return []
    const solved = solvedCount(standings, row.problemResults)
    return row.party.members.flatMap((member) =>
      member.handle
        ? [{ handle: member.handle, rank: row.rank, ...(solved !== undefined && { solved }) }]
        : [],
    )
  })
  return { state: 'published', rated: false, participants: official.length, rows }
}

/**
 * Problems solved: any points on a CF or ICPC round (ICPC gives 1 for a solved problem, CF the
 * problem's score); on an IOI round, where partial scores count, only a problem's full score.
 */
function solvedCount(standings: Standings, results: readonly { points: number }[]) {
  if (standings.contest.type !== 'IOI') return results.filter((r) => r.points > 0).length
  const full = standings.problems.map((p) => p.points)
  if (full.every((p) => p === undefined)) return undefined
  return results.filter((r, i) => full[i] !== undefined && r.points >= full[i]!).length
}

function ratingResults(changes: readonly RatingChange[]): ContestResults {
  return {
    state: 'published',
    rated: true,
    participants: changes.length,
    rows: changes.map((c) => ({
      handle: c.handle,
      rank: c.rank,
      oldRating: c.oldRating,
      newRating: c.newRating,
    })),
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Keeps the API's interval before the next request of the same answer. */
function pause(request: ResultsRequest): Promise<void> {
  return (request.pause ?? sleep)(CODEFORCES_MIN_INTERVAL_MS)
}

/**
 * A round's results, in as few requests as the answer allows:
 * 1. contest.ratingChanges: rows there are the published ratings (one request, the common case).
 * 2. Empty: the first standings row tells the phase and the name. Before FINISHED (system tests,
 *    open hacking) nothing is final. FINISHED, named as a rated round and within
 *    RATINGS_GRACE_MS of its end: ratings are still to come.
 * 3. Otherwise the round is unrated: its final standings, in full.
 * A rollback empties ratingChanges again, which reads as pending until the grace ends; the
 * re-calculated ratings read as published with the new numbers.
 */
export async function codeforcesContestResults(
  request: ResultsRequest,
  contest: EndedContest,
): Promise<ContestResults> {
  const changes = await ratingChanges(request, contest.platformId)
  if (changes.length > 0) return ratingResults(changes)
  await pause(request)
  const first = await codeforcesStandings('codeforces', request, contest.platformId, 1)
  if (first.contest.phase !== 'FINISHED') return { state: 'pending' }
  const awaitingRatings =
    !unratedByName(first.contest.name) && request.now < contest.endTime + RATINGS_GRACE_MS
  if (awaitingRatings) return { state: 'pending' }
  await pause(request)
  const standings = await codeforcesStandings('codeforces', request, contest.platformId)
  if (standings.contest.phase !== 'FINISHED') return { state: 'pending' }
  return standingsResults(standings)
}

/** A gym's results: its final standings once FINISHED (gyms have no ratings). */
export async function codeforcesGymContestResults(
  request: ResultsRequest,
  contest: EndedContest,
): Promise<ContestResults> {
  const standings = await codeforcesStandings('codeforces-gym', request, contest.platformId)
  if (standings.contest.phase !== 'FINISHED') return { state: 'pending' }
  return standingsResults(standings)
}

// --- a handle's history ------------------------------------------------------------------------

/** user.rating: the handle's rated rounds, oldest first, as Codeforces lists them. */
export async function codeforcesHistory(
  request: ResultsRequest,
  handle: string,
): Promise<RatingPoint[]> {
  if (!HANDLE.test(handle)) {
    throw new UpstreamError('codeforces', 'api', `user.rating: not a Codeforces handle: ${handle}`)
  }
  const changes = await callApi(
    'codeforces',
    request,
    'user.rating',
    { handle },
    z.array(ratingChangeSchema),
  )
  return changes
    .map((c) => ({
      contestName: c.contestName,
      platformId: String(c.contestId),
      time: c.ratingUpdateTimeSeconds * 1000,
      rank: c.rank,
      oldRating: c.oldRating,
      newRating: c.newRating,
    }))
    .sort((a, b) => a.time - b.time)
}

// --- the recorded answers ----------------------------------------------------------------------

/** Unix seconds of the results answers, moved for a later stand-in. */
export const shiftCodeforcesResults = shiftJson({
  seconds: [
    'ratingUpdateTimeSeconds',
    'startTimeSeconds',
    'lastOnlineTimeSeconds',
    'registrationTimeSeconds',
    'creationTimeSeconds',
  ],
})

export function codeforcesResultsRoute(path: string, file: string): FixtureRoute {
  return {
    method: 'GET',
    path,
    file: `fixtures/results/${file}`,
    contentType: 'application/json',
    shift: shiftCodeforcesResults,
  }
}

export const codeforcesResults: ResultsModule = {
  proof: codeforcesProof('codeforces'),
  scope: 'contest',
  minIntervalMs: CODEFORCES_MIN_INTERVAL_MS,
  contestResults: codeforcesContestResults,
  history: codeforcesHistory,
  rank: codeforcesRank,
  renames: { batch: RENAME_BATCH, exact: codeforcesExactHandles, current: codeforcesCurrentHandle },
  // Matched by path and the query given here (stand-in-routes.ts): the standings route answers
  // both the first-row probe (from=1&count=1) and the full table.
  fixtures: [
    codeforcesResultsRoute('/contest.ratingChanges?contestId=2289', 'rating-changes-2289.json'),
    codeforcesResultsRoute('/contest.ratingChanges?contestId=2290', 'rating-changes-empty.json'),
    codeforcesResultsRoute('/contest.standings?contestId=2290', 'standings-2290-pending.json'),
    codeforcesResultsRoute('/contest.ratingChanges?contestId=2285', 'rating-changes-empty.json'),
    codeforcesResultsRoute('/contest.standings?contestId=2285', 'standings-2285-unrated.json'),
    codeforcesResultsRoute('/contest.ratingChanges?contestId=2293', 'rating-changes-empty.json'),
    codeforcesResultsRoute('/contest.standings?contestId=2293', 'standings-2293-teams.json'),
    codeforcesResultsRoute('/user.info?handles=Kestrel_09', 'user-info-kestrel.json'),
    codeforcesResultsRoute('/user.info?handles=lynx_old', 'user-info-renamed.json'),
    codeforcesResultsRoute('/user.info?handles=fresh_start', 'user-info-unrated.json'),
    codeforcesResultsRoute('/user.info?handles=nobody_here', 'user-info-missing.json'),
    codeforcesResultsRoute('/user.rating?handle=Kestrel_09', 'user-rating-kestrel.json'),
    codeforcesResultsRoute('/user.rating?handle=nobody_here', 'user-rating-missing.json'),
    codeforcesResultsRoute('/user.status?handle=Kestrel_09', 'user-status-kestrel.json'),
    codeforcesResultsRoute('/user.status?handle=nobody_here', 'user-status-missing.json'),
  ],
}
