// LeetCode's GraphQL contest lists: parsed from the recorded answers and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  CLOSED_PORT,
  expectSent,
  expectWellFormed,
  idAndType,
  ids,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import type { SourceRequest } from '../source.ts'
import leetcodeErrors from './fixtures/leetcode-graphql-errors.json'
import leetcodeRefused from './fixtures/leetcode-graphql-refused-field.json'
import leetcodeV2Only from './fixtures/leetcode-graphql-v2-only.json'
import leetcodeGraphql from './fixtures/leetcode-graphql.json'
import { fetchLeetcode, leetcodeType, parseLeetcodeContests } from './graphql.ts'
import { leetcode } from './index.ts'

const NOW = RECORDED_AT
const request = (fields: Partial<SourceRequest> = {}) => standInRequest('/leetcode-api', fields)

beforeEach(() => standIn.reset())

describe('LeetCode adapter', () => {
  const parsed = () => parseLeetcodeContests(leetcodeGraphql, NOW)

  it('turns upcoming and past contests into weekly and biweekly contests', () => {
    const result = parsed()
    expectWellFormed(leetcode, result.contests)
    expect(result.contests).toHaveLength(22)
    expect(byId(result, 'weekly-contest-530')).toEqual({
      platform: 'leetcode',
      platformId: 'weekly-contest-530',
      name: 'Weekly Contest 530',
      type: 'WEEKLY',
      startTime: Date.parse('2026-11-29T02:30:00Z'),
      endTime: Date.parse('2026-11-29T04:00:00Z'),
      websiteUrl: 'https://leetcode.com/contest/weekly-contest-530/',
      registrationUrl: 'https://leetcode.com/contest/weekly-contest-530/',
      difficulty: 'MEDIUM',
      platformMetadata: { titleSlug: 'weekly-contest-530' },
    })
    expect(byId(result, 'biweekly-contest-197').type).toBe('BIWEEKLY')
    expect(byId(result, 'biweekly-contest-196').type).toBe('BIWEEKLY')
  })

  it('lists every upcoming contest, not only the past ones', () => {
    const upcoming = parsed().contests.filter((c) => c.startTime > NOW)
    expect(upcoming.map((c) => c.platformId)).toEqual([
      'weekly-contest-530',
      'biweekly-contest-197',
      'weekly-contest-531',
    ])
  })

  it('skips and counts an item without a start time, and counts a special event as unsupported', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors[0]).toMatch(/^leetcode contest weekly-contest-532: startTime/)
    expect(result.unsupported).toBe(1)
    expect(ids(result)).not.toContain('virtual-hiring-contest-autumn-2026')
  })

  it('reads the type from the title or, failing that, the slug', () => {
    expect(leetcodeType('Weekly Contest 530')).toBe('WEEKLY')
    expect(leetcodeType('Biweekly Contest 197')).toBe('BIWEEKLY')
    expect(leetcodeType('Contest 12', 'biweekly-contest-12')).toBe('BIWEEKLY')
    expect(leetcodeType('Virtual Hiring Contest: Autumn 2026')).toBeUndefined()
  })

  it('throws an api error when the answer carries GraphQL errors', async () => {
    const error = await upstreamFailure(() => parseLeetcodeContests(leetcodeErrors, NOW), 'api')
    expect(error.message).toContain('Too many requests')
  })

  it('reads contestV2UpcomingContests alone, as LeetCode answers once upcomingContests is gone', () => {
    const result = parseLeetcodeContests(leetcodeV2Only, NOW)
    expect(result).toEqual(parsed())
    expect(byId(result, 'weekly-contest-530').startTime).toBe(Date.parse('2026-11-29T02:30:00Z'))
  })

  it('counts a round listed by both upcoming lists once', () => {
    const both = leetcodeGraphql.data
    expect(both.contestV2UpcomingContests.map((c) => c.titleSlug)).toEqual(
      both.upcomingContests.map((c) => c.titleSlug),
    )
    const result = parsed()
    expect(new Set(ids(result)).size).toBe(result.contests.length)
    expect(result.skipped).toBe(1)
  })

  it('reads the list that answered when the other one failed with a GraphQL error', () => {
    const partial = {
      errors: [{ message: 'Internal error', path: ['contestV2UpcomingContests'] }],
      data: { ...leetcodeGraphql.data, contestV2UpcomingContests: null },
    }
    expect(parseLeetcodeContests(partial, NOW)).toEqual(parsed())
  })

  it('throws a malformed error when neither upcoming list is there, even if the past is', async () => {
    const onlyPast = { data: { pastContests: leetcodeGraphql.data.pastContests } }
    await upstreamFailure(() => parseLeetcodeContests(onlyPast, NOW), 'malformed')
  })

  it('posts the GraphQL query as JSON to /graphql, naming the service', async () => {
    await scriptOk('POST', '/leetcode-api/graphql', [leetcodeGraphql])
    const result = await fetchLeetcode(request())
    expect(result).toEqual(parsed())
    const [sent] = await standIn.requests('/leetcode-api/')
    expectSent(sent, '/leetcode-api/graphql', 'POST')
    expect(sent.headers['content-type']).toBe('application/json')
    const body = JSON.parse(sent.body) as { query: string }
    expect(body.query).toMatch(/\supcomingContests\s*{\s*title titleSlug startTime duration\s*}/)
  })

  it('asks for both upcoming lists in one request', async () => {
    await scriptOk('POST', '/leetcode-api/graphql', [leetcodeGraphql])
    await fetchLeetcode(request())
    const sent = await standIn.requests('/leetcode-api/')
    expect(sent).toHaveLength(1)
    const { query } = JSON.parse(sent[0].body) as { query: string }
    expect(query).toMatch(/\supcomingContests\s*{/)
    expect(query).toMatch(/\scontestV2UpcomingContests\s*{\s*title titleSlug startTime duration/)
    expect(query).toMatch(/pastContests\(pageNo: 1, numPerPage: 20\)/)
  })

  it('asks once more without the list the schema refuses, and reads the other', async () => {
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [
        { status: 400, body: leetcodeRefused },
        { status: 200, body: leetcodeV2Only },
      ],
    })
    const result = await fetchLeetcode(request())
    expect(result).toEqual(parseLeetcodeContests(leetcodeGraphql, NOW))
    const sent = await standIn.requests('/leetcode-api/')
    expect(sent).toHaveLength(2)
    const { query } = JSON.parse(sent[1].body) as { query: string }
    expect(query).not.toMatch(/\supcomingContests/)
    expect(query).toMatch(/contestV2UpcomingContests/)
  })

  it('asks once more without the past list when the schema refuses it, keeping the upcoming', async () => {
    const { pastContests: _past, ...upcomingOnly } = leetcodeGraphql.data
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [
        {
          status: 400,
          body: { errors: [{ message: 'Cannot query field "pastContests" on type "QueryType".' }] },
        },
        { status: 200, body: { data: upcomingOnly } },
      ],
    })
    const result = await fetchLeetcode(request())
    expect(ids(result)).toEqual([
      'weekly-contest-530',
      'biweekly-contest-197',
      'weekly-contest-531',
    ])
    const sent = await standIn.requests('/leetcode-api/')
    expect(sent).toHaveLength(2)
    const { query } = JSON.parse(sent[1].body) as { query: string }
    expect(query).not.toMatch(/pastContests/)
    expect(query).toMatch(/\supcomingContests/)
  })

  it('fails loudly, after two requests, when the schema refuses both upcoming lists', async () => {
    const refusing = (field: string) => ({
      status: 400,
      body: { errors: [{ message: `Cannot query field "${field}" on type "QueryType".` }] },
    })
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [refusing('upcomingContests'), refusing('contestV2UpcomingContests')],
    })
    const error = await upstreamFailure(fetchLeetcode(request()), 'api')
    expect(error.message).toContain('contestV2UpcomingContests')
    expect(await standIn.requests('/leetcode-api/')).toHaveLength(2)
  })

  it('reports GraphQL errors in a 200 answer and in a 400 answer as api errors', async () => {
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [
        { status: 200, body: leetcodeErrors },
        { status: 400, body: { errors: [{ message: 'Cannot query field "duration"' }] } },
      ],
    })
    await upstreamFailure(fetchLeetcode(request()), 'api')
    const second = await upstreamFailure(fetchLeetcode(request()), 'api')
    expect(second.status).toBe(400)
    // A refused sub-field is no list to drop: nothing is asked again.
    expect(await standIn.requests('/leetcode-api/')).toHaveLength(2)
  })

  it('reports an HTTP 502, a truncated body and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [
        { status: 502, body: '<html>502 Bad Gateway</html>' },
        { status: 200, body: '{"data": {"upcomingContests": [' },
      ],
    })
    const status = await upstreamFailure(fetchLeetcode(request()), 'status')
    expect(status.status).toBe(502)
    await upstreamFailure(fetchLeetcode(request()), 'malformed')
    await upstreamFailure(fetchLeetcode(request({ baseUrl: CLOSED_PORT })), 'network')
  })
})

describe('the leetcode descriptor', () => {
  it('fetches from its LEETCODE_API_URL stand-in and gives well-formed contests', async () => {
    await scriptOk('POST', '/leetcode-api/graphql', [leetcodeGraphql])
    expect(leetcode.source!.setting).toBe('LEETCODE_API_URL')
    expectWellFormed(leetcode, (await leetcode.source!.fetch(request())).contests)
  })

  it('maps a clist.by entry to the slug and type the own source stores', () => {
    const entry = clistEntry(
      'https://leetcode.com/contest/weekly-contest-530/',
      'Weekly Contest 530',
    )
    const own = byId(parseLeetcodeContests(leetcodeGraphql, NOW), 'weekly-contest-530')
    expect(leetcode.clist!.contest(entry)).toEqual(idAndType(own))
    const hiring = 'https://leetcode.com/contest/virtual-hiring-contest-autumn-2026/'
    expect(
      leetcode.clist!.contest({ ...entry, event: 'Virtual Hiring Contest', href: hiring }),
    ).toBeUndefined()
  })
})
