// Codeforces' results module: the proofs (a token in the profile, a compilation error to a
// challenge's problem), a round's ratings or standings (pending, published, unrated, teams, rolled
// back), the history and the titles, against the stand-in serving the recorded answers.
import { beforeEach, describe, expect, it } from 'vitest'
import { serveResults } from '../../../test/helpers/platforms.ts'
import {
  expectOneRequest,
  expectSent,
  requestPaths,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { HOUR_MS } from '../../lib/time.ts'
import type { ContestResults, EndedContest, ResultRow, ResultsRequest } from '../results.ts'
import { matchStandInRoute, standInRoutes } from '../stand-in-routes.ts'
import ratingChangesBroken from './fixtures/results/rating-changes-broken.json'
import ratingChangesEmpty from './fixtures/results/rating-changes-empty.json'
import ratingChangesRecalculated from './fixtures/results/rating-changes-2289-recalculated.json'
import ratingChanges2289 from './fixtures/results/rating-changes-2289.json'
import ratingChangesUnavailable from './fixtures/results/rating-changes-unavailable.json'
import standingsBroken from './fixtures/results/standings-broken.json'
import standings2285 from './fixtures/results/standings-2285-unrated.json'
import standings2290 from './fixtures/results/standings-2290-pending.json'
import userInfoBroken from './fixtures/results/user-info-broken.json'
import userInfoMissing from './fixtures/results/user-info-missing.json'
import userInfoBatchMissing from './fixtures/results/user-info-batch-missing.json'
import userInfoQuokka from './fixtures/results/user-info-quokka.json'
import userStatusKestrel from './fixtures/results/user-status-kestrel.json'
import userStatusMissing from './fixtures/results/user-status-missing.json'
import { codeforcesGymResults } from '../codeforces-gym/results.ts'
import { codeforces } from './index.ts'
import {
  codeforcesContestResults,
  codeforcesRank,
  codeforcesResults,
  RATINGS_GRACE_MS,
  ratingChangeSchema,
  unratedByName,
  wellFormedRatingChanges,
} from './results.ts'
import { CHALLENGE_PROBLEMS, STATUS_COUNT } from './submission-proof.ts'
import { z } from 'zod'

const BASE = '/codeforces-api'
let pauses: number[] = []

/** A request to the stand-in at `now`, whose pauses are recorded instead of waited. */
const request = (fields: Partial<ResultsRequest> = {}): ResultsRequest => ({
  ...standInRequest(BASE),
  pause: async (ms) => {
    pauses.push(ms)
  },
  ...fields,
})

/** A round of the catalogue's recorded contest.list, as the pipeline hands it over. */
function ended(
  platformId: string,
  startIso: string,
  durationMs: number,
  type = 'CF',
): EndedContest {
  const startTime = Date.parse(startIso)
  return { platformId, startTime, endTime: startTime + durationMs, type }
}
const EDU_186 = ended('2289', '2026-11-19T14:35:00Z', 2 * HOUR_MS, 'ICPC')
const DIV3_1088 = ended('2290', '2026-11-21T14:35:00Z', 2.25 * HOUR_MS, 'ICPC')
const INNOPOLIS_MIRROR = ended('2285', '2026-11-14T09:05:00Z', 5 * HOUR_MS, 'IOI')
const NERC_MIRROR = ended('2293', '2026-11-23T08:05:00Z', 5 * HOUR_MS, 'ICPC')

const results = (contest: EndedContest, fields: Partial<ResultsRequest> = {}) =>
  codeforcesContestResults(request(fields), contest)

function published(answer: ContestResults) {
  if (answer.state !== 'published') throw new Error(`expected published, got ${answer.state}`)
  return answer
}

function row(answer: ContestResults, handle: string): ResultRow {
  const found = published(answer).rows.find((r) => r.handle === handle)
  if (!found) throw new Error(`no row for ${handle}`)
  return found
}

/** Scripts one method of the API (for the contest or handle of `query`) to answer `body`. */
const scriptMethod = (method: string, query: Record<string, string>, body: unknown, status = 200) =>
  standIn.script({ pathPrefix: `${BASE}/${method}`, query, responses: [{ status, body }] })

beforeEach(async () => {
  pauses = []
  await standIn.reset()
  await serveResults('codeforces')
})

describe('Codeforces titles', () => {
  it.each([
    [0, 'Newbie', '#808080'],
    [1199, 'Newbie', '#808080'],
    [1200, 'Pupil', '#008000'],
    [1399, 'Pupil', '#008000'],
    [1400, 'Specialist', '#03a89e'],
    [1600, 'Expert', '#0000ff'],
    [1899, 'Expert', '#0000ff'],
    [1900, 'Candidate Master', '#aa00aa'],
    [2100, 'Master', '#ff8c00'],
    [2300, 'International Master', '#ff8c00'],
    [2400, 'Grandmaster', '#ff0000'],
    [2600, 'International Grandmaster', '#ff0000'],
    [2999, 'International Grandmaster', '#ff0000'],
    [3000, 'Legendary Grandmaster', '#ff0000'],
    [4000, 'Legendary Grandmaster', '#ff0000'],
  ])('%i is %s', (rating, title, colour) => {
    expect(codeforcesRank(rating)).toEqual({ title, colour })
  })
})

describe('Codeforces renames', () => {
  const renames = codeforcesResults.renames!

  it('asks a batch by exact names in one user.info and answers the judge’s spelling', async () => {
    await scriptMethod(
      'user.info',
      { handles: 'quokka', checkHistoricHandles: 'false' },
      userInfoQuokka,
    )
    expect(await renames.exact(request(), ['quokka'])).toEqual({ found: ['Quokka'] })
    await expectOneRequest(
      `${BASE}/user.info`,
      `${BASE}/user.info?handles=quokka&checkHistoricHandles=false`,
      'GET',
    )
  })

  it('names the handle a batch’s “not found” names, and looks it up as a former handle', async () => {
    const query = { handles: 'lynx_old;quokka', checkHistoricHandles: 'false' }
    await scriptMethod('user.info', query, userInfoBatchMissing, 400)
    expect(await renames.exact(request(), ['lynx_old', 'quokka'])).toEqual({
      missing: 'lynx_old',
    })
    // The recorded route: lynx_old answered as lynx_dev (checkHistoricHandles=true).
    expect(await renames.current(request(), 'lynx_old')).toBe('lynx_dev')
    expect(await renames.current(request(), 'nobody_here')).toBeUndefined()
  })

  it('throws a “not found” that names none of the handles asked', async () => {
    const query = { handles: 'quokka', checkHistoricHandles: 'false' }
    await scriptMethod('user.info', query, userInfoBatchMissing, 400)
    await expect(renames.exact(request(), ['quokka'])).rejects.toThrow(/not found/)
  })
})

describe('Codeforces proof', () => {
  const profile = (handle: string) => codeforcesResults.proof.profile(request(), handle)

  it('reads first name, last name and organization of user.info, with the rating', async () => {
    expect(await profile('Kestrel_09')).toEqual({
      handle: 'Kestrel_09',
      fields: ['CAS-7Q4K9M2X', 'Petrova', 'Nazarbayev University'],
      rating: 1623,
    })
    const [sent] = await standIn.requests(`${BASE}/`)
    expectSent(sent, `${BASE}/user.info?handles=Kestrel_09&checkHistoricHandles=true`, 'GET')
  })

  it('answers a renamed handle with the spelling Codeforces gives now', async () => {
    const renamed = await profile('lynx_old')
    expect(renamed?.handle).toBe('lynx_dev')
    expect(renamed?.fields).toContain('CAS-8XW2R5PD')
  })

  it('gives an unrated handle without fields a profile without rating', async () => {
    expect(await profile('fresh_start')).toEqual({ handle: 'fresh_start', fields: [] })
  })

  it('gives undefined for a handle Codeforces does not know, sent with 200 or 400', async () => {
    expect(await profile('nobody_here')).toBeUndefined()
    await scriptMethod('user.info', { handles: 'nobody_here' }, userInfoMissing, 400)
    expect(await profile('nobody_here')).toBeUndefined()
  })

  it('asks nothing for a string that cannot be a handle', async () => {
    expect(await profile('a;tourist')).toBeUndefined()
    expect(await profile('ab')).toBeUndefined()
    expect(await requestPaths(`${BASE}/`)).toEqual([])
  })

  it('throws, never "no such handle", when the call is refused for another reason', async () => {
    const limit = { status: 'FAILED', comment: 'Call limit exceeded' }
    await scriptMethod('user.info', { handles: 'Kestrel_09' }, limit, 429)
    const error = await upstreamFailure(profile('Kestrel_09'), 'api')
    expect(error.message).toContain('Call limit exceeded')
    expect(error.blocked).toBe(true)
  })

  it('reports a user.info answer without its list of users as malformed', async () => {
    await scriptMethod('user.info', { handles: 'Kestrel_09' }, userInfoBroken)
    await upstreamFailure(profile('Kestrel_09'), 'malformed')
  })
})

describe('Codeforces proof by a submission', () => {
  const proof = codeforcesResults.proof.submission!
  const problem = (contestId: number) =>
    CHALLENGE_PROBLEMS.find((p) => p.contestId === contestId && p.index === 'A')!
  // The recorded user.status: a compilation error to 4A at 11:59:00 (RECORDED_AT less a minute),
  // an accepted 71A at 11:57:00, a 1A still in testing at 11:59:50.
  const CE_AT = (userStatusKestrel.result[1]!.creationTimeSeconds as number) * 1000
  const challenge = (contestId: number, issuedAt = CE_AT - 60_000, ttl = 5 * 60_000) => ({
    problem: problem(contestId),
    issuedAt,
    expiresAt: issuedAt + ttl,
  })
  const check = (handle: string, c: ReturnType<typeof challenge>) =>
    proof.check(request(), handle, c)

  it('finds the compilation error to the problem in time, in Codeforces’ spelling', async () => {
    // The recorded route, asked for the latest few submissions only.
    expect(await check('Kestrel_09', challenge(4))).toEqual({
      state: 'proven',
      handle: 'Kestrel_09',
    })
    const [sent] = await standIn.requests(`${BASE}/`)
    expectSent(sent, `${BASE}/user.status?handle=Kestrel_09&from=1&count=${STATUS_COUNT}`, 'GET')
    // Asked in other letters' case, answered with the author as Codeforces spells the handle.
    await scriptMethod('user.status', { handle: 'kestrel_09' }, userStatusKestrel)
    expect(await check('kestrel_09', challenge(4))).toEqual({
      state: 'proven',
      handle: 'Kestrel_09',
    })
  })

  it('takes a submission made in the very second the challenge was issued or ends', async () => {
    expect((await check('Kestrel_09', challenge(4, CE_AT + 999))).state).toBe('proven')
    expect((await check('Kestrel_09', challenge(4, CE_AT - 5 * 60_000))).state).toBe('proven')
  })

  it('is no proof on another problem, with another verdict, or still in testing', async () => {
    // 71A was accepted in the window: not the verdict asked for.
    expect(await check('Kestrel_09', challenge(71))).toEqual({ state: 'none', judging: false })
    // No submission at all to 282A.
    expect(await check('Kestrel_09', challenge(282))).toEqual({ state: 'none', judging: false })
    // 1A is still being tested: not yet, and the answer says so.
    expect(await check('Kestrel_09', challenge(1))).toEqual({ state: 'none', judging: true })
  })

  it('is no proof made before the challenge was issued, or after its deadline', async () => {
    const before = challenge(4, CE_AT + 1_000)
    expect(await check('Kestrel_09', before)).toEqual({ state: 'none', judging: false })
    const after = challenge(4, CE_AT - 5 * 60_000 - 1_000)
    expect(await check('Kestrel_09', after)).toEqual({ state: 'none', judging: false })
  })

  it('is no proof when the submission is another handle’s, or a team’s', async () => {
    const [, ce] = userStatusKestrel.result
    const by = (members: { handle: string }[]) => ({
      status: 'OK',
      result: [{ ...ce, author: { ...ce!.author, members } }],
    })
    await scriptMethod('user.status', { handle: 'Kestrel_09' }, by([{ handle: 'someone_else' }]))
    expect((await check('Kestrel_09', challenge(4))).state).toBe('none')
    await standIn.reset()
    const team = [{ handle: 'Kestrel_09' }, { handle: 'someone_else' }]
    await scriptMethod('user.status', { handle: 'Kestrel_09' }, by(team))
    expect((await check('Kestrel_09', challenge(4))).state).toBe('none')
  })

  it('answers missing for a handle Codeforces does not know, sent with 200 or 400', async () => {
    expect(await check('nobody_here', challenge(4))).toEqual({ state: 'missing' })
    await scriptMethod('user.status', { handle: 'nobody_here' }, userStatusMissing, 400)
    expect(await check('nobody_here', challenge(4))).toEqual({ state: 'missing' })
    // Nothing is asked for a string that cannot be a handle.
    await standIn.reset()
    expect(await check('a;b', challenge(4))).toEqual({ state: 'missing' })
    expect(await requestPaths(`${BASE}/`)).toEqual([])
  })

  it('throws, never “missing”, for an answer it cannot read or a refusal of another kind', async () => {
    await scriptMethod('user.status', { handle: 'Kestrel_09' }, { status: 'OK', result: {} })
    await upstreamFailure(check('Kestrel_09', challenge(4)), 'malformed')
    const limit = { status: 'FAILED', comment: 'Call limit exceeded' }
    await scriptMethod('user.status', { handle: 'Kestrel_09' }, limit, 429)
    expect((await upstreamFailure(check('Kestrel_09', challenge(4)), 'api')).blocked).toBe(true)
  })

  it('names well-known problemset problems, each with its page', () => {
    expect(proof).toMatchObject({ what: 'compilation error', verdict: 'COMPILATION_ERROR' })
    expect(proof.problems.length).toBeGreaterThanOrEqual(5)
    for (const p of proof.problems) {
      expect(p.url).toBe(`https://codeforces.com/problemset/problem/${p.contestId}/${p.index}`)
    }
    expect(proof.problems).toContainEqual(expect.objectContaining({ name: 'Watermelon' }))
  })

  it('is declared by the gyms too, which ask the same user.status', async () => {
    const gym = codeforcesGymResults.proof.submission!
    expect(gym.problems).toBe(proof.problems)
    expect(await gym.check(request(), 'Kestrel_09', challenge(4))).toEqual({
      state: 'proven',
      handle: 'Kestrel_09',
    })
  })

  it('moves the recorded submission times by whole weeks for a later stand-in', () => {
    const route = codeforcesResults.fixtures.find((r) => r.path.startsWith('/user.status'))!
    const moved = shiftedJson(route, userStatusKestrel, WEEK_MS)
    expect(moved.result[1].creationTimeSeconds).toBe(
      userStatusKestrel.result[1]!.creationTimeSeconds + WEEK_MS / 1000,
    )
  })
})

describe('Codeforces round results', () => {
  it('reads published ratings from contest.ratingChanges in one request', async () => {
    const answer = published(await results(EDU_186))
    expect(answer).toMatchObject({ rated: true, participants: 6 })
    expect(row(answer, 'Kestrel_09')).toEqual({
      handle: 'Kestrel_09',
      rank: 2105,
      oldRating: 1587,
      newRating: 1623,
    })
    expect(await requestPaths(`${BASE}/`)).toEqual([`${BASE}/contest.ratingChanges?contestId=2289`])
    expect(pauses).toEqual([])
  })

  it('gives the deltas and the titles crossed, up and down, and a first rating from 0', async () => {
    const answer = await results(EDU_186)
    const change = (handle: string) => {
      const r = row(answer, handle)
      return [
        r.newRating! - r.oldRating!,
        codeforcesRank(r.oldRating!).title,
        codeforcesRank(r.newRating!).title,
      ]
    }
    expect(change('Kestrel_09')).toEqual([36, 'Specialist', 'Expert'])
    expect(change('quokka')).toEqual([28, 'Expert', 'Candidate Master'])
    expect(change('lynx_dev')).toEqual([-38, 'Candidate Master', 'Expert'])
    expect(change('Petrichor')).toEqual([93, 'Candidate Master', 'Master'])
    expect(change('newcomer_2026')).toEqual([364, 'Newbie', 'Newbie'])
  })

  it('is pending while the round is in system testing, asking for one standings row', async () => {
    const answer = await results(DIV3_1088)
    expect(answer).toEqual({ state: 'pending' })
    expect(await requestPaths(`${BASE}/`)).toEqual([
      `${BASE}/contest.ratingChanges?contestId=2290`,
      `${BASE}/contest.standings?contestId=2290&from=1&count=1&showUnofficial=false`,
    ])
    expect(pauses).toEqual([2_000])
  })

  it('is pending after FINISHED while a round named rated is within the wait for ratings', async () => {
    const finished = withPhase(standings2290, 'FINISHED')
    await scriptMethod('contest.standings', { contestId: '2290' }, finished)
    const now = DIV3_1088.endTime + 20 * HOUR_MS
    expect(await results(DIV3_1088, { now })).toEqual({ state: 'pending' })
    expect(await requestPaths(`${BASE}/contest.standings`)).toHaveLength(1)
  })

  it('gives the final standings as unrated once the wait for ratings is over', async () => {
    const finished = withPhase(standings2290, 'FINISHED')
    await scriptMethod('contest.standings', { contestId: '2290' }, finished)
    const now = DIV3_1088.endTime + RATINGS_GRACE_MS
    const answer = published(await results(DIV3_1088, { now }))
    expect(answer).toEqual({
      state: 'published',
      rated: false,
      participants: 1,
      rows: [{ handle: 'newcomer_2026', rank: 1, solved: 2 }],
    })
    expect(await requestPaths(`${BASE}/contest.standings`)).toEqual([
      `${BASE}/contest.standings?contestId=2290&from=1&count=1&showUnofficial=false`,
      `${BASE}/contest.standings?contestId=2290&showUnofficial=false`,
    ])
    expect(pauses).toEqual([2_000, 2_000])
  })

  it('publishes a round named unrated at once, with ranks and IOI problems solved', async () => {
    const now = INNOPOLIS_MIRROR.endTime + HOUR_MS
    const answer = published(await results(INNOPOLIS_MIRROR, { now }))
    expect(answer).toMatchObject({ rated: false, participants: 4 })
    expect(answer.rows).toEqual([
      { handle: 'Petrichor', rank: 1, solved: 3 },
      // 100 + 100 + 36 points: partial points are not a problem solved on an IOI round.
      { handle: 'Kestrel_09', rank: 2, solved: 2 },
      { handle: 'lynx_dev', rank: 2, solved: 1 },
      { handle: 'quokka', rank: 4, solved: 0 },
    ])
    expect(answer.rows.every((r) => r.oldRating === undefined)).toBe(true)
  })

  it('gives every member of a team the team rank and problems solved', async () => {
    const answer = published(await results(NERC_MIRROR, { now: NERC_MIRROR.endTime + HOUR_MS }))
    expect(answer.participants).toBe(3)
    expect(answer.rows).toEqual([
      { handle: 'Petrichor', rank: 1, solved: 3 },
      { handle: 'quokka', rank: 1, solved: 3 },
      { handle: 'lynx_dev', rank: 1, solved: 3 },
      { handle: 'Kestrel_09', rank: 2, solved: 2 },
      { handle: 'newcomer_2026', rank: 3, solved: 1 },
      { handle: 'sus_account', rank: 3, solved: 1 },
    ])
  })

  it('leaves out unofficial rows, even if the API sent them', async () => {
    const withVirtual = structuredClone(standings2285)
    withVirtual.result.rows[3].party.participantType = 'VIRTUAL'
    await scriptMethod('contest.standings', { contestId: '2285' }, withVirtual)
    const answer = published(await results(INNOPOLIS_MIRROR))
    expect(answer.participants).toBe(3)
    expect(answer.rows.map((r) => r.handle)).not.toContain('quokka')
  })

  it('reads "rating changes are unavailable" as no ratings, and asks the standings', async () => {
    await scriptMethod(
      'contest.ratingChanges',
      { contestId: '2285' },
      ratingChangesUnavailable,
      400,
    )
    expect(published(await results(INNOPOLIS_MIRROR)).rated).toBe(false)
  })

  it('follows a rollback (pending again) and the re-calculation (the new numbers)', async () => {
    const first = await results(EDU_186)
    expect(row(first, 'Kestrel_09').newRating).toBe(1623)

    await standIn.script({
      pathPrefix: `${BASE}/contest.ratingChanges`,
      query: { contestId: '2289' },
      responses: [
        { status: 200, body: ratingChangesEmpty },
        { status: 200, body: ratingChangesRecalculated },
      ],
    })
    const edu = 'Educational Codeforces Round 186 (Rated for Div. 2)'
    await scriptMethod(
      'contest.standings',
      { contestId: '2289' },
      withPhase(standings2290, 'FINISHED', 2289, edu),
    )
    const rolledBack = await results(EDU_186, { now: EDU_186.endTime + 30 * HOUR_MS })
    expect(rolledBack).toEqual({ state: 'pending' })

    const again = published(await results(EDU_186, { now: EDU_186.endTime + 40 * HOUR_MS }))
    expect(again.participants).toBe(5)
    expect(row(again, 'Kestrel_09')).toEqual({
      handle: 'Kestrel_09',
      rank: 2098,
      oldRating: 1587,
      newRating: 1626,
    })
    expect(again.rows.map((r) => r.handle)).not.toContain('sus_account')
  })

  it('reports a rating change that fails the schema as malformed, never as no ratings', async () => {
    await scriptMethod('contest.ratingChanges', { contestId: '2289' }, ratingChangesBroken)
    const error = await upstreamFailure(results(EDU_186), 'malformed')
    expect(error.message).toContain('newRating')
  })

  it('reads well-formed rating changes without zod exactly as the schema does, and leaves any fault to it', () => {
    const schema = z.array(ratingChangeSchema)
    const rows = [...ratingChanges2289.result, ...ratingChangesRecalculated.result].map((r) => ({
      ...r,
      extra: 'dropped',
    }))
    expect(wellFormedRatingChanges(rows)).toEqual(schema.parse(rows))
    expect(wellFormedRatingChanges([])).toEqual([])
    const faults: Record<string, unknown>[] = [
      { contestId: 0 },
      { contestId: '2289' },
      { contestName: 7 },
      { handle: '' },
      { handle: null },
      { rank: 0 },
      { rank: 1.5 },
      { ratingUpdateTimeSeconds: -1 },
      { oldRating: '1500' },
      { newRating: 1500.5 },
      { newRating: undefined },
    ]
    for (const fault of faults) {
      const broken = [rows[0], { ...rows[1], ...fault }]
      expect(wellFormedRatingChanges(broken), JSON.stringify(fault)).toBeUndefined()
      expect(schema.safeParse(broken).success, JSON.stringify(fault)).toBe(false)
    }
    for (const notRows of [null, {}, 'rows', [null], [[1]]]) {
      expect(wellFormedRatingChanges(notRows)).toBeUndefined()
      expect(schema.safeParse(notRows).success).toBe(false)
    }
  })

  it('reports rating changes of another contest as malformed', async () => {
    await scriptMethod('contest.ratingChanges', { contestId: '2290' }, ratingChanges2289)
    await upstreamFailure(results(DIV3_1088), 'malformed')
  })

  it('reports standings without their contest as malformed', async () => {
    await scriptMethod('contest.standings', { contestId: '2285' }, standingsBroken)
    await upstreamFailure(results(INNOPOLIS_MIRROR), 'malformed')
  })

  it('reports an answer without status, or cut short, as malformed', async () => {
    await scriptMethod('contest.ratingChanges', { contestId: '2289' }, { result: [] })
    await upstreamFailure(results(EDU_186), 'malformed')
    const cut = JSON.stringify(ratingChanges2289).slice(0, 300)
    await scriptMethod('contest.ratingChanges', { contestId: '2289' }, cut)
    await upstreamFailure(results(EDU_186), 'malformed')
  })

  it('reports an unknown contest as an api error and a 503 as a status error', async () => {
    const unknown = { status: 'FAILED', comment: 'contestId: Contest with id 2289 not found' }
    await scriptMethod('contest.ratingChanges', { contestId: '2289' }, unknown, 400)
    expect((await upstreamFailure(results(EDU_186), 'api')).status).toBe(400)
    await scriptMethod('contest.ratingChanges', { contestId: '2289' }, '<html>down</html>', 503)
    expect((await upstreamFailure(results(EDU_186), 'status')).status).toBe(503)
  })
})

describe('Codeforces rating history', () => {
  it('reads user.rating as points, oldest first, with times in milliseconds', async () => {
    const points = await codeforcesResults.history(request(), 'Kestrel_09')
    expect(points.map((p) => p.platformId)).toEqual(['2179', '2275', '2283', '2289'])
    expect(points[3]).toEqual({
      contestName: 'Educational Codeforces Round 186 (Rated for Div. 2)',
      platformId: '2289',
      time: Date.parse('2026-11-20T19:05:00Z'),
      rank: 2105,
      oldRating: 1587,
      newRating: 1623,
    })
    expect(await requestPaths(`${BASE}/`)).toEqual([`${BASE}/user.rating?handle=Kestrel_09`])
  })

  it('throws an api error for a handle Codeforces does not know', async () => {
    const error = await upstreamFailure(codeforcesResults.history(request(), 'nobody_here'), 'api')
    expect(error.message).toContain('not found')
  })
})

describe('the codeforces descriptor', () => {
  it('declares its results: per contest, at the API terms of one request per 2 seconds', () => {
    expect(codeforces.results).toBe(codeforcesResults)
    expect(codeforcesResults).toMatchObject({ scope: 'contest', minIntervalMs: 2_000 })
    expect(codeforcesResults.proof.editUrl).toBe('https://codeforces.com/settings/social')
  })

  it('serves each recorded answer where the module asks for it (npm start, seed)', async () => {
    await results(EDU_186)
    await results(DIV3_1088)
    await results(INNOPOLIS_MIRROR)
    await codeforcesResults.proof.profile(request(), 'Kestrel_09')
    await codeforcesResults.history(request(), 'Kestrel_09')
    const routes = standInRoutes()
    const files = (await standIn.requests(`${BASE}/`)).map((sent) => {
      const route = matchStandInRoute(routes, sent.method, new URL(sent.path, 'http://stand-in'))
      return route?.filePath.replace('src/platforms/codeforces/fixtures/results/', '')
    })
    expect(files).toEqual([
      'rating-changes-2289.json',
      'rating-changes-empty.json',
      'standings-2290-pending.json',
      'rating-changes-empty.json',
      'standings-2285-unrated.json',
      'standings-2285-unrated.json',
      'user-info-kestrel.json',
      'user-rating-kestrel.json',
    ])
  })

  it('moves the recorded times by whole weeks for a later stand-in', () => {
    const route = codeforcesResults.fixtures[0]
    const moved = shiftedJson(route, ratingChanges2289, WEEK_MS)
    expect(moved.result[0].ratingUpdateTimeSeconds).toBe(
      ratingChanges2289.result[0].ratingUpdateTimeSeconds + WEEK_MS / 1000,
    )
    expect(moved.result[0].oldRating).toBe(ratingChanges2289.result[0].oldRating)
  })

  it('tells rounds that say they are unrated from those that do not', () => {
    expect(unratedByName('2026-2027 Innopolis Open (Unrated, Online Mirror, IOI Rules)')).toBe(true)
    expect(unratedByName('Kotlin Heroes: Episode 13')).toBe(true)
    expect(unratedByName('April Fools Day Contest 2026')).toBe(true)
    expect(unratedByName('Educational Codeforces Round 186 (Rated for Div. 2)')).toBe(false)
    expect(unratedByName('CodeTON Round 10 (Div. 1 + Div. 2, Rated, Prizes!)')).toBe(false)
    expect(unratedByName('Good Bye 2025')).toBe(false)
  })
})

/** The recorded standings moved to `phase` (and to another contest, when given). */
function withPhase(
  standings: typeof standings2290,
  phase: string,
  id = standings.result.contest.id,
  name = standings.result.contest.name,
) {
  const copy = structuredClone(standings)
  copy.result.contest = { ...copy.result.contest, phase, id, name }
  return copy
}
