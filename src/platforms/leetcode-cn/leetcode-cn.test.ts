// LeetCode China's upcoming contests (GraphQL contestUpcomingContests): parsed from the recorded
// answer and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
  expectSent,
  expectStatusError,
  ids,
  scriptOk,
  standInRequest,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import { parseContests } from '../leetcode/graphql.ts'
import upcomingV2Only from './fixtures/contest-upcoming-v2-only.json'
import upcoming from './fixtures/contest-upcoming.json'
import { fetchLeetcodeCn, leetcodeCn } from './index.ts'

beforeEach(() => standIn.reset())

describe('LeetCode China upcoming contests', () => {
  const parsed = () => parseContests('leetcode-cn', upcoming, RECORDED_AT)

  it('reads a weekly round with its leetcode.cn contest page', () => {
    expect(byId(parsed(), 'weekly-contest-479')).toEqual({
      platform: 'leetcode-cn',
      platformId: 'weekly-contest-479',
      name: '第 479 场周赛',
      type: 'WEEKLY',
      startTime: Date.parse('2026-11-29T02:30:00Z'),
      endTime: Date.parse('2026-11-29T04:00:00Z'),
      websiteUrl: 'https://leetcode.cn/contest/weekly-contest-479/',
      registrationUrl: 'https://leetcode.cn/contest/weekly-contest-479/',
      difficulty: 'MEDIUM',
      platformMetadata: { titleSlug: 'weekly-contest-479' },
    })
  })

  it('lands the epoch seconds on the Beijing time of the round (Sunday 10:30)', () => {
    const weekly = byId(parsed(), 'weekly-contest-479')
    expect(weekly.startTime).toBe(Date.parse('2026-11-29T10:30:00+08:00'))
  })

  it('tells weekly from biweekly by the slug, since the titles are Chinese', () => {
    const result = parsed()
    expect(ids(result)).toEqual(['weekly-contest-479', 'biweekly-contest-171'])
    expect(result.contests.map((c) => c.type)).toEqual(['WEEKLY', 'BIWEEKLY'])
  })

  it('skips a round without a start time and counts the 力扣杯 season contest as unsupported', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual([
      expect.stringMatching(/^leetcode-cn contest weekly-contest-480: startTime/),
    ])
    expect(result.unsupported).toBe(1)
    expect(ids(result)).not.toContain('season-2026-fall')
  })

  it('throws malformed for an answer without contestUpcomingContests (leetcode.com names)', () => {
    const comShaped = { data: { upcomingContests: upcoming.data.contestUpcomingContests } }
    expect(() => parseContests('leetcode-cn', comShaped, RECORDED_AT)).toThrow(
      expect.objectContaining({ kind: 'malformed', platform: 'leetcode-cn' }),
    )
  })

  it('reads contestV2UpcomingContests alone, the name leetcode.cn answers to today', () => {
    expect(parseContests('leetcode-cn', upcomingV2Only, RECORDED_AT)).toEqual(parsed())
  })

  it('reads an empty list as no contests', () => {
    const empty = { data: { contestUpcomingContests: [] } }
    expect(parseContests('leetcode-cn', empty, RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('fetchLeetcodeCn', () => {
  const fetchFromStandIn = () => fetchLeetcodeCn(standInRequest('/leetcode-cn'))

  it('posts one query for both upcoming lists to /graphql, naming the service', async () => {
    await scriptOk('POST', '/leetcode-cn/graphql', [upcoming], 'application/json')
    const result = await fetchFromStandIn()
    expect(ids(result)).toEqual(['weekly-contest-479', 'biweekly-contest-171'])
    const [sent] = await standIn.requests('/leetcode-cn/')
    expectSent(sent, '/leetcode-cn/graphql', 'POST')
    expect(sent.headers['content-type']).toBe('application/json')
    const body = JSON.parse(sent.body) as { operationName: string; query: string }
    expect(body.operationName).toBe('contestUpcomingContests')
    expect(body.query).toMatch(/\scontestUpcomingContests\s*{\s*title titleSlug startTime duration/)
    expect(body.query).toMatch(
      /\scontestV2UpcomingContests\s*{\s*title titleSlug startTime duration/,
    )
  })

  it('throws a status error carrying the HTTP status of a non-2xx answer', async () => {
    const error = await expectStatusError(
      '/leetcode-cn/graphql',
      '<html>503 Service Temporarily Unavailable</html>',
      fetchFromStandIn,
    )
    expect(error).toMatchObject({ kind: 'status', status: 503, platform: 'leetcode-cn' })
  })
})

describe('leetcode-cn on clist', () => {
  it('takes the slug from the link, as the own source stores it', () => {
    const entry = clistEntry('https://leetcode.cn/contest/weekly-contest-479/', '第 479 场周赛')
    expect(leetcodeCn.clist!.contest(entry)).toEqual({
      platformId: 'weekly-contest-479',
      type: 'WEEKLY',
    })
    const season = 'https://leetcode.cn/contest/season-2026-fall/'
    expect(leetcodeCn.clist!.contest({ ...entry, event: '力扣杯', href: season })).toBeUndefined()
  })
})
