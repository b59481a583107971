// Codeforces rounds from contest.list: parsed from the recorded answer and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  CLOSED_PORT,
  expectSent,
  expectWellFormed,
  ids,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { servePlatform } from '../../../test/helpers/platforms.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { phaseAt } from '../../contests/serialize.ts'
import { contestSyncHash } from '../../contests/sync-hash.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import type { FetchFn, SourceRequest } from '../source.ts'
import { codeforcesDivision, fetchCodeforces, parseCodeforcesContestList } from './contest-list.ts'
import codeforcesFailed from './fixtures/codeforces-contest-list-failed.json'
import codeforcesList from './fixtures/codeforces-contest-list.json'
import { codeforces } from './index.ts'

const NOW = RECORDED_AT
const request = (fields: Partial<SourceRequest> = {}) => standInRequest('/codeforces-api', fields)

beforeEach(() => standIn.reset())

/** Scripts the stand-in's contest.list to answer with `responses` in turn. */
const scriptContestList = (responses: { status: number; body: unknown }[]) =>
  standIn.script({ method: 'GET', pathPrefix: '/codeforces-api/contest.list', responses })

describe('Codeforces adapter', () => {
  const parsed = () => parseCodeforcesContestList(codeforcesList, NOW)

  it('turns the recorded contest.list into contests with times in milliseconds and links', () => {
    const result = parsed()
    expectWellFormed(codeforces, result.contests)
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
      () => parseCodeforcesContestList(codeforcesFailed, NOW),
      'api',
    )
    expect(error.platform).toBe('codeforces')
    expect(error.message).toContain('Call limit exceeded')
  })

  it('throws a malformed error when the answer has no result list', async () => {
    await upstreamFailure(() => parseCodeforcesContestList({ status: 'OK' }, NOW), 'malformed')
  })

  it('fetches contest.list?gym=false with English names from the base URL, naming the service', async () => {
    await scriptContestList([{ status: 200, body: codeforcesList }])
    const result = await fetchCodeforces(request())
    expect(result).toEqual(parsed())
    const [sent] = await standIn.requests('/codeforces-api/')
    expectSent(sent, '/codeforces-api/contest.list?gym=false&lang=en', 'GET')
  })

  it('gets the recorded English answer from the stand-in, which serves it only to lang=en', async () => {
    expect(codeforces.source!.fixtures[0].path).toBe('/contest.list?gym=false&lang=en')
    await servePlatform('codeforces')
    expect(await fetchCodeforces(request())).toEqual(parsed())
  })

  it('passes the retention window of the request to the parser', async () => {
    await scriptContestList([{ status: 200, body: codeforcesList }])
    const longer = await fetchCodeforces(request({ retentionDays: 365 }))
    expect(longer.contests).toHaveLength(24)
  })

  it('reports FAILED answers sent with HTTP 400 as api errors', async () => {
    await scriptContestList([{ status: 400, body: codeforcesFailed }])
    const error = await upstreamFailure(fetchCodeforces(request()), 'api')
    expect(error.status).toBe(400)
  })

  it('reports an HTTP 503 as a status error with the status', async () => {
    await scriptContestList([
      { status: 503, body: '<html><body>Codeforces is temporarily unavailable</body></html>' },
    ])
    const error = await upstreamFailure(fetchCodeforces(request()), 'status')
    expect(error.status).toBe(503)
    expect(error.message).toContain('HTTP 503')
  })

  it('reports a truncated JSON body as malformed', async () => {
    await scriptContestList([{ status: 200, body: JSON.stringify(codeforcesList).slice(0, 400) }])
    await upstreamFailure(fetchCodeforces(request()), 'malformed')
  })

  it('reports a refused connection as a network error', async () => {
    await upstreamFailure(fetchCodeforces(request({ baseUrl: `${CLOSED_PORT}/api` })), 'network')
  })

  it('gives up with a timeout error when no answer comes within the time limit', async () => {
    const hanging: FetchFn = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })
    await upstreamFailure(fetchCodeforces(request({ fetchFn: hanging, timeoutMs: 5 })), 'timeout')
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

describe('the codeforces descriptor', () => {
  it('fetches from its CODEFORCES_API_URL stand-in and gives well-formed contests', async () => {
    await scriptContestList([{ status: 200, body: codeforcesList }])
    expect(codeforces.source!.setting).toBe('CODEFORCES_API_URL')
    expectWellFormed(codeforces, (await codeforces.source!.fetch(request())).contests)
  })

  it('leaves the metadata that changes on every fetch out of the change check', () => {
    const contest = byId(parseCodeforcesContestList(codeforcesList, NOW), '2299')
    const later = byId(parseCodeforcesContestList(shiftRelative(codeforcesList, 3600), NOW), '2299')
    const hash = (c: typeof contest) => contestSyncHash(c, codeforces.volatileMetadata)
    expect(later).not.toEqual(contest)
    expect(hash(later)).toEqual(hash(contest))
    // What is left is exactly the metadata that describes the round.
    const stable = {
      ...contest,
      platformMetadata: {
        codeforcesType: 'CF',
        phase: 'BEFORE',
        frozen: false,
        division: 'div2',
      },
    }
    expect(hash(contest)).toEqual(contestSyncHash(stable))
  })

  it('maps a clist.by entry to the id and type the own source stores', () => {
    const entry = clistEntry(
      'https://codeforces.com/contest/2299',
      'Codeforces Round 1092 (Div. 2)',
    )
    expect(codeforces.clist!.contest(entry)).toEqual({
      platformId: byId(parseCodeforcesContestList(codeforcesList, NOW), '2299').platformId,
      type: 'CF',
    })
    expect(
      codeforces.clist!.contest({ ...entry, href: 'https://codeforces.com/blog/entry/1' }),
    ).toBe(undefined)
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
