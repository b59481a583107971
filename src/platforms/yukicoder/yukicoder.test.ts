// The yukicoder source: the recorded /contest/future answer parsed, and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
  expectOneRequest,
  expectStatusError,
  idAndType,
  ids,
  scriptOk,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import future from './fixtures/contest-future.json'
import { fetchYukicoder, parseYukicoder, yukicoder, yukicoderType } from './index.ts'

beforeEach(() => standIn.reset())

const parsed = () => parseYukicoder(future, RECORDED_AT)

describe('parseYukicoder', () => {
  it('reads a round with its Japan times in UTC, its page and its problem count', () => {
    expect(byId(parsed(), '601')).toEqual({
      platform: 'yukicoder',
      platformId: '601',
      name: 'yukicoder contest 498',
      type: 'REGULAR',
      startTime: Date.UTC(2026, 10, 27, 12, 20),
      endTime: Date.UTC(2026, 10, 27, 14, 20),
      websiteUrl: 'https://yukicoder.me/contests/601',
      problemCount: 8,
    })
  })

  it('reads midnight in Japan as the previous day in UTC', () => {
    const advent = byId(parsed(), '605')
    expect(advent.startTime).toBe(Date.UTC(2026, 10, 30, 15, 0))
    expect(advent.endTime).toBe(Date.UTC(2026, 11, 25, 14, 59, 59))
  })

  it('leaves out the problem count of a contest whose problems are not assigned yet', () => {
    expect(byId(parsed(), '605')).not.toHaveProperty('problemCount')
  })

  it('keeps running and upcoming contests and drops ended ones without counting them', () => {
    const result = parsed()
    expect(ids(result)).toEqual(['600', '601', '605', '602', '604'])
    // 598 has ended: it is neither skipped nor unsupported, only left out.
    expect(result.skipped).toBe(1)
  })

  it('types the weekly series REGULAR, numbered or not yet, and everything else OTHER', () => {
    const types = Object.fromEntries(parsed().contests.map((c) => [c.platformId, c.type]))
    expect(types).toEqual({
      '600': 'OTHER',
      '601': 'REGULAR',
      '605': 'OTHER',
      '602': 'REGULAR',
      '604': 'REGULAR',
    })
    expect(yukicoderType('yukicoder contest 500 (Div. 1)')).toBe('REGULAR')
    expect(yukicoderType('Yukicoder Contest 312')).toBe('REGULAR')
    expect(yukicoderType('yukicoder contests award 2026')).toBe('OTHER')
    expect(yukicoderType('Xmas Contest 2026')).toBe('OTHER')
  })

  it('keeps contests outside the weekly series instead of dropping them as unsupported', () => {
    const result = parsed()
    expect(result.unsupported).toBe(0)
    expect(result.contests.filter((c) => c.type === 'OTHER')).toHaveLength(2)
  })

  it('skips an entry without EndDate and says why', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^yukicoder contest 603: .*EndDate/)
  })

  it('skips an entry that ends before it starts', () => {
    const result = parseYukicoder(
      [
        {
          Id: 700,
          Name: 'yukicoder contest 510',
          Date: '2026-12-18T21:20:00+09:00',
          EndDate: '2026-12-18T21:20:00+09:00',
          ProblemIdList: [1],
        },
      ],
      RECORDED_AT,
    )
    expect(result.contests).toEqual([])
    expect(result.errors).toEqual(['yukicoder contest 700: EndDate is not after Date'])
  })

  it('refuses a time without an offset rather than guess its zone', () => {
    const result = parseYukicoder(
      [{ ...future[2], Date: '2026-11-27T21:20:00', EndDate: '2026-11-27T23:20:00' }],
      RECORDED_AT,
    )
    expect(result.contests).toEqual([])
    expect(result.skipped).toBe(1)
  })

  it('throws malformed when the answer is not an array', async () => {
    for (const payload of [{ Message: 'Internal Server Error' }, null, { data: [] }]) {
      await upstreamFailure(() => parseYukicoder(payload, RECORDED_AT), 'malformed')
    }
  })

  it('parses an empty list to no contests without throwing', () => {
    expect(parseYukicoder([], RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('yukicoder fixture route', () => {
  it('moves every time by the shift, so a later replay lists the same contests', () => {
    const shifted = shiftedJson(yukicoder.source!.fixtures[0], future, WEEK_MS)
    expect(shifted[2].Date).toBe('2026-12-04T21:20:00+09:00')
    const later = parseYukicoder(shifted, RECORDED_AT + WEEK_MS)
    expect(ids(later)).toEqual(ids(parsed()))
  })
})

describe('fetchYukicoder', () => {
  const request = () => standInRequest('/yukicoder')

  it('asks for /contest/future, names the service, and parses the answer', async () => {
    const json = 'application/json; charset=utf-8'
    await scriptOk('GET', '/yukicoder/contest/future', [future], json)
    const result = await fetchYukicoder(request())
    expect(result).toEqual(parsed())
    await expectOneRequest('/yukicoder/', '/yukicoder/contest/future', 'GET')
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await expectStatusError('/yukicoder/contest/future', { Message: 'Service Unavailable' }, () =>
      fetchYukicoder(request()),
    )
  })
})

describe('yukicoder clist mapping', () => {
  const entry = (href: string, event: string) =>
    clistEntry(href, event, {
      startTime: Date.UTC(2026, 10, 27, 12, 20),
      endTime: Date.UTC(2026, 10, 27, 14, 20),
    })

  it('maps a contest page to the id and type the parser gives the same contest', () => {
    const own = byId(parsed(), '601')
    expect(
      yukicoder.clist!.contest(entry('https://yukicoder.me/contests/601', 'yukicoder contest 498')),
    ).toEqual(idAndType(own))
    const advent = byId(parsed(), '605')
    expect(
      yukicoder.clist!.contest(entry('https://yukicoder.me/contests/605/', advent.name)),
    ).toEqual(idAndType(advent))
  })

  it('ignores links that are not a contest page', () => {
    expect(yukicoder.clist!.contest(entry('https://yukicoder.me/problems/no/1', 'x'))).toBe(
      undefined,
    )
    expect(yukicoder.clist!.contest(entry('https://yukicoder.me/contests', 'x'))).toBe(undefined)
  })
})
