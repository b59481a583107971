// The HackerRank source: the recorded answers of its four lists parsed, and fetched from the
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
  requestPaths,
  scriptOk,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { servePlatform } from '../../../test/helpers/platforms.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import competitions from './fixtures/competitions.json'
import college from './fixtures/contests-college.json'
import upcoming from './fixtures/contests-upcoming.json'
import events from './fixtures/engage-events.json'
import {
  COMPETITION_PAGES,
  fetchHackerrank,
  hackerrank,
  parseHackerrank,
  parseHackerrankAnswers,
} from './index.ts'

const LIST = '/hackerrank/rest/contests/upcoming'
const COLLEGE = '/hackerrank/rest/contests/college'
const EVENTS = '/hackerrank/community/engage/events'
const COMPETITIONS = '/hackerrank/api/hrw/resources/competitions'

const recorded = { upcoming, college, events, competitions: [competitions] }
const parsedAll = () => parseHackerrankAnswers(recorded, RECORDED_AT)

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

describe('hackerrank fixture routes', () => {
  it("move every list's times by the shift, so a later replay lists the same contests", () => {
    const [upcomingRoute, collegeRoute, eventsRoute, competitionsRoute] =
      hackerrank.source!.fixtures
    const later = parseHackerrankAnswers(
      {
        upcoming: shiftedJson(upcomingRoute, upcoming, WEEK_MS),
        college: shiftedJson(collegeRoute, college, WEEK_MS),
        events: shiftedJson(eventsRoute, events, WEEK_MS),
        competitions: [shiftedJson(competitionsRoute, competitions, WEEK_MS)],
      },
      RECORDED_AT + WEEK_MS,
    )
    expect(ids(later)).toEqual(ids(parsedAll()))
    expect(byId(later, 'events/301').startTime).toBe(
      byId(parsedAll(), 'events/301').startTime + WEEK_MS,
    )
  })
})

describe('parseHackerrankAnswers', () => {
  it('keeps the running and upcoming contests of the four lists, each once', () => {
    expect(ids(parsedAll())).toEqual([
      'hack-the-interview-viii-us',
      'infinitum26',
      'w44',
      'university-codesprint-6',
      'holiday-cup-2026',
      'shaastra-2026-programming',
      'college-cup-2026',
      'competitions/ai-hackathon-2026',
      'events/301',
    ])
  })

  it("keeps the first list's copy of a contest listed twice", () => {
    const result = parsedAll()
    expect(byId(result, 'university-codesprint-6')).toEqual(
      byId(parseHackerrank(upcoming, RECORDED_AT), 'university-codesprint-6'),
    )
    // Engage lists Hack the Interview by its contest page: the same contest, not a second one.
    expect(byId(result, 'hack-the-interview-viii-us').platformMetadata).toEqual({
      contestId: 1869,
      rated: false,
    })
  })

  it('reads a college contest as a contest of its own', () => {
    expect(byId(parsedAll(), 'shaastra-2026-programming')).toEqual({
      platform: 'hackerrank',
      platformId: 'shaastra-2026-programming',
      name: 'Shaastra Programming Contest 2026',
      type: 'OTHER',
      startTime: Date.UTC(2026, 10, 28, 10, 30),
      endTime: Date.UTC(2026, 10, 28, 13, 30),
      websiteUrl: 'https://www.hackerrank.com/contests/shaastra-2026-programming',
      platformMetadata: { contestId: 1881, rated: false },
    })
  })

  it('reads a competition with its ISO times and its page, keyed apart from the contests', () => {
    expect(byId(parsedAll(), 'competitions/ai-hackathon-2026')).toEqual({
      platform: 'hackerrank',
      platformId: 'competitions/ai-hackathon-2026',
      name: 'HackerRank AI Hackathon 2026',
      type: 'OTHER',
      startTime: Date.UTC(2026, 11, 5),
      endTime: Date.UTC(2026, 11, 12),
      websiteUrl: 'https://www.hackerrank.com/competitions/ai-hackathon-2026',
      platformMetadata: { competitionId: '1042' },
    })
  })

  it('reads an Engage event with its page, keyed by the event when the page is no contest', () => {
    expect(byId(parsedAll(), 'events/301')).toEqual({
      platform: 'hackerrank',
      platformId: 'events/301',
      name: 'Goldman Sachs Hiring Challenge 2026',
      type: 'OTHER',
      startTime: Date.UTC(2026, 10, 29, 9),
      endTime: Date.UTC(2026, 10, 29, 12),
      websiteUrl: 'https://www.hackerrank.com/event/gs-hiring-challenge-2026',
      platformMetadata: { eventId: '301' },
    })
  })

  it('skips an event without a zone in its times, and counts off-site events and open boards', () => {
    const result = parsedAll()
    expect(result.errors).toEqual([
      expect.stringMatching(/^hackerrank contest #1: slug: /),
      expect.stringMatching(/^hackerrank event 304: attributes\.start_time: not ISO 8601/),
    ])
    expect(result.skipped).toBe(2)
    // ProjectEuler+, the competition without an end, the event on a company's own site.
    expect(result.unsupported).toBe(3)
  })

  it('throws malformed, naming the list, when a list has lost its envelope', async () => {
    const cases = [
      [{ ...recorded, college: { error: 'Not found' } }, 'contests/college'],
      [{ ...recorded, events: { data: { events: {} } } }, 'engage events'],
      [{ ...recorded, competitions: [{ errors: [] }] }, 'competitions'],
    ] as const
    for (const [answers, list] of cases) {
      const error = await upstreamFailure(
        () => parseHackerrankAnswers(answers, RECORDED_AT),
        'malformed',
      )
      expect(error.message).toContain(list)
    }
  })
})

describe('fetchHackerrank', () => {
  const request = () => standInRequest('/hackerrank')

  it('asks each of the four lists once, names the service, and parses them together', async () => {
    await servePlatform('hackerrank')
    expect(await fetchHackerrank(request())).toEqual(parsedAll())
    expect((await requestPaths('/hackerrank/')).sort()).toEqual([
      `${COMPETITIONS}?filter[status]=published`,
      EVENTS,
      `${COLLEGE}?limit=100`,
      `${LIST}?limit=100`,
    ])
    await expectOneRequest(LIST, `${LIST}?limit=100`, 'GET')
  })

  it("follows the competitions' links.next, at most three pages", async () => {
    await servePlatform('hackerrank')
    const next = `https://www.hackerrank.com/api/hrw/resources/competitions?filter%5Bstatus%5D=published&page%5Boffset%5D=20`
    await scriptOk('GET', COMPETITIONS, [{ ...competitions, links: { next } }])
    const result = await fetchHackerrank(request())
    expect(ids(result)).toContain('competitions/ai-hackathon-2026')
    const asked = (await requestPaths(COMPETITIONS)).length
    expect(asked).toBe(COMPETITION_PAGES)
  })

  it('fails the whole fetch, naming the list, when a second list fails', async () => {
    await servePlatform('hackerrank')
    const error = await expectStatusError(COLLEGE, '<html>Service Unavailable</html>', () =>
      fetchHackerrank(request()),
    )
    expect(error.message).toMatch(/^hackerrank: contests\/college: HTTP 503/)
  })

  it('keeps a 403 of a second list a block, so the sync waits and asks clist.by', async () => {
    await servePlatform('hackerrank')
    await standIn.script({ pathPrefix: EVENTS, responses: [{ status: 403, body: 'Forbidden' }] })
    const error = await upstreamFailure(fetchHackerrank(request()), 'status')
    expect(error.blocked).toBe(true)
    expect(error.message).toContain('engage events')
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await servePlatform('hackerrank')
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

  it('gives a competition the id the parser gives it', () => {
    const own = byId(parsedAll(), 'competitions/ai-hackathon-2026')
    expect(hackerrank.clist!.contest(week(own.websiteUrl!))).toEqual(idAndType(own))
  })

  it('leaves out practice boards and links that are not a contest page', () => {
    const euler = entry(
      'https://hackerrank.com/contests/projecteuler',
      Date.UTC(2014, 6, 7, 15, 38),
      Date.UTC(2034, 11, 31, 23, 59),
    )
    expect(hackerrank.clist!.contest(euler)).toBeUndefined()
    for (const href of [
      'https://www.hackerrank.com/contests',
      'https://www.hackerrank.com/challenges/solve-me-first',
    ]) {
      expect(hackerrank.clist!.contest(week(href))).toBeUndefined()
    }
  })
})
