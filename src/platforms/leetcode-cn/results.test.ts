// LeetCode China's results against the stand-in: leetcode.com's module with leetcode.cn's names
// (userSlug, userProfilePublicProfile) and its second endpoint for contest histories.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  expectSent,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import type { EndedContest } from '../results.ts'
import { matchStandInRoute, standInRoutes } from '../stand-in-routes.ts'
import history from './fixtures/results/history-jing-hua.json'
import profileBroken from './fixtures/results/profile-broken.json'
import profileMissing from './fixtures/results/profile-missing.json'
import profile from './fixtures/results/profile-jing-hua.json'
import { leetcodeCn } from './index.ts'
import { leetcodeCnResults } from './results.ts'

const request = () => standInRequest('/leetcode-cn')

function weekly(n: number): EndedContest {
  const startTime = Date.parse('2026-11-22T02:30:00Z') - (529 - n) * 7 * 86_400_000
  return {
    platformId: `weekly-contest-${n}`,
    startTime,
    endTime: startTime + 5_400_000,
    type: 'WEEKLY',
  }
}

beforeEach(() => standIn.reset())

describe('LeetCode China proof', () => {
  it('reads userProfilePublicProfile by userSlug: the slug, 个人简介, then 昵称', async () => {
    await scriptOk('POST', '/leetcode-cn/graphql', [profile])
    expect(await leetcodeCnResults.proof.profile(request(), 'jing-hua')).toEqual({
      handle: 'jing-hua',
      fields: ['周赛常客 cas-4KD8PZ2W', '静华'],
    })
    const [sent] = await standIn.requests('/leetcode-cn/')
    expectSent(sent, '/leetcode-cn/graphql', 'POST')
    expect(sent.headers.referer).toBe('https://leetcode.cn/')
    expect(JSON.parse(sent.body)).toMatchObject({
      operationName: 'userProfilePublicProfile',
      variables: { userSlug: 'jing-hua' },
    })
  })

  it('has no profile when leetcode.cn answers null; a profile without its slug is malformed', async () => {
    await scriptOk('POST', '/leetcode-cn/graphql', [profileMissing, profileBroken])
    expect(await leetcodeCnResults.proof.profile(request(), 'nobody-here')).toBeUndefined()
    await upstreamFailure(leetcodeCnResults.proof.profile(request(), 'jing-hua'), 'malformed')
  })
})

describe('LeetCode China results of a handle', () => {
  it('asks /graphql/noj-go/ for the history and reads a round, pending or not attended', async () => {
    await scriptOk('POST', '/leetcode-cn/graphql/noj-go/', [history])
    const handleResult = (contest: EndedContest) =>
      leetcodeCnResults.handleResult!(request(), contest, 'jing-hua')
    // No solved count: leetcode.cn's history is not asked for one.
    expect(await handleResult(weekly(528))).toEqual({
      handle: 'jing-hua',
      rank: 121,
      oldRating: 1749,
      newRating: 1893,
    })
    expect(await handleResult(weekly(527))).toBeUndefined()
    expect(await handleResult(weekly(529))).toBe('pending')
    const [sent] = await standIn.requests('/leetcode-cn/')
    expectSent(sent, '/leetcode-cn/graphql/noj-go/', 'POST')
    expect(JSON.parse(sent.body)).toMatchObject({ variables: { userSlug: 'jing-hua' } })
  })

  it('asks histories in the same aliased batches, by userSlug on /graphql/noj-go/', async () => {
    for (const userSlug of ['jing-hua', 'xiao-ming']) {
      await standIn.script({
        method: 'POST',
        pathPrefix: '/leetcode-cn/graphql/noj-go/',
        body: { operationName: 'userContestRankingHistory', variables: { userSlug } },
        responses: [{ status: 200, body: history }],
      })
    }
    const lines = await leetcodeCnResults.handleBatch!.results(request(), weekly(528), [
      'jing-hua',
      'xiao-ming',
    ])
    expect(lines).toEqual([
      { handle: 'jing-hua', rank: 121, oldRating: 1749, newRating: 1893 },
      { handle: 'xiao-ming', rank: 121, oldRating: 1749, newRating: 1893 },
    ])
    const sent = await standIn.requests('/leetcode-cn/')
    expect(sent).toHaveLength(1)
    expectSent(sent[0], '/leetcode-cn/graphql/noj-go/', 'POST')
    expect(sent[0].headers.referer).toBe('https://leetcode.cn/')
    const body = JSON.parse(sent[0].body) as { query: string; variables: unknown }
    expect(body.variables).toEqual({ u0: 'jing-hua', u1: 'xiao-ming' })
    expect(body.query).toContain(
      'h1: userContestRankingHistory(userSlug: $u1) {\n    attended rating ranking contest { title startTime }',
    )
  })

  it('gives leetcode.cn badges their own cut-offs', async () => {
    expect(leetcodeCnResults.rank!(1893).title).toBe('Knight')
    expect(leetcodeCnResults.rank!(1860).title).toBe('No badge')
  })

  it('serves the profile on /graphql and the history on /graphql/noj-go', () => {
    const routes = standInRoutes()
    const body = (operationName: string) =>
      JSON.stringify({ operationName, variables: { userSlug: 'jing-hua' } })
    const at = (path: string, operationName: string) =>
      matchStandInRoute(routes, 'POST', new URL(`http://s/leetcode-cn${path}`), body(operationName))
        ?.file
    expect(at('/graphql', 'userProfilePublicProfile')).toBe(
      'fixtures/results/profile-jing-hua.json',
    )
    expect(at('/graphql/noj-go/', 'userContestRankingHistory')).toBe(
      'fixtures/results/history-jing-hua.json',
    )
    expect(at('/graphql', 'contestUpcomingContests')).toBe('fixtures/contest-upcoming.json')
    expect(leetcodeCn.results).toBe(leetcodeCnResults)
  })
})
