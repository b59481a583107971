// The Code360 source: the two recorded pages of the contest list parsed, and fetched page by page
// from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
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
import page1 from './fixtures/contest-list-page-1.json'
import page2 from './fixtures/contest-list-page-2.json'
import {
  CODE360_MAX_PAGES,
  code360,
  code360Type,
  fetchCode360,
  parseCode360,
  parseCode360Pages,
} from './index.ts'

const LIST = '/code360/api/v3/public_section/contest_list'
const JSON_TYPE = 'application/json; charset=utf-8'

beforeEach(() => standIn.reset())

const parsed = () => parseCode360Pages([page1, page2], RECORDED_AT)

/** A page holding `events` only, the way the list answers past its last page of interest. */
const pageOf = (events: unknown[], totalPages = 1) => ({
  data: { events, current_page: 1, total_pages: totalPages },
})

describe('parseCode360', () => {
  it('reads a weekly contest with its name trimmed, its times in milliseconds and its page', () => {
    expect(byId(parsed(), 'weekly-contest-159')).toEqual({
      platform: 'code360',
      platformId: 'weekly-contest-159',
      name: 'Weekly Contest 159',
      type: 'WEEKLY',
      startTime: Date.UTC(2026, 10, 29, 14, 30),
      endTime: Date.UTC(2026, 10, 29, 16, 0),
      websiteUrl: 'https://www.naukri.com/code360/contests/weekly-contest-159',
      platformMetadata: { eventId: 4833 },
    })
  })

  it('reads the unix seconds of 8 PM in India as 14:30 UTC', () => {
    expect(byId(parsed(), 'weekly-contest-159').startTime).toBe(
      Date.parse('2026-11-29T20:00:00+05:30'),
    )
    expect(byId(parsed(), 'biweekly-contest-79').startTime).toBe(
      Date.parse('2026-11-28T20:00:00+05:30'),
    )
  })

  it('keeps running and upcoming contests, once each, and drops ended ones without counting them', () => {
    const result = parsed()
    expect(ids(result)).toEqual([
      'weekly-contest-161',
      'weekly-contest-160',
      'weekly-contest-159',
      'biweekly-contest-79',
      'code360-winter-coding-sprint',
      'weekly-contest-158',
      'code360-november-coding-marathon',
      'code360-monthly-challenge-november-2026',
    ])
    expect(result.skipped).toBe(1)
    expect(result.unsupported).toBe(1)
  })

  it('types weekly and biweekly contests from their names and everything else OTHER', () => {
    const types = Object.fromEntries(parsed().contests.map((c) => [c.platformId, c.type]))
    expect(types['weekly-contest-161']).toBe('WEEKLY')
    expect(types['biweekly-contest-79']).toBe('BIWEEKLY')
    expect(types['code360-winter-coding-sprint']).toBe('OTHER')
    expect(types['code360-monthly-challenge-november-2026']).toBe('OTHER')
    expect(code360Type('Bi-Weekly Contest 80')).toBe('BIWEEKLY')
    expect(code360Type('Code360 weekly contest 162')).toBe('WEEKLY')
    expect(code360Type('Weekly Coding Sprint')).toBe('OTHER')
  })

  it('drops a webinar as unsupported', () => {
    const result = parseCode360(page1, RECORDED_AT)
    expect(result.unsupported).toBe(1)
    expect(ids(result)).not.toContain('cracking-the-coding-interview-live-masterclass')
  })

  it('skips an event without a slug and says why', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^code360 event #6 of page 1: slug: /)
  })

  it('skips an event that ends before it starts', () => {
    const event = { ...page1.data.events[0], event_end_time: page1.data.events[0].event_start_time }
    const result = parseCode360(pageOf([event]), RECORDED_AT)
    expect(result.contests).toEqual([])
    expect(result.errors).toEqual([
      'code360 event weekly-contest-161: event_end_time: event_end_time is not after event_start_time',
    ])
  })

  it('throws malformed when a page has no events or no page count', async () => {
    const broken = [
      [],
      { data: { total_pages: 2 } },
      { data: { events: [] } },
      { data: { events: null, total_pages: 1 } },
      { error: 'Something went wrong' },
      null,
    ]
    for (const payload of broken) {
      await upstreamFailure(() => parseCode360(payload, RECORDED_AT), 'malformed')
    }
    await upstreamFailure(() => parseCode360Pages([page1, { data: {} }], RECORDED_AT))
  })

  it('parses an empty list to no contests without throwing', () => {
    expect(parseCode360(pageOf([], 0), RECORDED_AT)).toEqual(EMPTY_RESULT)
  })

  it('finds a month-long contest that only the second page lists', () => {
    expect(ids(parseCode360(page1, RECORDED_AT))).not.toContain(
      'code360-monthly-challenge-november-2026',
    )
    expect(byId(parsed(), 'code360-monthly-challenge-november-2026').endTime).toBe(
      Date.parse('2026-11-30T23:59:00+05:30'),
    )
  })
})

describe('code360 fixture routes', () => {
  it('serve the pages at the paths the source asks for, in order', () => {
    expect(code360.source!.fixtures.map((f) => [f.path, f.file])).toEqual([
      ['/api/v3/public_section/contest_list?page=1', 'fixtures/contest-list-page-1.json'],
      ['/api/v3/public_section/contest_list?page=2', 'fixtures/contest-list-page-2.json'],
    ])
  })

  it('move every time by the shift, so a later replay lists the same contests', () => {
    const [route1, route2] = code360.source!.fixtures
    const shifted = [shiftedJson(route1, page1, WEEK_MS), shiftedJson(route2, page2, WEEK_MS)]
    const later = parseCode360Pages(shifted, RECORDED_AT + WEEK_MS)
    expect(ids(later)).toEqual(ids(parsed()))
    expect(later.contests[0].startTime).toBe(parsed().contests[0].startTime + WEEK_MS)
  })
})

describe('fetchCode360', () => {
  const request = () => standInRequest('/code360')

  it('asks for page 1 then page 2, names the service, and parses both', async () => {
    await scriptOk('GET', LIST, [page1, page2], JSON_TYPE)
    const result = await fetchCode360(request())
    expect(result).toEqual(parsed())

    const requests = await standIn.requests('/code360/')
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${LIST}?page=1`,
      `GET ${LIST}?page=2`,
    ])
    for (const r of requests) expect(r.headers['user-agent']).toContain('ContestAlertService')
  })

  it('stops after the first page when it is the only one', async () => {
    await scriptOk('GET', LIST, [pageOf(page1.data.events, 1)], JSON_TYPE)
    await fetchCode360(request())
    expect(await standIn.requests('/code360/')).toHaveLength(1)
  })

  it(`follows at most ${CODE360_MAX_PAGES} pages however many the list says it has`, async () => {
    await scriptOk('GET', LIST, [pageOf(page2.data.events, 40)], JSON_TYPE)
    await fetchCode360(request())
    const requests = await standIn.requests('/code360/')
    expect(requests).toHaveLength(CODE360_MAX_PAGES)
    expect(requests.at(-1)!.path).toBe(`${LIST}?page=${CODE360_MAX_PAGES}`)
  })

  it('throws malformed when a later page is broken', async () => {
    await scriptOk('GET', LIST, [page1, { data: null }], JSON_TYPE)
    await upstreamFailure(fetchCode360(request()), 'malformed')
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await expectStatusError(LIST, '<html>Service Unavailable</html>', () => fetchCode360(request()))
  })
})

describe('code360 clist mapping', () => {
  const entry = (href: string, event: string) =>
    clistEntry(href, event, {
      startTime: Date.UTC(2026, 10, 29, 14, 30),
      endTime: Date.UTC(2026, 10, 29, 16, 0),
    })

  it('gives the same id and type as the parser for the same contest', () => {
    const own = byId(parsed(), 'weekly-contest-159')
    expect(code360.clist!.contest(entry(own.websiteUrl!, 'Weekly Contest 159'))).toEqual(
      idAndType(own),
    )
  })

  it('reads the slug from the older Coding Ninjas links too', () => {
    const href = 'https://www.codingninjas.com/studio/contests/biweekly-contest-79'
    expect(code360.clist!.contest(entry(href, 'Biweekly Contest 79'))).toEqual({
      platformId: 'biweekly-contest-79',
      type: 'BIWEEKLY',
    })
  })

  it('leaves out links that are not a contest page', () => {
    for (const href of [
      'https://www.naukri.com/code360/problems/two-sum',
      'https://www.naukri.com/code360/contests',
      'https://example.com/code360/contests/weekly-contest-159',
    ]) {
      expect(code360.clist!.contest(entry(href, 'Weekly Contest 159'))).toBeUndefined()
    }
  })
})
