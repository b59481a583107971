// LeetCode's GraphQL contest lists: parsed from the recorded answers and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import { standIn, standInUrl } from '../../../test/helpers/stand-in.ts'
import type { SourceContest } from '../contest.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import { TYPES_BY_PLATFORM } from '../registry.ts'
import type { AdapterResult, FetchFn, SourceRequest } from '../source.ts'
import { UpstreamError, type UpstreamErrorKind } from '../upstream.ts'
import leetcodeErrors from './fixtures/leetcode-graphql-errors.json'
import leetcodeGraphql from './fixtures/leetcode-graphql.json'
import { fetchLeetcode, leetcodeType, parseLeetcodeContests } from './graphql.ts'
import { leetcode } from './index.ts'

const NOW = RECORDED_AT
const realFetch: FetchFn = (input, init) => fetch(input, init)
// Nothing listens on port 9 (discard), so the connection is refused.
const CLOSED_PORT = 'http://127.0.0.1:9'

const request = (fields: Partial<SourceRequest> = {}): SourceRequest => ({
  baseUrl: `${standInUrl}/leetcode-api`,
  fetchFn: realFetch,
  now: NOW,
  ...fields,
})

beforeEach(() => standIn.reset())

const byId = <C extends SourceContest>(result: AdapterResult<C>, platformId: string): C => {
  const contest = result.contests.find((c) => c.platformId === platformId)
  if (!contest) throw new Error(`no contest ${platformId} in the result`)
  return contest
}
const ids = (result: AdapterResult) => result.contests.map((c) => c.platformId)

/** Runs `promise`, expecting an UpstreamError of `kind`, and returns it for closer checks. */
async function upstreamFailure(promise: Promise<unknown>, kind: UpstreamErrorKind) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UpstreamError)
  expect((error as UpstreamError).kind).toBe(kind)
  return error as UpstreamError
}

function expectWellFormed(contests: SourceContest[]) {
  expect(contests.length).toBeGreaterThan(0)
  for (const c of contests) {
    expect(c.platform).toBe('leetcode')
    expect(TYPES_BY_PLATFORM.leetcode).toContain(c.type)
    expect(c.endTime).toBeGreaterThan(c.startTime)
    expect(c.name.trim()).toBe(c.name)
    expect(c.websiteUrl).toMatch(/^https:\/\//)
  }
  expect(new Set(contests.map((c) => c.platformId)).size).toBe(contests.length)
}

describe('LeetCode adapter', () => {
  const parsed = () => parseLeetcodeContests(leetcodeGraphql, NOW)

  it('turns upcoming and past contests into weekly and biweekly contests', () => {
    const result = parsed()
    expectWellFormed(result.contests)
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
    const error = await upstreamFailure(
      Promise.resolve().then(() => parseLeetcodeContests(leetcodeErrors, NOW)),
      'api',
    )
    expect(error.message).toContain('Too many requests')
  })

  it('throws a malformed error when upcomingContests is missing, even if the past is there', async () => {
    const onlyPast = { data: { pastContests: leetcodeGraphql.data.pastContests } }
    await upstreamFailure(
      Promise.resolve().then(() => parseLeetcodeContests(onlyPast, NOW)),
      'malformed',
    )
  })

  it('posts the GraphQL query as JSON to /graphql, naming the service', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/leetcode-api/graphql',
      responses: [{ status: 200, body: leetcodeGraphql }],
    })
    const result = await fetchLeetcode(request())
    expect(result).toEqual(parsed())
    const [sent] = await standIn.requests('/leetcode-api/')
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe('/leetcode-api/graphql')
    expect(sent.headers['content-type']).toBe('application/json')
    expect(sent.headers['user-agent']).toContain('ContestAlertService')
    const body = JSON.parse(sent.body) as { query: string }
    expect(body.query).toMatch(/upcomingContests\s*{\s*title titleSlug startTime duration\s*}/)
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
    await standIn.script({
      pathPrefix: '/leetcode-api/graphql',
      responses: [{ status: 200, body: leetcodeGraphql }],
    })
    expect(leetcode.source!.setting).toBe('LEETCODE_API_URL')
    expectWellFormed((await leetcode.source!.fetch(request())).contests)
  })

  it('maps a clist.by entry to the slug and type the own source stores', () => {
    const entry = {
      id: 1,
      event: 'Weekly Contest 530',
      href: 'https://leetcode.com/contest/weekly-contest-530/',
      startTime: 0,
      endTime: 1,
    }
    const own = byId(parseLeetcodeContests(leetcodeGraphql, NOW), 'weekly-contest-530')
    expect(leetcode.clist!.contest(entry)).toEqual({ platformId: own.platformId, type: own.type })
    const hiring = 'https://leetcode.com/contest/virtual-hiring-contest-autumn-2026/'
    expect(
      leetcode.clist!.contest({ ...entry, event: 'Virtual Hiring Contest', href: hiring }),
    ).toBeUndefined()
  })
})
