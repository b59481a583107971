// The Code360 source: the recorded v4 list of upcoming Code 360 contests and the two recorded pages
// of v3's list of every event parsed, and fetched from the stand-in, v3 when v4 does not answer
// usably.
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
import { verdictOf } from '../../sync/answers.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import page1 from './fixtures/contest-list-page-1.json'
import page2 from './fixtures/contest-list-page-2.json'
import upcoming from './fixtures/contest-list-v4-upcoming.json'
import {
  CODE360_MAX_PAGES,
  CODE360_V4_PAGE_SIZE,
  code360,
  code360Type,
  fetchCode360,
  parseCode360,
  parseCode360Pages,
} from './index.ts'

const V3 = '/code360/api/v3/public_section/contest_list'
const V4 = '/code360/api/v4/public_section/contest_list'
const V4_PAGE = (page: number) =>
  `${V4}?status=upcoming&category[]=code_360&page_size=${CODE360_V4_PAGE_SIZE}&page=${page}`
const JSON_TYPE = 'application/json; charset=utf-8'

beforeEach(() => standIn.reset())

type Event = Record<string, unknown>
const v3Events = [...page1.data.events, ...page2.data.events] as Event[]
const v4Events = upcoming.data.events as Event[]

const parsed = () => parseCode360Pages([page1, page2], RECORDED_AT)
const parsedUpcoming = () => parseCode360(upcoming, RECORDED_AT, {}, 'upcoming')

/** A v3 page holding `events` only, the way the list answers past its last page of interest. */
const pageOf = (events: unknown[], totalPages = 1) => ({
  data: { events, current_page: 1, total_pages: totalPages },
})
/** A v4 answer listing `events`, with its page count when given. */
const upcomingOf = (events: unknown[], totalPages?: number) => ({
  status: 200,
  data: { events, ...(totalPages !== undefined && { total_pages: totalPages }) },
})
const withoutKey = (events: readonly Event[], key: string) =>
  events.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)))
const sorted = (values: string[]) => [...values].sort()

describe('parseCode360 on v3, the list of every event', () => {
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

  it('keeps running and upcoming Code 360 contests, once each, and drops ended ones uncounted', () => {
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
    expect(result.unsupported).toBe(2)
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

  it('selects by contest_type as clist does: a webinar and a college contest are unsupported', () => {
    const result = parseCode360(page1, RECORDED_AT)
    expect(result.unsupported).toBe(2)
    // event_category says CONTEST for the college's round: it is not Code360's own.
    const college = v3Events.find((e) => e.slug === 'nit-trichy-codefest-2026')!
    expect(college).toMatchObject({ event_category: 'CONTEST', contest_type: 'College' })
    expect(ids(result)).not.toContain('nit-trichy-codefest-2026')
    expect(ids(result)).not.toContain('cracking-the-coding-interview-live-masterclass')
  })

  it('keeps a Code 360 contest whatever event_category says, or without it', () => {
    const weekly = v3Events[0]
    const events = [
      { ...weekly, slug: 'a', event_category: undefined },
      { ...weekly, slug: 'b', event_category: 'Coding Contest' },
      { ...weekly, slug: 'c', contest_type: 'CODE 360' },
      { ...weekly, slug: 'd', contest_type: 'code360' },
    ]
    expect(ids(parseCode360(pageOf(events), RECORDED_AT))).toEqual(['a', 'b', 'c', 'd'])
  })

  it('throws malformed when no event is a Code 360 contest, rather than listing nothing', async () => {
    const renamed = pageOf(withoutKey(v3Events, 'contest_type'))
    const error = await upstreamFailure(() => parseCode360(renamed, RECORDED_AT), 'malformed')
    expect(error.message).toMatch(/none of the 16 events is a Code 360 contest/)
    const webinars = pageOf([v3Events.find((e) => e.event_category === 'WEBINAR')])
    await upstreamFailure(() => parseCode360(webinars, RECORDED_AT), 'malformed')
    // The sync takes it for a broken answer, not for a platform with nothing coming up.
    expect(verdictOf(error).kind).toBe('degraded')
  })

  it('counts broken events without throwing when none is unsupported', () => {
    const result = parseCode360(pageOf([{ name: 'no times' }]), RECORDED_AT)
    expect(result).toMatchObject({ contests: [], skipped: 1, unsupported: 0 })
  })

  it('skips an event without a slug and says why', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^code360 event #7 of page 1: slug: /)
  })

  it('skips an event that ends before it starts', () => {
    const event = { ...page1.data.events[0], event_end_time: page1.data.events[0].event_start_time }
    const result = parseCode360(pageOf([event, page1.data.events[1]]), RECORDED_AT)
    expect(ids(result)).toEqual(['weekly-contest-160'])
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

describe('parseCode360 on v4, the list of upcoming Code 360 contests', () => {
  it('lists the same contests as the two v3 pages, each read the same', () => {
    const result = parsedUpcoming()
    expect(sorted(ids(result))).toEqual(sorted(ids(parsed())))
    for (const contest of parsed().contests) {
      expect(byId(result, contest.platformId)).toEqual(contest)
    }
    expect(result).toMatchObject({ skipped: 0, unsupported: 0, errors: [] })
  })

  it('takes an event without contest_type for one (the server selected it)', () => {
    expect(v4Events.every((e) => !('contest_type' in e))).toBe(true)
    expect(parsedUpcoming().contests).toHaveLength(v4Events.length)
  })

  it('leaves out an event naming another contest_type, as if the filter were ignored', () => {
    const events = [{ ...v4Events[0], contest_type: 'College' }, ...v4Events.slice(1)]
    const result = parseCode360(upcomingOf(events), RECORDED_AT, {}, 'upcoming')
    expect(result.unsupported).toBe(1)
    expect(ids(result)).not.toContain(v4Events[0].slug)
    const none = upcomingOf(events.map((e) => ({ ...e, contest_type: 'College' })))
    // Every event another type's: the selection no longer matches the answer.
    expect(() => parseCode360(none, RECORDED_AT, {}, 'upcoming')).toThrow(/none of the 8/)
  })

  it('throws malformed without data.events, and a refusal for another status', async () => {
    for (const payload of [{ status: 200 }, { status: 200, data: { events: null } }, null]) {
      await upstreamFailure(() => parseCode360(payload, RECORDED_AT, {}, 'upcoming'), 'malformed')
    }
    const refused = { status: 500, data: { events: [] } }
    await upstreamFailure(() => parseCode360(refused, RECORDED_AT, {}, 'upcoming'), 'api')
  })

  it('reads an answer with nothing to come as no contests', () => {
    expect(parseCode360(upcomingOf([]), RECORDED_AT, {}, 'upcoming')).toEqual(EMPTY_RESULT)
  })
})

describe('code360 fixture routes', () => {
  it('serve v4 and then the v3 pages at the paths the source asks for', () => {
    expect(code360.source!.fixtures.map((f) => [f.path, f.file])).toEqual([
      [
        `/api/v4/public_section/contest_list?status=upcoming&category[]=code_360&page_size=${CODE360_V4_PAGE_SIZE}&page=1`,
        'fixtures/contest-list-v4-upcoming.json',
      ],
      ['/api/v3/public_section/contest_list?page=1', 'fixtures/contest-list-page-1.json'],
      ['/api/v3/public_section/contest_list?page=2', 'fixtures/contest-list-page-2.json'],
    ])
  })

  it('move every time by the shift, so a later replay lists the same contests', () => {
    const [v4, route1, route2] = code360.source!.fixtures
    const shifted = [shiftedJson(route1, page1, WEEK_MS), shiftedJson(route2, page2, WEEK_MS)]
    const later = parseCode360Pages(shifted, RECORDED_AT + WEEK_MS)
    expect(ids(later)).toEqual(ids(parsed()))
    expect(later.contests[0].startTime).toBe(parsed().contests[0].startTime + WEEK_MS)
    const laterUpcoming = parseCode360(
      shiftedJson(v4, upcoming, WEEK_MS),
      RECORDED_AT + WEEK_MS,
      {},
      'upcoming',
    )
    expect(ids(laterUpcoming)).toEqual(ids(parsedUpcoming()))
  })
})

describe('fetchCode360', () => {
  const request = () => standInRequest('/code360')
  const paths = async () => (await standIn.requests('/code360/')).map((r) => r.path)

  it('asks v4 for the upcoming Code 360 contests, naming the service, and only v4', async () => {
    await scriptOk('GET', V4, [upcoming], JSON_TYPE)
    await scriptOk('GET', V3, [page1, page2], JSON_TYPE)
    expect(await fetchCode360(request())).toEqual(parsedUpcoming())
    const requests = await standIn.requests('/code360/')
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${V4_PAGE(1)}`])
    expect(requests[0].headers['user-agent']).toContain('ContestAlertService')
  })

  it('follows the v4 pages its count gives, or a full page without one', async () => {
    const full = v4Events.concat(v4Events.slice(0, 2).map((e) => ({ ...e, slug: `${e.slug}-b` })))
    expect(full).toHaveLength(CODE360_V4_PAGE_SIZE)
    await scriptOk('GET', V4, [upcomingOf(v4Events, 2), upcomingOf([])], JSON_TYPE)
    await fetchCode360(request())
    expect(await paths()).toEqual([V4_PAGE(1), V4_PAGE(2)])

    await standIn.reset()
    await scriptOk('GET', V4, [upcomingOf(full), upcomingOf(v4Events.slice(0, 1))], JSON_TYPE)
    await fetchCode360(request())
    expect(await paths()).toEqual([V4_PAGE(1), V4_PAGE(2)])
  })

  it('stops at a v4 page that brings nothing new, as when the page is not honoured', async () => {
    const full = upcomingOf(
      v4Events.concat(v4Events.slice(0, 2).map((e) => ({ ...e, slug: `${e.slug}-b` }))),
    )
    await scriptOk('GET', V4, [full], JSON_TYPE)
    const result = await fetchCode360(request())
    expect(await paths()).toEqual([V4_PAGE(1), V4_PAGE(2)])
    expect(result.contests).toHaveLength(CODE360_V4_PAGE_SIZE)
  })

  it('falls back to the v3 pages when v4 is gone, a broken answer or no Code 360 contest', async () => {
    const answers: [number, unknown][] = [
      [404, { message: 'Not Found' }],
      [200, { data: { items: [] } }],
      [200, upcomingOf(v4Events.map((e) => ({ ...e, contest_type: 'College' })))],
    ]
    for (const [status, body] of answers) {
      await standIn.reset()
      await standIn.script({ method: 'GET', pathPrefix: V4, responses: [{ status, body }] })
      await scriptOk('GET', V3, [page1, page2], JSON_TYPE)
      expect(await fetchCode360(request())).toEqual(parsed())
      expect(await paths()).toEqual([V4_PAGE(1), `${V3}?page=1`, `${V3}?page=2`])
    }
  })

  it('does not ask v3 past a block: a 403 is the platform being blocked', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: V4,
      responses: [{ status: 403, body: '<html>Access Denied</html>' }],
    })
    const error = await upstreamFailure(fetchCode360(request()), 'status')
    expect(error.blocked).toBe(true)
    expect(await paths()).toEqual([V4_PAGE(1)])
  })

  it("fails with v3's failure, naming v4's too, when neither answers usably", async () => {
    await standIn.script({ method: 'GET', pathPrefix: V4, responses: [{ status: 404, body: {} }] })
    await standIn.script({
      method: 'GET',
      pathPrefix: V3,
      responses: [{ status: 429, body: 'slow down', headers: { 'retry-after': '120' } }],
    })
    const error = await upstreamFailure(fetchCode360(request()), 'status')
    expect(error).toMatchObject({ status: 429, retryAfter: 120, blocked: true })
    expect(error.message).toMatch(/^code360: v4 HTTP 404.*; v3 HTTP 429/)
  })

  it('stops after the first v3 page when it is the only one', async () => {
    await scriptOk('GET', V4, [{ data: null }], JSON_TYPE)
    await scriptOk('GET', V3, [pageOf(page1.data.events, 1)], JSON_TYPE)
    await fetchCode360(request())
    expect(await paths()).toEqual([V4_PAGE(1), `${V3}?page=1`])
  })

  it(`follows at most ${CODE360_MAX_PAGES} v3 pages however many the list says it has`, async () => {
    await scriptOk('GET', V4, [{ data: null }], JSON_TYPE)
    await scriptOk('GET', V3, [pageOf(page2.data.events, 40)], JSON_TYPE)
    await fetchCode360(request())
    const v3 = (await paths()).filter((p) => p.startsWith(V3))
    expect(v3).toHaveLength(CODE360_MAX_PAGES)
    expect(v3.at(-1)).toBe(`${V3}?page=${CODE360_MAX_PAGES}`)
  })

  it('throws malformed when a later v3 page is broken', async () => {
    await scriptOk('GET', V4, [{ data: null }], JSON_TYPE)
    await scriptOk('GET', V3, [page1, { data: null }], JSON_TYPE)
    await upstreamFailure(fetchCode360(request()), 'malformed')
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    const error = await expectStatusError('/code360/api/', '<html>Service Unavailable</html>', () =>
      fetchCode360(request()),
    )
    expect(await paths()).toEqual([V4_PAGE(1), `${V3}?page=1`])
    expect(error.message).toMatch(/v4 HTTP 503.*; v3 HTTP 503/)
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
