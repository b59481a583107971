// LeetCode's results against the stand-in: the proof, a handle's line from its contest history
// (pending until the history holds the contest), the history, the badges, and broken answers.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  CLOSED_PORT,
  expectSent,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { fixtureText } from '../../../test/helpers/platforms.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import type { EndedContest } from '../results.ts'
import { matchStandInRoute, standInRoutes } from '../stand-in-routes.ts'
import historiesBatch from './fixtures/results/histories-batch.json'
import historyBroken from './fixtures/results/history-broken.json'
import historyMissing from './fixtures/results/history-missing.json'
import historyPublished from './fixtures/results/history-quiet-fox-published.json'
import history from './fixtures/results/history-quiet-fox.json'
import profileBroken from './fixtures/results/profile-broken.json'
import profileMissing from './fixtures/results/profile-missing.json'
import profile from './fixtures/results/profile-quiet-fox.json'
import { leetcode } from './index.ts'
import { answerAliasedQuery } from '../graphql-aliases.ts'
import {
  LEETCODE_HISTORY_BATCH,
  LEETCODE_MIN_INTERVAL_MS,
  LEETCODE_SITE,
  historyOperation,
  leetcodeBadge,
  leetcodeResults,
  leetcodeTitleSlug,
} from './results.ts'

const request = () => standInRequest('/leetcode-api')
const GRAPHQL = '/leetcode-api/graphql'

/** A weekly round of the catalogue, as the LeetCode source stores it. */
function weekly(n: number): EndedContest {
  const startTime = Date.parse('2026-11-22T02:30:00Z') - (529 - n) * 7 * 86_400_000
  return {
    platformId: `weekly-contest-${n}`,
    startTime,
    endTime: startTime + 5_400_000,
    type: 'WEEKLY',
  }
}
const biweekly196: EndedContest = {
  platformId: 'biweekly-contest-196',
  startTime: Date.parse('2026-11-21T14:30:00Z'),
  endTime: Date.parse('2026-11-21T16:00:00Z'),
  type: 'BIWEEKLY',
}

const handleResult = (contest: EndedContest, handle = 'quiet_fox') =>
  leetcodeResults.handleResult!(request(), contest, handle)

beforeEach(() => standIn.reset())

describe('LeetCode proof', () => {
  it('reads the public profile: the username as LeetCode spells it, About me, then the name', async () => {
    await scriptOk('POST', GRAPHQL, [profile])
    expect(await leetcodeResults.proof.profile(request(), 'quiet_fox')).toEqual({
      handle: 'quiet_fox',
      fields: ['Weekly rounds since 2024. cas-7QX2M9KD', 'Mira Okafor'],
    })
    const [sent] = await standIn.requests('/leetcode-api/')
    expectSent(sent, GRAPHQL, 'POST')
    expect(sent.headers.referer).toBe('https://leetcode.com/')
    const body = JSON.parse(sent.body) as {
      operationName: string
      variables: unknown
      query: string
    }
    expect(body.operationName).toBe('userPublicProfile')
    expect(body.variables).toEqual({ username: 'quiet_fox' })
    expect(body.query).toMatch(/matchedUser\(username: \$username\)/)
  })

  it('has no profile for a handle LeetCode does not know, nor for one that is no handle', async () => {
    await scriptOk('POST', GRAPHQL, [profileMissing])
    expect(await leetcodeResults.proof.profile(request(), 'nobody-here')).toBeUndefined()
    expect(await leetcodeResults.proof.profile(request(), 'a b;c')).toBeUndefined()
    expect(await standIn.requests('/leetcode-api/')).toHaveLength(1)
  })

  it('throws malformed for a profile without its fields, api for other GraphQL errors', async () => {
    await standIn.script({
      pathPrefix: GRAPHQL,
      responses: [
        { status: 200, body: profileBroken },
        { status: 200, body: { errors: [{ message: 'Too many requests' }], data: null } },
        { status: 400, body: { errors: [{ message: 'Cannot query field "aboutMe"' }] } },
      ],
    })
    await upstreamFailure(leetcodeResults.proof.profile(request(), 'quiet_fox'), 'malformed')
    await upstreamFailure(leetcodeResults.proof.profile(request(), 'quiet_fox'), 'api')
    const refused = await upstreamFailure(
      leetcodeResults.proof.profile(request(), 'quiet_fox'),
      'api',
    )
    expect(refused.status).toBe(400)
  })
})

describe('LeetCode results of a handle', () => {
  it('is pending while the history does not hold the round yet', async () => {
    await scriptOk('POST', GRAPHQL, [history])
    expect(await handleResult(weekly(529))).toBe('pending')
    expect(await handleResult(biweekly196)).toBe('pending')
    const [sent] = await standIn.requests('/leetcode-api/')
    const body = JSON.parse(sent.body) as { operationName: string; variables: unknown }
    expect(body).toMatchObject({
      operationName: 'userContestRankingHistory',
      variables: { username: 'quiet_fox' },
    })
  })

  it('reads a published round: rank, solved, the rating before and after, rounded', async () => {
    await scriptOk('POST', GRAPHQL, [history])
    // Weekly 527 was not attended: the rating before 528 is the one it carried on (1641.231).
    expect(await handleResult(weekly(528))).toEqual({
      handle: 'quiet_fox',
      rank: 2456,
      solved: 4,
      oldRating: 1641,
      newRating: 1689,
    })
    expect(await handleResult(weekly(523))).toMatchObject({ oldRating: 1500, newRating: 1560 })
  })

  it('gives nothing for a round the handle did not attend', async () => {
    await scriptOk('POST', GRAPHQL, [history])
    expect(await handleResult(weekly(527))).toBeUndefined()
    // Before the account's first contest: the history has moved past it without it.
    expect(await handleResult(weekly(510))).toBeUndefined()
  })

  it('reads the round once published, days later, with the badge it reached', async () => {
    await scriptOk('POST', GRAPHQL, [historyPublished])
    const row = await handleResult(weekly(529))
    expect(row).toEqual({
      handle: 'quiet_fox',
      rank: 240,
      solved: 4,
      oldRating: 1701,
      newRating: 1853,
    })
    const { oldRating, newRating } = row as { oldRating: number; newRating: number }
    expect(leetcodeResults.rank!(oldRating).title).toBe('No badge')
    expect(leetcodeResults.rank!(newRating).title).toBe('Knight')
  })

  it('matches a round by its title when the start differs', async () => {
    await scriptOk('POST', GRAPHQL, [history])
    const moved = { ...weekly(528), startTime: weekly(528).startTime + 3_600_000 }
    expect(await handleResult(moved)).toMatchObject({ newRating: 1689 })
  })

  it('gives nothing, and an empty history, for a handle LeetCode does not know', async () => {
    await scriptOk('POST', GRAPHQL, [historyMissing])
    expect(await handleResult(weekly(528), 'nobody-here')).toBeUndefined()
    expect(await leetcodeResults.history(request(), 'nobody-here')).toEqual([])
  })

  it('throws malformed for a history that is not the documented one, never "did not attend"', async () => {
    await standIn.script({
      pathPrefix: GRAPHQL,
      responses: [
        { status: 200, body: historyBroken },
        { status: 200, body: { data: {} } },
        { status: 200, body: '{"data": {"userContestRankingHistory": [' },
      ],
    })
    await upstreamFailure(handleResult(weekly(528)), 'malformed')
    await upstreamFailure(handleResult(weekly(528)), 'malformed')
    await upstreamFailure(handleResult(weekly(528)), 'malformed')
  })

  it('reports an HTTP 429 and a refused connection by kind', async () => {
    await standIn.script({ pathPrefix: GRAPHQL, responses: [{ status: 429, body: 'slow down' }] })
    const error = await upstreamFailure(handleResult(weekly(528)), 'status')
    expect(error.blocked).toBe(true)
    const closed = { ...request(), baseUrl: CLOSED_PORT }
    await upstreamFailure(
      leetcodeResults.handleResult!(closed, weekly(528), 'quiet_fox'),
      'network',
    )
  })
})

const handleResults = (contest: EndedContest, handles: string[]) =>
  leetcodeResults.handleBatch!.results(request(), contest, handles)

/** The handle `username` answers `body` to the one-handle history query (alone or in a batch). */
const historyOf = (username: string, body: unknown) =>
  standIn.script({
    method: 'POST',
    pathPrefix: GRAPHQL,
    body: { operationName: 'userContestRankingHistory', variables: { username } },
    responses: [{ status: 200, body }],
  })

/** Answers the batched query itself with `bodies` in turn (status 200 unless given). */
const batchAnswers = (bodies: { status?: number; body: unknown }[]) =>
  standIn.script({
    method: 'POST',
    pathPrefix: GRAPHQL,
    body: { operationName: 'contestHistories' },
    responses: bodies.map(({ status = 200, body }) => ({ status, body })),
  })

const entries = history.data.userContestRankingHistory

describe('LeetCode histories asked in batches', () => {
  it('asks several handles in one request, each under an alias, an unknown one read as no such handle', async () => {
    await historyOf('quiet_fox', historyPublished)
    await historyOf('nobody-here', historyMissing)
    await historyOf('lone_wolf', history)
    const lines = await handleResults(weekly(529), ['quiet_fox', 'nobody-here', 'lone_wolf'])
    expect(lines).toEqual([
      { handle: 'quiet_fox', rank: 240, solved: 4, oldRating: 1701, newRating: 1853 },
      undefined,
      'pending',
    ])
    const sent = await standIn.requests('/leetcode-api/')
    expect(sent).toHaveLength(1)
    expectSent(sent[0], GRAPHQL, 'POST')
    expect(sent[0].headers.referer).toBe('https://leetcode.com/')
    const body = JSON.parse(sent[0].body) as {
      operationName: string
      query: string
      variables: unknown
    }
    expect(body.operationName).toBe('contestHistories')
    expect(body.variables).toEqual({ u0: 'quiet_fox', u1: 'nobody-here', u2: 'lone_wolf' })
    expect(body.query).toMatch(
      /^query contestHistories\(\$u0: String!, \$u1: String!, \$u2: String!\)/,
    )
    expect(body.query).toMatch(/h2: userContestRankingHistory\(username: \$u2\) \{/)
    // The stand-in answered as a GraphQL server does: the unknown user's error names its alias.
    expect(sent[0].answer).toMatchObject({
      errors: [{ message: 'That user does not exist.', path: ['h1'], locations: [{ line: 5 }] }],
      data: { h1: null },
    })
  })

  it('reads a batched answer in the wire format: data under each alias, the error at its path', async () => {
    await batchAnswers([{ body: historiesBatch }])
    expect(await handleResults(weekly(529), ['quiet_fox', 'nobody-here', 'lone_wolf'])).toEqual([
      { handle: 'quiet_fox', rank: 240, solved: 4, oldRating: 1701, newRating: 1853 },
      undefined,
      undefined,
    ])
    expect(await handleResults(weekly(528), ['quiet_fox', 'nobody-here', 'lone_wolf'])).toEqual([
      { handle: 'quiet_fox', rank: 2456, solved: 4, oldRating: 1500, newRating: 1689 },
      undefined,
      { handle: 'lone_wolf', rank: 9120, solved: 2, oldRating: 1500, newRating: 1535 },
    ])
  })

  it('fails the whole batch for a malformed alias, never "did not attend"', async () => {
    const broken = historyBroken.data.userContestRankingHistory
    await batchAnswers([
      // One alias not the documented history.
      { body: { data: { h0: entries, h1: broken } } },
      // Null with no error saying why.
      { body: { data: { h0: entries, h1: null } } },
      // An alias missing from data.
      { body: { data: { h0: entries } } },
      { body: { data: null } },
      { body: '{"data": {"h0": [' },
    ])
    for (let i = 0; i < 5; i++) {
      await upstreamFailure(handleResults(weekly(528), ['quiet_fox', 'lone_wolf']), 'malformed')
    }
  })

  it('fails the whole batch for an error naming no alias of it, or another error on an alias', async () => {
    const unknownUser = 'That user does not exist.'
    await batchAnswers([
      // "Does not exist" without a path: whose, nobody can say.
      { body: { errors: [{ message: unknownUser }], data: { h0: entries, h1: null } } },
      // A path naming no alias of the batch.
      {
        body: { errors: [{ message: unknownUser, path: ['h7'] }], data: { h0: entries, h1: null } },
      },
      // An alias that failed for another reason.
      {
        body: {
          errors: [{ message: 'Too many requests', path: ['h1'] }],
          data: { h0: entries, h1: null },
        },
      },
      { status: 400, body: { errors: [{ message: 'Query is too complex' }] } },
    ])
    for (let i = 0; i < 3; i++) {
      await upstreamFailure(handleResults(weekly(528), ['quiet_fox', 'lone_wolf']), 'api')
    }
    const refused = await upstreamFailure(
      handleResults(weekly(528), ['quiet_fox', 'lone_wolf']),
      'api',
    )
    expect(refused.status).toBe(400)
  })

  it('never puts a handle in the query text: handles are variables, one that is no handle is not asked', async () => {
    await historyOf('quiet_fox', history)
    await historyOf('nobody-here', historyMissing)
    const odd = 'fox" } evil: userContestRankingHistory(username: "x'
    expect(await handleResults(weekly(528), ['quiet_fox', odd, 'nobody-here'])).toEqual([
      expect.objectContaining({ handle: 'quiet_fox', newRating: 1689 }),
      undefined,
      undefined,
    ])
    const [sent] = await standIn.requests('/leetcode-api/')
    const body = JSON.parse(sent.body) as { query: string; variables: unknown }
    expect(body.variables).toEqual({ u0: 'quiet_fox', u1: 'nobody-here' })
    expect(body.query).not.toContain('quiet_fox')
    expect(body.query).not.toContain('"')
    // Nothing at all to ask: no request.
    expect(await handleResults(weekly(528), [odd, 'a b'])).toEqual([undefined, undefined])
    expect(await standIn.requests('/leetcode-api/')).toHaveLength(1)
  })

  it('asks at most LEETCODE_HISTORY_BATCH handles a request', async () => {
    expect(LEETCODE_HISTORY_BATCH).toBe(10)
    expect(leetcodeResults.handleBatch!.size).toBe(LEETCODE_HISTORY_BATCH)
    const handles = Array.from({ length: LEETCODE_HISTORY_BATCH + 1 }, (_, i) => `fox_${i}`)
    await expect(handleResults(weekly(528), handles)).rejects.toThrow(RangeError)
    expect(await standIn.requests('/leetcode-api/')).toHaveLength(0)
    for (const handle of handles) await historyOf(handle, history)
    const lines = await handleResults(weekly(528), handles.slice(0, LEETCODE_HISTORY_BATCH))
    expect(lines.map((l) => typeof l === 'object' && l.handle)).toEqual(handles.slice(0, 10))
    const [sent] = await standIn.requests('/leetcode-api/')
    expect(Object.keys(JSON.parse(sent.body).variables as object)).toHaveLength(10)
  })

  it('is the one-handle query under aliases, with the same fields', () => {
    const one = historyOperation(LEETCODE_SITE)
    expect(one.query).toBe(`query userContestRankingHistory($username: String!) {
  userContestRankingHistory(username: $username) {
    attended rating ranking problemsSolved contest { title startTime }
  }
}`)
    const two = historyOperation(LEETCODE_SITE, 2)
    expect(two.query).toBe(`query contestHistories($u0: String!, $u1: String!) {
  h0: userContestRankingHistory(username: $u0) {
    attended rating ranking problemsSolved contest { title startTime }
  }
  h1: userContestRankingHistory(username: $u1) {
    attended rating ranking problemsSolved contest { title startTime }
  }
}`)
  })
})

describe('LeetCode rating history and badges', () => {
  it('lists the attended rounds oldest first, each with the rating before and after', async () => {
    await scriptOk('POST', GRAPHQL, [history])
    const points = await leetcodeResults.history(request(), 'quiet_fox')
    expect(points.map((p) => p.platformId)).toEqual([
      'weekly-contest-523',
      'weekly-contest-524',
      'weekly-contest-525',
      'weekly-contest-526',
      'weekly-contest-528',
    ])
    expect(points[4]).toEqual({
      contestName: 'Weekly Contest 528',
      platformId: 'weekly-contest-528',
      time: weekly(528).startTime,
      rank: 2456,
      oldRating: 1641,
      newRating: 1689,
    })
    for (let i = 1; i < points.length; i++) {
      expect(points[i].oldRating).toBe(points[i - 1].newRating)
    }
  })

  it('names the badge from the recorded cut-offs of each site', () => {
    expect(leetcodeBadge('leetcode', 1842).title).toBe('No badge')
    expect(leetcodeBadge('leetcode', 1843).title).toBe('Knight')
    expect(leetcodeBadge('leetcode', 2229).title).toBe('Guardian')
    expect(leetcodeBadge('leetcode-cn', 1870).title).toBe('No badge')
    expect(leetcodeBadge('leetcode-cn', 2252).title).toBe('Guardian')
  })

  it('slugs contest titles as the catalogue keys them', () => {
    expect(leetcodeTitleSlug('Weekly Contest 529')).toBe('weekly-contest-529')
    expect(leetcodeTitleSlug(' Biweekly Contest 196 ')).toBe('biweekly-contest-196')
  })
})

describe('the leetcode descriptor and its recorded answers', () => {
  it('declares per-handle results, paced two seconds apart', () => {
    expect(leetcode.results).toBe(leetcodeResults)
    expect(leetcodeResults.scope).toBe('handle')
    expect(leetcodeResults.minIntervalMs).toBe(LEETCODE_MIN_INTERVAL_MS)
    expect(leetcodeResults.contestResults).toBeUndefined()
  })

  it('answers each recorded query with its own file when the stand-in serves them all', async () => {
    for (const route of leetcodeResults.fixtures) {
      await standIn.script({
        method: route.method,
        pathPrefix: `/leetcode-api${route.path}`,
        body: route.body as Record<string, unknown>,
        responses: [{ status: 200, body: JSON.parse(fixtureText('leetcode', route.file)) }],
      })
    }
    expect(await leetcodeResults.proof.profile(request(), 'quiet_fox')).toMatchObject({
      handle: 'quiet_fox',
    })
    expect(await leetcodeResults.proof.profile(request(), 'nobody-here')).toBeUndefined()
    expect(await handleResult(weekly(528))).toMatchObject({ newRating: 1689 })
    expect(await handleResult(weekly(528), 'nobody-here')).toBeUndefined()
  })

  it('serves each GraphQL answer to its own query on the one /graphql path', () => {
    const routes = standInRoutes()
    const url = new URL('http://stand-in/leetcode-api/graphql')
    const post = (body: unknown) => matchStandInRoute(routes, 'POST', url, JSON.stringify(body))
    const ask = (operationName: string, username: string) =>
      post({ operationName, query: '...', variables: { username } })?.file
    expect(ask('userPublicProfile', 'quiet_fox')).toBe('fixtures/results/profile-quiet-fox.json')
    expect(ask('userPublicProfile', 'nobody-here')).toBe('fixtures/results/profile-missing.json')
    expect(ask('userContestRankingHistory', 'quiet_fox')).toBe(
      'fixtures/results/history-quiet-fox.json',
    )
    expect(ask('userPublicProfile', 'someone-else')).toBeUndefined()
    expect(post({ operationName: 'contestCatalogue', variables: {} })?.file).toBe(
      'fixtures/leetcode-graphql.json',
    )
  })

  it('answers a batched query alias by alias from the recorded one-handle answers', () => {
    const routes = standInRoutes()
    const url = new URL('http://stand-in/leetcode-api/graphql')
    const { operationName, query } = historyOperation(LEETCODE_SITE, 2)
    const ask = (variables: Record<string, unknown>) =>
      answerAliasedQuery(JSON.stringify({ operationName, query, variables }), (single) => {
        const route = matchStandInRoute(routes, 'POST', url, JSON.stringify(single))
        return route && { status: 200, body: fixtureText('leetcode', route.file) }
      })
    const answer = ask({ u0: 'quiet_fox', u1: 'nobody-here' })
    expect(answer?.status).toBe(200)
    const body = answer?.body as { data: Record<string, unknown>; errors: unknown[] }
    expect(body.data.h0).toEqual(entries)
    expect(body.data.h1).toBeNull()
    expect(body.errors).toEqual([
      {
        message: 'That user does not exist.',
        locations: [{ line: 5, column: 3 }],
        path: ['h1'],
        extensions: { handled: true },
      },
    ])
    // A handle with no recorded answer: nothing to serve.
    expect(ask({ u0: 'quiet_fox', u1: 'someone-else' })).toBeUndefined()
    // Variables as a server checks them.
    expect(ask({ u0: 'quiet_fox' })).toEqual({
      status: 400,
      body: {
        errors: [{ message: 'Variable "$u1" of required type "String!" was not provided.' }],
      },
    })
    const undeclared = query.replace('$u1: String!', '$u9: String!')
    expect(
      answerAliasedQuery(
        JSON.stringify({ query: undeclared, variables: { u0: 'a', u9: 'b' } }),
        () => ({
          status: 200,
          body: {},
        }),
      ),
    ).toEqual({
      status: 400,
      body: { errors: [{ message: 'Variable "$u1" is not defined by operation.' }] },
    })
    // A query without aliases (the catalogue's) is the recorded answer's to give, whole.
    expect(
      answerAliasedQuery(
        JSON.stringify({ query: 'query contestCatalogue { upcomingContests { title } }' }),
        () => {
          throw new Error('not asked field by field')
        },
      ),
    ).toBeUndefined()
  })
})
