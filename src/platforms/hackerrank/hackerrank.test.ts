// The HackerRank source: the recorded contests/upcoming answer parsed, and fetched from the
// stand-in.
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
import upcoming from './fixtures/contests-upcoming.json'
import { fetchHackerrank, hackerrank, parseHackerrank } from './index.ts'

const LIST = '/hackerrank/rest/contests/upcoming'

beforeEach(() => standIn.reset())

const parsed = () => parseHackerrank(upcoming, RECORDED_AT)
const model = (slug: string) => {
  const found = upcoming.models.find((m) => m.slug === slug)
  if (!found) throw new Error(`no model ${slug} in the fixture`)
  return found
}

describe('parseHackerrank', () => {
  it('reads a contest with its name trimmed, its epoch seconds in milliseconds and its page', () => {
    expect(byId(parsed(), 'w44')).toEqual({
      platform: 'hackerrank',
      platformId: 'w44',
      name: 'Week of Code 44',
      type: 'OTHER',
      startTime: Date.UTC(2026, 10, 30, 16, 0),
      endTime: Date.UTC(2026, 11, 7, 16, 0),
      websiteUrl: 'https://www.hackerrank.com/contests/w44',
      platformMetadata: { contestId: 1875, rated: true },
    })
  })

  it('reads a contest announced for 9 AM in New York as 14:00 UTC', () => {
    const sprint = model('university-codesprint-6')
    expect(sprint.timezone).toBe('America/New_York')
    const contest = byId(parsed(), 'university-codesprint-6')
    expect(contest.startTime).toBe(Date.parse('2026-12-04T09:00:00-05:00'))
    expect(contest.startTime).toBe(Date.parse(sprint.get_starttimeiso!))
  })

  it('keeps running and upcoming contests and drops ended ones without counting them', () => {
    const result = parsed()
    expect(ids(result)).toEqual([
      'hack-the-interview-viii-us',
      'infinitum26',
      'w44',
      'university-codesprint-6',
      'holiday-cup-2026',
    ])
    expect(ids(result)).not.toContain('hack-the-interview-vii-global')
    expect(result.skipped).toBe(1)
    expect(result.unsupported).toBe(1)
  })

  it('types every contest OTHER', () => {
    expect(new Set(parsed().contests.map((c) => c.type))).toEqual(new Set(['OTHER']))
  })

  it('drops ProjectEuler+, a practice board open for years, as unsupported', () => {
    const result = parseHackerrank({ models: [model('projecteuler')], total: 1 }, RECORDED_AT)
    expect(result.contests).toEqual([])
    expect(result.unsupported).toBe(1)
  })

  it('drops a board without an end as unsupported', () => {
    const board = { ...model('holiday-cup-2026'), epoch_endtime: null, endtime: null }
    const result = parseHackerrank({ models: [board], total: 1 }, RECORDED_AT)
    expect(result.contests).toEqual([])
    expect(result.unsupported).toBe(1)
  })

  it('skips a contest without a slug and says why', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^hackerrank contest #1: slug: /)
  })

  it('skips a contest that ends before it starts', () => {
    const w44 = model('w44')
    const result = parseHackerrank(
      { models: [{ ...w44, epoch_endtime: w44.epoch_starttime - 60 }], total: 1 },
      RECORDED_AT,
    )
    expect(result.contests).toEqual([])
    expect(result.errors).toEqual([
      'hackerrank contest w44: epoch_endtime: epoch_endtime is not after epoch_starttime',
    ])
  })

  it('throws malformed when the answer has no models', async () => {
    for (const payload of [{ total: 0 }, { models: null }, { error: 'Not found' }, [], null]) {
      await upstreamFailure(() => parseHackerrank(payload, RECORDED_AT), 'malformed')
    }
  })

  it('parses an empty list to no contests without throwing', () => {
    expect(parseHackerrank({ models: [], total: 0 }, RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('hackerrank fixture route', () => {
  it('moves every time by the shift, so a later replay lists the same contests', () => {
    const shifted = shiftedJson(hackerrank.source!.fixtures[0], upcoming, WEEK_MS)
    expect(shifted.models[3].get_starttimeiso).toBe('2026-12-07T16:00:00.000Z')
    expect(shifted.models[3].epoch_starttime).toBe(model('w44').epoch_starttime + WEEK_MS / 1000)
    const later = parseHackerrank(shifted, RECORDED_AT + WEEK_MS)
    expect(ids(later)).toEqual(ids(parsed()))
  })
})

describe('fetchHackerrank', () => {
  const request = () => standInRequest('/hackerrank')

  it('asks for up to 100 upcoming contests, names the service, and parses the answer', async () => {
    await scriptOk('GET', LIST, [upcoming], 'application/json; charset=utf-8')
    const result = await fetchHackerrank(request())
    expect(result).toEqual(parsed())
    await expectOneRequest('/hackerrank/', `${LIST}?limit=100`, 'GET')
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await expectStatusError(LIST, '<html>Service Unavailable</html>', () =>
      fetchHackerrank(request()),
    )
  })
})

describe('hackerrank clist mapping', () => {
  const entry = (href: string, startTime: number, endTime: number) =>
    clistEntry(href, 'Week of Code 44', { startTime, endTime })
  const week = (href: string) =>
    entry(href, Date.UTC(2026, 10, 30, 16, 0), Date.UTC(2026, 11, 7, 16, 0))

  it('gives the same id and type as the parser for the same contest', () => {
    const own = byId(parsed(), 'w44')
    expect(hackerrank.clist!.contest(week(own.websiteUrl!))).toEqual(idAndType(own))
    expect(
      hackerrank.clist!.contest(week('https://hackerrank.com/contests/w44/challenges')),
    ).toEqual({ platformId: 'w44', type: 'OTHER' })
  })

  it('leaves out practice boards and links that are not a contest page', () => {
    const euler = entry(
      'https://hackerrank.com/contests/projecteuler',
      Date.UTC(2014, 6, 7, 15, 38),
      Date.UTC(2034, 11, 31, 23, 59),
    )
    expect(hackerrank.clist!.contest(euler)).toBeUndefined()
    for (const href of [
      'https://www.hackerrank.com/competitions/some-hackathon',
      'https://www.hackerrank.com/contests',
      'https://www.hackerrank.com/challenges/solve-me-first',
    ]) {
      expect(hackerrank.clist!.contest(week(href))).toBeUndefined()
    }
  })
})
