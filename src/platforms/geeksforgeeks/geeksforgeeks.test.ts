// GeeksforGeeks' events API and GfG Weekly page: parsed from the recorded answers and fetched
// from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
  expectOneRequest,
  expectSent,
  expectStatusError,
  idAndType,
  ids,
  movedBy,
  requestPaths,
  scriptOk,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { DAY_MS } from '../../lib/time.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import { UpstreamError } from '../upstream.ts'
import page from './fixtures/events-contest-page-1.json'
import page2 from './fixtures/events-contest-page-2.json'
import weeklyPage from './fixtures/events-rec-gfg-weekly-coding-contest.html?raw'
import {
  fetchGeeksforgeeks,
  geeksforgeeks,
  GEEKSFORGEEKS_MAX_PAGES,
  geeksforgeeksType,
  parseGeeksforgeeks,
  parseGeeksforgeeksAnswers,
  parseGeeksforgeeksWeekly,
  WEEKLY_PAGE_PATH,
  weeklyPageBase,
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

/** The recorded weekly page with its Next.js props replaced by `pageProps`. */
const weeklyWith = (pageProps: unknown) =>
  weeklyPage.replace(
    /(<script id="__NEXT_DATA__" type="application\/json">)[\s\S]*?(<\/script>)/,
    (_, open: string, close: string) =>
      `${open}${JSON.stringify({ props: { pageProps } })}${close}`,
  )

/** A weekly round as the page lists it, with `fields` changed. */
const weeklyRound = (fields: Record<string, unknown> = {}) => ({
  entity_id: 'gfg-weekly-233-rated-contest',
  name: 'GfG Weekly - 233 [Rated Contest]',
  start_time: '2026-12-13T19:00:00',
  total_time: '90',
  event_entity_url: 'https://practice.geeksforgeeks.org/contest/gfg-weekly-233-rated-contest',
  ...fields,
})
const upcomingRound = (fields: Record<string, unknown> = {}) =>
  weeklyWith({ upcomingEvent: { event_entity_details: weeklyRound(fields) }, pastEvents: [] })

/** The recorded page 1 without its weekly rounds: what the API lists when it leaves them out. */
const withoutWeekly = answer(page.results.upcoming.filter((e) => !/^gfg-weekly-/.test(e.slug)))

describe('parseGeeksforgeeksWeekly', () => {
  it('reads the upcoming round of the page, India time, its length from total_time minutes', () => {
    expect(parseGeeksforgeeksWeekly(weeklyPage, RECORDED_AT).contests).toEqual([
      {
        platform: 'geeksforgeeks',
        platformId: 'gfg-weekly-230-rated-contest',
        name: 'GfG Weekly - 230 [Rated Contest]',
        type: 'WEEKLY',
        startTime: Date.UTC(2026, 10, 22, 13, 30),
        endTime: Date.UTC(2026, 10, 22, 15, 0),
        websiteUrl: 'https://practice.geeksforgeeks.org/contest/gfg-weekly-230-rated-contest',
        platformMetadata: { rated: true },
      },
    ])
  })

  it('honours Z or an offset on start_time, and takes total_time as a number too', () => {
    const html = upcomingRound({ start_time: '2026-12-13T13:30:00Z', total_time: 120 })
    const [round] = parseGeeksforgeeksWeekly(html, RECORDED_AT).contests
    expect(round.startTime).toBe(Date.UTC(2026, 11, 13, 13, 30))
    expect(round.endTime).toBe(Date.UTC(2026, 11, 13, 15, 30))
  })

  it('reads a list of rounds, and a page announcing none as no contests', () => {
    const two = weeklyWith({
      upcomingEvent: {
        event_entity_details: [
          weeklyRound(),
          weeklyRound({
            name: 'GfG Weekly - 234 [Rated Contest]',
            start_time: '2026-12-20T19:00:00',
            event_entity_url: 'https://www.geeksforgeeks.org/contest/gfg-weekly-234-rated-contest/',
          }),
        ],
      },
    })
    expect(ids(parseGeeksforgeeksWeekly(two, RECORDED_AT))).toEqual([
      'gfg-weekly-233-rated-contest',
      'gfg-weekly-234-rated-contest',
    ])
    const none = weeklyWith({ upcomingEvent: null, pastEvents: [] })
    expect(parseGeeksforgeeksWeekly(none, RECORDED_AT)).toEqual(EMPTY_RESULT)
  })

  it('skips a round without a readable time or length, or whose link is no contest page', () => {
    const html = weeklyWith({
      upcomingEvent: {
        event_entity_details: [
          weeklyRound({ start_time: 'Sunday 7 PM' }),
          weeklyRound({ total_time: 'ninety' }),
          weeklyRound({ event_entity_url: 'https://www.geeksforgeeks.org/events/rec/x' }),
        ],
      },
    })
    const result = parseGeeksforgeeksWeekly(html, RECORDED_AT)
    expect(result.contests).toEqual([])
    expect(result.skipped).toBe(3)
    expect(result.errors[0]).toMatch(/^geeksforgeeks weekly round https:.*: start_time: /)
    expect(result.errors[1]).toMatch(/: total_time: /)
    expect(result.errors[2]).toMatch(/: event_entity_url: not a contest page$/)
  })

  it('throws a malformed error for a page that is not the weekly page it knows', async () => {
    const pages = [
      '<html><body>Just a moment...</body></html>',
      weeklyPage.replace(/"props":\{/, '"props":{,'),
      weeklyWith({ event: {} }),
      weeklyWith({ upcomingEvent: { id: 1 } }),
    ]
    for (const html of pages) {
      const error = await upstreamFailure(() => parseGeeksforgeeksWeekly(html, RECORDED_AT))
      expect(error.kind).toBe('malformed')
      expect(error.message).toMatch(/^geeksforgeeks: weekly page /)
    }
  })
})

describe('parseGeeksforgeeksAnswers', () => {
  it('keeps a weekly round only the weekly page lists', () => {
    const result = parseGeeksforgeeksAnswers([withoutWeekly], weeklyPage, RECORDED_AT)
    expect(ids(result)).toContain('gfg-weekly-230-rated-contest')
    expect(result.incomplete).toBeUndefined()
  })

  it('keeps a round both list once, as the events API gives it', () => {
    const result = parseGeeksforgeeksAnswers([page], weeklyPage, RECORDED_AT)
    expect(result).toEqual(parseGeeksforgeeks(page, RECORDED_AT))
  })

  it('reads every page in order, a contest two pages list once', () => {
    const result = parseGeeksforgeeksAnswers([page, page2], weeklyPage, RECORDED_AT)
    expect(ids(result)).toEqual([
      ...ids(parseGeeksforgeeks(page, RECORDED_AT)),
      'gfg-weekly-233-rated-contest',
      'gfg-weekly-234-rated-contest',
      'bi-wizard-school-coding-tournament-310',
    ])
    expect(result.errors).toHaveLength(1)
  })

  it('keeps the API contests of an unreadable or failed weekly page and says it is incomplete', () => {
    const api = parseGeeksforgeeks(page, RECORDED_AT)
    const refused = new UpstreamError('geeksforgeeks', 'status', 'HTTP 403: denied', 403)
    for (const [weekly, reason] of [
      ['<html><body>Just a moment...</body></html>', /no __NEXT_DATA__ script$/],
      [refused, /: HTTP 403: denied$/],
    ] as const) {
      const result = parseGeeksforgeeksAnswers([page], weekly, RECORDED_AT)
      expect(result.contests).toEqual(api.contests)
      expect(result.incomplete).toMatch(/^geeksforgeeks: weekly page \/events\/rec\/gfg-weekly-/)
      expect(result.incomplete).toMatch(reason)
    }
  })

  it('still throws when an events page is broken, whatever the weekly page says', async () => {
    const error = await upstreamFailure(() =>
      parseGeeksforgeeksAnswers([page, { results: {} }], weeklyPage, RECORDED_AT),
    )
    expect(error.kind).toBe('malformed')
  })
})

describe('weeklyPageBase', () => {
  it('asks www.geeksforgeeks.org beside the API host, any other base under itself', () => {
    expect(weeklyPageBase('https://practiceapi.geeksforgeeks.org')).toBe(
      'https://www.geeksforgeeks.org',
    )
    expect(weeklyPageBase('http://127.0.0.1:8787/geeksforgeeks-api')).toBe(
      'http://127.0.0.1:8787/geeksforgeeks-api',
    )
  })
})

describe('geeksforgeeks weekly page fixture route', () => {
  it('moves the naive times of its Next.js props forward and keeps them naive', () => {
    const route = geeksforgeeks.source!.fixtures.find((f) => f.path === WEEKLY_PAGE_PATH)!
    const shifted = route.shift(weeklyPage, WEEK_MS)
    expect(shifted).toContain('"start_time":"2026-11-29T19:00:00"')
    const later = parseGeeksforgeeksWeekly(shifted, RECORDED_AT + WEEK_MS)
    expect(later.contests).toEqual(
      movedBy(parseGeeksforgeeksWeekly(weeklyPage, RECORDED_AT).contests, WEEK_MS),
    )
  })
})

describe('fetchGeeksforgeeks', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchGeeksforgeeks(standInRequest('/geeksforgeeks'))
  const EVENTS = '/geeksforgeeks/api/vr/events/'
  const eventsPath = (n: number) => `${EVENTS}?type=contest&sub_type=all&page_number=${n}`
  const scriptPage = (n: number, body: unknown) =>
    standIn.script({
      method: 'GET',
      pathPrefix: EVENTS,
      query: { page_number: String(n) },
      responses: [{ status: 200, body, headers: { 'content-type': 'application/json' } }],
    })
  const serveWeekly = (html = weeklyPage, status = 200) =>
    standIn.script({
      method: 'GET',
      pathPrefix: `/geeksforgeeks${WEEKLY_PAGE_PATH}`,
      responses: [{ status, body: html, headers: { 'content-type': 'text/html' } }],
    })

  it('follows next_upcoming from page 1 to page 2 and asks the weekly page, naming the service', async () => {
    await scriptPage(1, page)
    await scriptPage(2, page2)
    await serveWeekly()
    const result = await fetchFromStandIn()
    expect(result).toEqual(parseGeeksforgeeksAnswers([page, page2], weeklyPage, RECORDED_AT))
    const events = await standIn.requests(EVENTS)
    expect(events).toHaveLength(2)
    expectSent(events[0], eventsPath(1), 'GET')
    expectSent(events[1], eventsPath(2), 'GET')
    const weekly = await expectOneRequest(
      '/geeksforgeeks/events/',
      `/geeksforgeeks${WEEKLY_PAGE_PATH}`,
      'GET',
    )
    expect(weekly.headers.accept).toContain('text/html')
  })

  it('asks the page a number or a link in next_upcoming names, and only pages ahead', async () => {
    await scriptPage(1, { ...page, next_upcoming: `${EVENTS}?page_number=3&type=contest` })
    await scriptPage(3, { results: { upcoming: [], past: [], next_upcoming: 2 } })
    await serveWeekly()
    await fetchFromStandIn()
    expect(await requestPaths(EVENTS)).toEqual([eventsPath(1), eventsPath(3)])
  })

  it(`stops after ${GEEKSFORGEEKS_MAX_PAGES} pages when next_upcoming never ends`, async () => {
    await scriptOk('GET', EVENTS, [{ results: { upcoming: [], past: [] }, next_upcoming: true }])
    await serveWeekly()
    await fetchFromStandIn()
    expect(await requestPaths(EVENTS)).toHaveLength(GEEKSFORGEEKS_MAX_PAGES)
  })

  it('keeps the events of a refused weekly page and marks the result incomplete', async () => {
    await scriptPage(1, { ...page, next_upcoming: false })
    await serveWeekly('<html>Access denied</html>', 403)
    const result = await fetchFromStandIn()
    expect(result.contests).toEqual(parseGeeksforgeeks(page, RECORDED_AT).contests)
    expect(result.incomplete).toMatch(/HTTP 403: <html>Access denied<\/html>$/)
  })

  it('throws a status error carrying the status of a non-2xx events answer', async () => {
    await serveWeekly()
    await expectStatusError(EVENTS, 'upstream busy', fetchFromStandIn, {
      'content-type': 'text/plain',
    })
  })

  it('throws a status error when page 2 fails: a partial list would look like cancellations', async () => {
    await scriptPage(1, page)
    await standIn.script({
      method: 'GET',
      pathPrefix: EVENTS,
      query: { page_number: '2' },
      responses: [{ status: 502, body: 'bad gateway' }],
    })
    await serveWeekly()
    const error = await upstreamFailure(fetchFromStandIn(), 'status')
    expect(error.status).toBe(502)
  })
})
