// GeeksforGeeks' events API: parsed from the recorded answer and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
  expectOneRequest,
  expectStatusError,
  idAndType,
  ids,
  movedBy,
  scriptOk,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { DAY_MS } from '../../lib/time.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import page from './fixtures/events-contest-page-1.json'
import {
  fetchGeeksforgeeks,
  geeksforgeeks,
  geeksforgeeksType,
  parseGeeksforgeeks,
} from './index.ts'

/** An answer whose upcoming list is `upcoming`. */
const answer = (upcoming: unknown[]) => ({ results: { upcoming, past: [] } })

describe('parseGeeksforgeeks', () => {
  const parsed = () => parseGeeksforgeeks(page, RECORDED_AT)

  it('reads a weekly round with its slug, India-time start and contest page', () => {
    expect(byId(parsed(), 'gfg-weekly-231-rated-contest')).toEqual({
      platform: 'geeksforgeeks',
      platformId: 'gfg-weekly-231-rated-contest',
      name: 'GfG Weekly - 231 [Rated Contest]',
      type: 'WEEKLY',
      startTime: Date.UTC(2026, 10, 29, 13, 30),
      endTime: Date.UTC(2026, 10, 29, 15, 0),
      websiteUrl: 'https://practice.geeksforgeeks.org/contest/gfg-weekly-231-rated-contest',
      platformMetadata: { rated: true },
    })
  })

  it('reads the naive times as India time: 19:00 on 2026-11-22 is 13:30 UTC', () => {
    const contest = byId(parsed(), 'gfg-weekly-230-rated-contest')
    expect(contest.startTime).toBe(Date.parse('2026-11-22T13:30:00Z'))
    expect(contest.endTime).toBe(Date.parse('2026-11-22T15:00:00Z'))
  })

  it('keeps the running and upcoming contests, weekly rounds as WEEKLY and the rest as OTHER', () => {
    const result = parsed()
    expect(result.contests.map((c) => [c.platformId, c.type])).toEqual([
      ['geek-o-lympics-2026-coding-round', 'OTHER'],
      ['gfg-weekly-230-rated-contest', 'WEEKLY'],
      ['bi-wizard-school-coding-tournament-300', 'OTHER'],
      ['gfg-weekly-231-rated-contest', 'WEEKLY'],
      ['gfg-weekly-232-rated-contest', 'WEEKLY'],
      ['job-a-thon-51-hiring-challenge', 'OTHER'],
    ])
    const tournament = result.contests[2]
    expect(tournament.name).toBe('Bi-Wizard School Coding Tournament 30.0')
    expect(tournament.platformMetadata).toEqual({ rated: false })
  })

  it('leaves out a contest the upcoming list still holds after it ended, and never reads past', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('geek-week-2026-warm-up-contest')
    expect(ids(result)).not.toContain('gfg-weekly-229-rated-contest')
    const ended = parseGeeksforgeeks(answer([page.results.upcoming[8]]), RECORDED_AT)
    expect(ended).toEqual(EMPTY_RESULT)
  })

  it('counts an event running for months as unsupported, not as a contest', () => {
    const result = parsed()
    expect(result.unsupported).toBe(1)
    expect(ids(result)).not.toContain('gfg-160-days-of-problem-solving-2026')
  })

  it('skips an event without a start time, naming the field', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual([
      expect.stringMatching(
        /^geeksforgeeks contest weekend-mock-test-series-dec-2026: start_time: /,
      ),
    ])
  })

  it('skips times with an offset, reversed times and a slug that is no path segment', () => {
    const weekly = page.results.upcoming[1]
    const result = parseGeeksforgeeks(
      answer([
        { ...weekly, start_time: '2026-11-22T13:30:00Z' },
        { ...weekly, end_time: '2026-11-22T18:00:00' },
        { ...weekly, slug: '../admin' },
      ]),
      RECORDED_AT,
    )
    expect(result.contests).toEqual([])
    expect(result.skipped).toBe(3)
    expect(result.errors[0]).toMatch(/: start_time: /)
    expect(result.errors[1]).toMatch(/: end_time: not after start_time$/)
    expect(result.errors[2]).toMatch(/^geeksforgeeks contest \.\.\/admin: slug: /)
  })

  it('throws a malformed error when results.upcoming is missing', async () => {
    for (const payload of [{}, { results: {} }, { results: { past: [] } }, { results: null }]) {
      const error = await upstreamFailure(() => parseGeeksforgeeks(payload, RECORDED_AT))
      expect(error.kind).toBe('malformed')
      expect(error.platform).toBe('geeksforgeeks')
    }
  })

  it('parses an empty upcoming list to no contests without throwing', () => {
    expect(parseGeeksforgeeks(answer([]), RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('geeksforgeeksType', () => {
  it('tells the weekly rounds from the rest by name or by slug', () => {
    expect(geeksforgeeksType('GFG Weekly Coding Contest - 135')).toBe('WEEKLY')
    expect(geeksforgeeksType('Weekly round', 'gfg-weekly-coding-contest-135')).toBe('WEEKLY')
    expect(geeksforgeeksType('Bi-Wizard School Coding Tournament 22.0')).toBe('OTHER')
    expect(geeksforgeeksType('GATE CS 2024 - All India Mock 2')).toBe('OTHER')
  })
})

describe('geeksforgeeks fixture route', () => {
  it('moves the naive India times forward and keeps them naive', () => {
    const shifted = shiftedJson(geeksforgeeks.source!.fixtures[0], page, WEEK_MS)
    expect(shifted.results.upcoming[1].start_time).toBe('2026-11-29T19:00:00')
    const later = parseGeeksforgeeks(shifted, RECORDED_AT + WEEK_MS)
    expect(later.contests).toEqual(movedBy(parseGeeksforgeeks(page, RECORDED_AT).contests, WEEK_MS))
  })
})

describe('geeksforgeeks clist mapping', () => {
  const contest = (href: string, event = 'GfG Weekly - 231 [Rated Contest]', days = 1 / 16) =>
    geeksforgeeks.clist?.contest(
      clistEntry(href, event, { startTime: RECORDED_AT, endTime: RECORDED_AT + days * DAY_MS }),
    )

  it('gives a contest page the platformId and type the parser gives it', () => {
    const parsed = byId(parseGeeksforgeeks(page, RECORDED_AT), 'gfg-weekly-231-rated-contest')
    expect(contest(parsed.websiteUrl!)).toEqual(idAndType(parsed))
    expect(
      contest('https://www.geeksforgeeks.org/contest/bi-wizard-school-coding-tournament-300/', 'x'),
    ).toEqual({ platformId: 'bi-wizard-school-coding-tournament-300', type: 'OTHER' })
  })

  it('maps other pages and months-long events to nothing', () => {
    expect(
      contest('https://www.geeksforgeeks.org/events/rec/gfg-weekly-coding-contest'),
    ).toBeUndefined()
    expect(contest('https://www.geeksforgeeks.org/dsa/binary-search/')).toBeUndefined()
    const longEvent = contest('https://practice.geeksforgeeks.org/contest/gfg-160', 'GfG 160', 160)
    expect(longEvent).toBeUndefined()
  })
})

describe('fetchGeeksforgeeks', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchGeeksforgeeks(standInRequest('/geeksforgeeks'))

  it('asks for the first page of contests once, naming the service, and parses it', async () => {
    await scriptOk('GET', '/geeksforgeeks/api/vr/events/', [page], 'application/json')
    const result = await fetchFromStandIn()
    expect(result).toEqual(parseGeeksforgeeks(page, RECORDED_AT))
    // Later pages add past contests only, which are not read: one request is the whole fetch.
    await expectOneRequest(
      '/geeksforgeeks/',
      '/geeksforgeeks/api/vr/events/?type=contest&sub_type=all&page_number=1',
      'GET',
    )
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await expectStatusError('/geeksforgeeks/api/vr/events/', 'upstream busy', fetchFromStandIn, {
      'content-type': 'text/plain',
    })
  })
})
