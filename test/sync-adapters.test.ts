// The four platform adapters over recorded payloads: parsed directly and fetched from the stand-in.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { TYPES_BY_PLATFORM, type Platform } from '../src/contests/schemas.ts'
import { phaseAt } from '../src/contests/serialize.ts'
import type { ContestInput } from '../src/contests/contest-input.ts'
import { settings } from '../src/env.ts'
import type { AdapterResult, FetchFn } from '../src/sync/adapter.ts'
import { PLATFORM_ADAPTERS, withoutVolatileMetadata } from '../src/sync/adapters.ts'
import {
  atcoderTime,
  atcoderType,
  fetchAtcoder,
  parseAtcoderContests,
} from '../src/sync/atcoder.ts'
import {
  codechefDivision,
  codechefType,
  fetchCodechef,
  parseCodechefContests,
} from '../src/sync/codechef.ts'
import {
  codeforcesDivision,
  fetchCodeforces,
  parseCodeforcesContestList,
} from '../src/sync/codeforces.ts'
import { fetchLeetcode, leetcodeType, parseLeetcodeContests } from '../src/sync/leetcode.ts'
import { UpstreamError, type UpstreamErrorKind } from '../src/sync/upstream.ts'
import atcoderEmptyUpcoming from './fixtures/atcoder-contests-empty-upcoming.html?raw'
import atcoderPage from './fixtures/atcoder-contests.html?raw'
import codechefAll from './fixtures/codechef-contests-all.json'
import codeforcesFailed from './fixtures/codeforces-contest-list-failed.json'
import codeforcesList from './fixtures/codeforces-contest-list.json'
import leetcodeErrors from './fixtures/leetcode-graphql-errors.json'
import leetcodeGraphql from './fixtures/leetcode-graphql.json'
import { standIn } from './helpers/stand-in.ts'

// The moment the fixtures were recorded: Sunday 2026-11-22 12:00 UTC (21:00 in Tokyo).
const NOW = Date.parse('2026-11-22T12:00:00Z')
const config = settings(env)
const realFetch: FetchFn = (input, init) => fetch(input, init)
// Nothing listens on port 9 (discard), so the connection is refused.
const CLOSED_PORT = 'http://127.0.0.1:9'

beforeEach(() => standIn.reset())

const byId = (result: AdapterResult, platformId: string) => {
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

function expectWellFormed(platform: Platform, contests: ContestInput[]) {
  expect(contests.length).toBeGreaterThan(0)
  for (const c of contests) {
    expect(c.platform).toBe(platform)
    expect(TYPES_BY_PLATFORM[platform]).toContain(c.type)
    expect(c.endTime).toBeGreaterThan(c.startTime)
    expect(c.name.trim()).toBe(c.name)
    expect(c.websiteUrl).toMatch(/^https:\/\//)
  }
  expect(new Set(contests.map((c) => c.platformId)).size).toBe(contests.length)
}

describe('Codeforces adapter', () => {
  const parsed = () => parseCodeforcesContestList(codeforcesList, NOW)

  it('turns the recorded contest.list into contests with times in milliseconds and links', () => {
    const result = parsed()
    expectWellFormed('codeforces', result.contests)
    expect(result.contests).toHaveLength(21)
    expect(byId(result, '2299')).toEqual({
      platform: 'codeforces',
      platformId: '2299',
      name: 'Codeforces Round 1092 (Div. 2)',
      type: 'CF',
      startTime: Date.parse('2026-12-01T14:35:00Z'),
      endTime: Date.parse('2026-12-01T16:35:00Z'),
      websiteUrl: 'https://codeforces.com/contest/2299',
      registrationUrl: 'https://codeforces.com/contestRegistration/2299',
      difficulty: 'MEDIUM',
      platformMetadata: {
        codeforcesType: 'CF',
        phase: 'BEFORE',
        frozen: false,
        relativeTimeSeconds: -786900,
        division: 'div2',
      },
    })
  })

  it('reads the division from the name and derives the difficulty from it', () => {
    const result = parsed()
    const seen = (id: string) => {
      const c = byId(result, id)
      return [c.platformMetadata?.division, c.difficulty]
    }
    expect(seen('2296')).toEqual(['div4', 'BEGINNER'])
    expect(seen('2295')).toEqual(['div3', 'EASY'])
    expect(seen('2297')).toEqual(['educational', 'MEDIUM'])
    expect(seen('2294')).toEqual(['div1+div2', 'HARD'])
    expect(seen('2300')).toEqual(['global', 'HARD'])
    expect(seen('2298')).toEqual(['div1', 'EXPERT'])
    expect(seen('2292')).toEqual([undefined, undefined])
  })

  it('keeps the ICPC and IOI types the API gives', () => {
    const result = parsed()
    expect(byId(result, '2293').type).toBe('ICPC')
    expect(byId(result, '2292').type).toBe('ICPC')
    expect(byId(result, '2285').type).toBe('IOI')
    expect(byId(result, '2285').platformMetadata?.codeforcesType).toBe('IOI')
  })

  it('keeps contests in system testing, whose catalogue phase follows the clock', () => {
    const result = parsed()
    const systemTest = byId(result, '2291')
    const pending = byId(result, '2290')
    expect(systemTest.platformMetadata?.phase).toBe('SYSTEM_TEST')
    expect(pending.platformMetadata?.phase).toBe('PENDING_SYSTEM_TEST')
    expect(phaseAt(systemTest.startTime, systemTest.endTime, NOW)).toBe('FINISHED')
    expect(phaseAt(pending.startTime, pending.endTime, NOW)).toBe('FINISHED')
    const running = byId(result, '2292')
    expect(phaseAt(running.startTime, running.endTime, NOW)).toBe('CODING')
    expect(running.platformMetadata?.frozen).toBe(true)
  })

  it('skips and counts a contest without startTimeSeconds and one with a malformed duration', () => {
    const result = parsed()
    expect(result.skipped).toBe(2)
    expect(result.errors).toHaveLength(2)
    expect(result.errors[0]).toMatch(/^codeforces contest 2302: startTimeSeconds/)
    expect(result.errors[1]).toMatch(/^codeforces contest 2282: durationSeconds/)
    expect(ids(result)).not.toContain('2302')
    expect(ids(result)).not.toContain('2282')
  })

  it('leaves out contests that finished before the retention window', () => {
    const result = parsed()
    expect(ids(result)).toContain('2275')
    expect(ids(result)).not.toContain('2270') // ended 94 days before the fixture's moment
    expect(ids(result)).not.toContain('2180')
    expect(
      parseCodeforcesContestList(codeforcesList, NOW, { retentionDays: 365 }).contests,
    ).toHaveLength(24)
  })

  it('counts a contest of a type outside CF, IOI and ICPC as unsupported', () => {
    const payload = {
      status: 'OK',
      result: [{ ...codeforcesList.result[1], id: 9999, type: 'TEAM_MARATHON' }],
    }
    const result = parseCodeforcesContestList(payload, NOW)
    expect(result).toMatchObject({ contests: [], unsupported: 1, skipped: 0 })
  })

  it('throws an api error carrying the comment when the answer is status FAILED', async () => {
    const error = await upstreamFailure(
      Promise.resolve().then(() => parseCodeforcesContestList(codeforcesFailed, NOW)),
      'api',
    )
    expect(error.platform).toBe('codeforces')
    expect(error.message).toContain('Call limit exceeded')
  })

  it('throws a malformed error when the answer has no result list', async () => {
    await upstreamFailure(
      Promise.resolve().then(() => parseCodeforcesContestList({ status: 'OK' }, NOW)),
      'malformed',
    )
  })

  it('fetches contest.list?gym=false from the configured base URL', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 200, body: codeforcesList }],
    })
    const result = await fetchCodeforces(config.CODEFORCES_API_URL, realFetch, NOW)
    expect(result).toEqual(parsed())
    const [request] = await standIn.requests('/codeforces')
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/codeforces/api/contest.list?gym=false')
  })

  it('reports FAILED answers sent with HTTP 400 as api errors', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 400, body: codeforcesFailed }],
    })
    const error = await upstreamFailure(
      fetchCodeforces(config.CODEFORCES_API_URL, realFetch, NOW),
      'api',
    )
    expect(error.status).toBe(400)
  })

  it('reports an HTTP 503 as a status error with the status', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [
        { status: 503, body: '<html><body>Codeforces is temporarily unavailable</body></html>' },
      ],
    })
    const error = await upstreamFailure(
      fetchCodeforces(config.CODEFORCES_API_URL, realFetch, NOW),
      'status',
    )
    expect(error.status).toBe(503)
    expect(error.message).toContain('HTTP 503')
  })

  it('reports a truncated JSON body as malformed', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 200, body: JSON.stringify(codeforcesList).slice(0, 400) }],
    })
    await upstreamFailure(fetchCodeforces(config.CODEFORCES_API_URL, realFetch, NOW), 'malformed')
  })

  it('reports a refused connection as a network error', async () => {
    await upstreamFailure(fetchCodeforces(`${CLOSED_PORT}/api`, realFetch, NOW), 'network')
  })

  it('gives up with a timeout error when no answer comes within the time limit', async () => {
    const hanging: FetchFn = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })
    await upstreamFailure(
      fetchCodeforces(config.CODEFORCES_API_URL, hanging, NOW, { timeoutMs: 5 }),
      'timeout',
    )
  })
})

describe('Codeforces division from the round name', () => {
  it.each([
    ['Codeforces Round 1092 (Div. 1)', 'div1'],
    ['Codeforces Round (Div. 2)', 'div2'],
    ['Codeforces Round 1090 (Div. 3)', 'div3'],
    ['Codeforces Round 1091 (Div.4)', 'div4'],
    ['Codeforces Round 1085 (Div. 1 + Div. 2)', 'div1+div2'],
    ['Codeforces Round 999 (Div.1+Div.2, based on an olympiad)', 'div1+div2'],
    ['Codeforces Round 998 (Div. 1 + 2)', 'div1+div2'],
    ['Educational Codeforces Round 187 (Rated for Div. 2)', 'educational'],
    ['Codeforces Global Round 31', 'global'],
    ['Good Bye 2025', undefined],
  ])('%s -> %s', (name, division) => {
    expect(codeforcesDivision(name)).toBe(division)
  })
})

describe('LeetCode adapter', () => {
  const parsed = () => parseLeetcodeContests(leetcodeGraphql, NOW)

  it('turns upcoming and past contests into weekly and biweekly contests', () => {
    const result = parsed()
    expectWellFormed('leetcode', result.contests)
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

  it('posts the GraphQL query as JSON to /graphql', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/leetcode/graphql',
      responses: [{ status: 200, body: leetcodeGraphql }],
    })
    const result = await fetchLeetcode(config.LEETCODE_API_URL, realFetch, NOW)
    expect(result).toEqual(parsed())
    const [request] = await standIn.requests('/leetcode')
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/leetcode/graphql')
    expect(request.headers['content-type']).toBe('application/json')
    const body = JSON.parse(request.body) as { query: string }
    expect(body.query).toMatch(/upcomingContests\s*{\s*title titleSlug startTime duration\s*}/)
  })

  it('reports GraphQL errors in a 200 answer and in a 400 answer as api errors', async () => {
    await standIn.script({
      pathPrefix: '/leetcode/graphql',
      responses: [
        { status: 200, body: leetcodeErrors },
        { status: 400, body: { errors: [{ message: 'Cannot query field "duration"' }] } },
      ],
    })
    await upstreamFailure(fetchLeetcode(config.LEETCODE_API_URL, realFetch, NOW), 'api')
    const second = await upstreamFailure(
      fetchLeetcode(config.LEETCODE_API_URL, realFetch, NOW),
      'api',
    )
    expect(second.status).toBe(400)
  })

  it('reports an HTTP 502, a truncated body and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/leetcode/graphql',
      responses: [
        { status: 502, body: '<html>502 Bad Gateway</html>' },
        { status: 200, body: '{"data": {"upcomingContests": [' },
      ],
    })
    const status = await upstreamFailure(
      fetchLeetcode(config.LEETCODE_API_URL, realFetch, NOW),
      'status',
    )
    expect(status.status).toBe(502)
    await upstreamFailure(fetchLeetcode(config.LEETCODE_API_URL, realFetch, NOW), 'malformed')
    await upstreamFailure(fetchLeetcode(CLOSED_PORT, realFetch, NOW), 'network')
  })
})

describe('CodeChef adapter', () => {
  const parsed = () => parseCodechefContests(codechefAll, NOW)

  it('turns present, future and past contests into contests with IST times in UTC', () => {
    const result = parsed()
    expectWellFormed('codechef', result.contests)
    expect(result.contests).toHaveLength(21)
    expect(byId(result, 'START265')).toEqual({
      platform: 'codechef',
      platformId: 'START265',
      name: 'Starters 265',
      type: 'STARTERS',
      startTime: Date.parse('2026-11-25T14:30:00Z'),
      endTime: Date.parse('2026-11-25T16:30:00Z'),
      websiteUrl: 'https://www.codechef.com/START265',
      registrationUrl: 'https://www.codechef.com/START265',
    })
  })

  it('maps Starters, Cook-Off, Lunchtime and Long contests to their types', () => {
    const result = parsed()
    expect(byId(result, 'START264').type).toBe('STARTERS')
    expect(byId(result, 'COOK160').type).toBe('COOK_OFF')
    expect(byId(result, 'LTIME125').type).toBe('LUNCH_TIME')
    expect(byId(result, 'DEC261').type).toBe('LONG')
    expect(byId(result, 'OCT261').type).toBe('LONG')
  })

  it('counts contests of no known series as unsupported', () => {
    const result = parsed()
    expect(result.unsupported).toBe(3)
    for (const code of ['TCUP2026', 'SNCK2026Q', 'CMAT26']) expect(ids(result)).not.toContain(code)
  })

  it('skips and counts an item with an unreadable start and one without a code', () => {
    const result = parsed()
    expect(result.skipped).toBe(2)
    expect(result.errors[0]).toMatch(/^codechef contest START267: contest_start_date_iso/)
    expect(result.errors[1]).toMatch(/^codechef contest #\d+: contest_code/)
    expect(ids(result)).not.toContain('START267')
  })

  it('takes distinct_users as the participant count once anyone has taken part', () => {
    const result = parsed()
    expect(byId(result, 'START264').participantCount).toBe(24871)
    expect(byId(result, 'START265')).not.toHaveProperty('participantCount')
  })

  it('gives a difficulty only to a contest for exactly one division', () => {
    const result = parsed()
    expect(byId(result, 'START265D')).toMatchObject({
      difficulty: 'BEGINNER',
      platformMetadata: { division: 'div4' },
    })
    expect(byId(result, 'LTIME124')).toMatchObject({ difficulty: 'EXPERT' })
    expect(byId(result, 'LTIME125')).not.toHaveProperty('difficulty')
    expect(byId(result, 'COOK160')).not.toHaveProperty('difficulty')
    expect(byId(result, 'START266')).not.toHaveProperty('difficulty')
  })

  it('reads divisions from codes and names', () => {
    expect(codechefDivision('START265B', 'Starters 265')).toBe('div2')
    expect(codechefDivision('START265', 'Starters 265 (Div. 3)')).toBe('div3')
    expect(codechefDivision('LTIME99', 'Lunchtime (Rated for Division 1)')).toBe('div1')
    expect(codechefDivision('START55', 'Starters 55 (Rated for Div 2, 3 & 4)')).toBeUndefined()
    expect(codechefDivision('COOK1', 'Cook-Off (Rated for Div 1 & 2)')).toBeUndefined()
    expect(codechefType('JUNE21', 'June Challenge 2021')).toBe('LONG')
    expect(codechefType('XYZ', 'Starters 1')).toBe('STARTERS')
    expect(codechefType('CMAT26', 'Code Mates 26')).toBeUndefined()
  })

  it('leaves out contests that finished before the retention window', () => {
    const result = parsed()
    expect(ids(result)).toContain('START252')
    expect(ids(result)).not.toContain('START251')
  })

  it('takes the end from contest_duration when the ISO end is blank', () => {
    const entry = { ...codechefAll.future_contests[0], contest_end_date_iso: '' }
    const payload = { present_contests: [], future_contests: [entry] }
    const [contest] = parseCodechefContests(payload, NOW).contests
    expect(contest.endTime - contest.startTime).toBe(120 * 60_000)
  })

  it('keeps one entry for a contest listed both as present and as future', () => {
    const entry = codechefAll.future_contests[0]
    const payload = { present_contests: [entry], future_contests: [entry], past_contests: [] }
    expect(ids(parseCodechefContests(payload, NOW))).toEqual(['START265'])
  })

  it('throws a malformed error when the future list is missing, even if the past is there', async () => {
    const { future_contests: _future, ...onlyPast } = codechefAll
    await upstreamFailure(
      Promise.resolve().then(() => parseCodechefContests(onlyPast, NOW)),
      'malformed',
    )
  })

  it('fetches /api/list/contests/all from the configured base URL', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/codechef/api/list/contests/all',
      responses: [{ status: 200, body: codechefAll }],
    })
    const result = await fetchCodechef(config.CODECHEF_API_URL, realFetch, NOW)
    expect(result).toEqual(parsed())
    const [request] = await standIn.requests('/codechef')
    expect(request.path).toBe('/codechef/api/list/contests/all')
  })

  it('reports an HTTP 500, a truncated body and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/codechef/api/list/contests/all',
      responses: [
        { status: 500, body: { status: 'error', message: 'Internal Server Error' } },
        { status: 200, body: JSON.stringify(codechefAll).slice(0, 1000) },
      ],
    })
    const status = await upstreamFailure(
      fetchCodechef(config.CODECHEF_API_URL, realFetch, NOW),
      'status',
    )
    expect(status.status).toBe(500)
    await upstreamFailure(fetchCodechef(config.CODECHEF_API_URL, realFetch, NOW), 'malformed')
    await upstreamFailure(fetchCodechef(CLOSED_PORT, realFetch, NOW), 'network')
  })
})

describe('AtCoder adapter', () => {
  const parsed = () => parseAtcoderContests(atcoderPage, NOW)

  it('reads the running, upcoming and recent tables, converting Tokyo times to UTC', () => {
    const result = parsed()
    expectWellFormed('atcoder', result.contests)
    expect(result.contests).toHaveLength(17)
    expect(byId(result, 'abc482')).toEqual({
      platform: 'atcoder',
      platformId: 'abc482',
      name: 'UNIQUE VISION Programming Contest 2026 Winter (AtCoder Beginner Contest 482)',
      type: 'ABC',
      startTime: Date.parse('2026-11-28T12:00:00Z'),
      endTime: Date.parse('2026-11-28T13:40:00Z'),
      websiteUrl: 'https://atcoder.jp/contests/abc482',
      registrationUrl: 'https://atcoder.jp/contests/abc482',
      difficulty: 'EASY',
      platformMetadata: { ratedRange: '- 1999', rated: true, kind: 'Algorithm' },
    })
  })

  it('includes the running contests, among them a heuristic contest of 242 hours', () => {
    const result = parsed()
    const ahc = byId(result, 'ahc058')
    expect(ahc.type).toBe('AHC')
    expect(ahc).not.toHaveProperty('difficulty')
    expect(ahc.endTime - ahc.startTime).toBe(242 * 3_600_000)
    expect(phaseAt(ahc.startTime, ahc.endTime, NOW)).toBe('CODING')
    const arc = byId(result, 'arc211')
    expect(phaseAt(arc.startTime, arc.endTime, NOW)).toBe('CODING')
  })

  it('maps ABC, ARC, AGC and AHC to their types and difficulties', () => {
    const result = parsed()
    const seen = (id: string) => [byId(result, id).type, byId(result, id).difficulty]
    expect(seen('abc483')).toEqual(['ABC', 'EASY'])
    expect(seen('arc212')).toEqual(['ARC', 'HARD'])
    expect(seen('agc076')).toEqual(['AGC', 'EXPERT'])
    expect(seen('ahc059')).toEqual(['AHC', undefined])
    expect(seen('ahc057')).toEqual(['AHC', undefined])
  })

  it('lists every upcoming contest of the upcoming table', () => {
    const upcoming = parsed().contests.filter((c) => c.startTime > NOW)
    expect(upcoming.map((c) => c.platformId)).toEqual([
      'abc482',
      'agc076',
      'ahc059',
      'abc483',
      'arc212',
      'abc484',
    ])
  })

  it('counts unrated and other contests as unsupported and skips a row with an unreadable time', () => {
    const result = parsed()
    expect(result.unsupported).toBe(2)
    expect(ids(result)).not.toContain('jsc2026-final')
    expect(ids(result)).not.toContain('adt_easy_20261105_1')
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual([
      expect.stringMatching(/^atcoder upcoming row abc485: startText/),
    ])
  })

  it('ignores the permanent table and markup inside scripts', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('practice')
    expect(ids(result)).not.toContain('abs')
    expect(result.errors.join()).not.toContain('#')
  })

  it('reads the same contests after whitespace, quoting and attribute changes', () => {
    const reworked = atcoderPage
      .replace(/>\s+</g, '><')
      .replace(/\s+/g, ' ')
      .replace(/<td class="text-center">/g, '<TD  data-x="a>b"  class=\'text-center\' >')
      .replace(/<\/td>/g, '</TD>')
      .replace(
        /<a href="\/contests\/([^"]+)">/g,
        "<a class=contest href='https://atcoder.jp/contests/$1'>",
      )
      .replace(
        /<time class='fixtime fixtime-full'>/g,
        '<time datetime="" class="fixtime fixtime-full">',
      )
    expect(reworked).not.toBe(atcoderPage)
    expect(parseAtcoderContests(reworked, NOW)).toEqual(parsed())
  })

  it('reads rows and cells whose optional end tags are left out', () => {
    const unclosed = atcoderPage.replace(/<\/td>|<\/tr>/g, '')
    expect(unclosed).not.toContain('</td>')
    expect(parseAtcoderContests(unclosed, NOW)).toEqual(parsed())
  })

  it('reads a page with an empty upcoming table without error', () => {
    const result = parseAtcoderContests(atcoderEmptyUpcoming, NOW)
    expect(result.contests.filter((c) => c.startTime > NOW)).toEqual([])
    expect(result.errors).toEqual([])
    expect(ids(result)).toContain('ahc058')
    expect(ids(result)).toContain('abc481')
  })

  it('throws a malformed error for a page without the upcoming table', async () => {
    const start = atcoderPage.indexOf('<div id="contest-table-upcoming">')
    const end = atcoderPage.indexOf('<div id="contest-table-recent">')
    const withoutUpcoming = atcoderPage.slice(0, start) + atcoderPage.slice(end)
    const error = await upstreamFailure(
      Promise.resolve().then(() => parseAtcoderContests(withoutUpcoming, NOW)),
      'malformed',
    )
    expect(error.message).toContain('contest-table-upcoming')
  })

  it('reads AtCoder times with their offset and ids or titles as types', () => {
    expect(atcoderTime('2026-11-29 21:00:00+0900')).toBe(Date.parse('2026-11-29T12:00:00Z'))
    expect(atcoderTime('2026-11-29 21:00+09:00')).toBe(Date.parse('2026-11-29T12:00:00Z'))
    expect(atcoderTime('2026-11-29 21:00:00')).toBeNaN()
    expect(atcoderType('toyota2026', 'Toyota Contest 2026 (AtCoder Beginner Contest 490)')).toBe(
      'ABC',
    )
    expect(atcoderType('wtf2026', 'World Tour Finals 2026')).toBeUndefined()
  })

  it('fetches the English /contests page from the configured base URL', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/atcoder/contests',
      responses: [{ status: 200, body: atcoderPage }],
    })
    const result = await fetchAtcoder(config.ATCODER_URL, realFetch, NOW)
    expect(result).toEqual(parsed())
    const [request] = await standIn.requests('/atcoder')
    expect(request.path).toBe('/atcoder/contests/?lang=en')
  })

  it('reports an HTTP 503, a maintenance page and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/atcoder/contests',
      responses: [
        { status: 503, body: '<html><body>Service Unavailable</body></html>' },
        { status: 200, body: '<html><body><h1>AtCoder is under maintenance</h1></body></html>' },
      ],
    })
    const status = await upstreamFailure(fetchAtcoder(config.ATCODER_URL, realFetch, NOW), 'status')
    expect(status.status).toBe(503)
    await upstreamFailure(fetchAtcoder(config.ATCODER_URL, realFetch, NOW), 'malformed')
    await upstreamFailure(fetchAtcoder(CLOSED_PORT, realFetch, NOW), 'network')
  })
})

describe('PLATFORM_ADAPTERS', () => {
  it('has one adapter per platform, each reading its platform from the settings', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 200, body: codeforcesList }],
    })
    await standIn.script({
      pathPrefix: '/leetcode/graphql',
      responses: [{ status: 200, body: leetcodeGraphql }],
    })
    await standIn.script({
      pathPrefix: '/codechef/api/list/contests/all',
      responses: [{ status: 200, body: codechefAll }],
    })
    await standIn.script({
      pathPrefix: '/atcoder/contests',
      responses: [{ status: 200, body: atcoderPage }],
    })
    expect(Object.keys(PLATFORM_ADAPTERS).sort()).toEqual([
      'atcoder',
      'codechef',
      'codeforces',
      'leetcode',
    ])
    for (const [platform, adapter] of Object.entries(PLATFORM_ADAPTERS)) {
      const result = await adapter(config, realFetch, NOW)
      expectWellFormed(platform as Platform, result.contests)
    }
  })

  it('applies CONTEST_RETENTION_DAYS from the settings', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 200, body: codeforcesList }],
    })
    const longer = await PLATFORM_ADAPTERS.codeforces(
      { ...config, CONTEST_RETENTION_DAYS: 365 },
      realFetch,
      NOW,
    )
    expect(longer.contests).toHaveLength(24)
  })

  it('lets one platform fail with an UpstreamError while the others still answer', async () => {
    const broken = { ...config, LEETCODE_API_URL: CLOSED_PORT }
    await standIn.script({
      pathPrefix: '/codechef/api/list/contests/all',
      responses: [{ status: 200, body: codechefAll }],
    })
    const outcomes = await Promise.allSettled([
      PLATFORM_ADAPTERS.leetcode(broken, realFetch, NOW),
      PLATFORM_ADAPTERS.codechef(broken, realFetch, NOW),
    ])
    expect(outcomes[0].status).toBe('rejected')
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(UpstreamError)
    expect(outcomes[1].status).toBe('fulfilled')
  })

  it('strips the metadata that changes on every fetch, for change detection', () => {
    const contest = byId(parseCodeforcesContestList(codeforcesList, NOW), '2299')
    const later = byId(parseCodeforcesContestList(shiftRelative(codeforcesList, 3600), NOW), '2299')
    expect(later).not.toEqual(contest)
    expect(withoutVolatileMetadata(later)).toEqual(withoutVolatileMetadata(contest))
    expect(withoutVolatileMetadata(contest).platformMetadata).toEqual({
      codeforcesType: 'CF',
      phase: 'BEFORE',
      frozen: false,
      division: 'div2',
    })
  })
})

/** The same contest.list as fetched `seconds` later: only relativeTimeSeconds moves. */
function shiftRelative(list: typeof codeforcesList, seconds: number) {
  return {
    ...list,
    result: list.result.map((c) =>
      'relativeTimeSeconds' in c && typeof c.relativeTimeSeconds === 'number'
        ? { ...c, relativeTimeSeconds: c.relativeTimeSeconds + seconds }
        : c,
    ),
  }
}
