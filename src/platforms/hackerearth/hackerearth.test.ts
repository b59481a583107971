// HackerEarth's challenge feed: parsed from the recorded answer and fetched from the stand-in.
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
import { RECORDED_AT } from '../fixture-time.ts'
import events from './fixtures/events.json'
import timeForms from './fixtures/events-time-forms.json'
import { fetchHackerearth, hackerearth, hackerearthTime, parseHackerearth } from './index.ts'

/** A feed item like the recorded ones, with `fields` changed. */
const event = (fields: Record<string, unknown>) => ({ ...events.response[1], ...fields })

describe('parseHackerearth', () => {
  const parsed = () => parseHackerearth(events, RECORDED_AT)

  it('reads a contest from the feed with its slug, trimmed title and challenge page', () => {
    const contest = byId(parsed(), 'data-structures-and-algorithms-coding-contest-dec-26')
    expect(contest).toEqual({
      platform: 'hackerearth',
      platformId: 'data-structures-and-algorithms-coding-contest-dec-26',
      name: "Data Structures and Algorithms Coding Contest DEC '26",
      type: 'COMPETITIVE',
      startTime: Date.UTC(2026, 11, 2, 8, 30),
      endTime: Date.UTC(2026, 11, 2, 11, 30),
      websiteUrl:
        'https://www.hackerearth.com/challenges/competitive/data-structures-and-algorithms-coding-contest-dec-26/',
      platformMetadata: { challengeType: 'contest' },
    })
  })

  it('keeps the running and the upcoming contests in feed order', () => {
    expect(ids(parsed())).toEqual([
      'november-circuits-26',
      'data-structures-and-algorithms-coding-contest-dec-26',
      'december-easy-26',
      'december-circuits-26',
      'codemonk-graph-theory-part-i-26',
    ])
  })

  it('lands start_utc_tz on the same instant as the India time of start_tz', () => {
    const [running] = parsed().contests
    expect(running.startTime).toBe(Date.parse('2026-11-20T21:00:00+05:30'))
    expect(running.endTime).toBe(Date.parse('2026-11-29T21:00:00+05:30'))
  })

  it('honours an offset other than +00:00 in the feed times', () => {
    const payload = {
      response: [
        event({
          start_utc_tz: '2026-12-02 14:00:00+05:30',
          end_utc_tz: '2026-12-02 17:00:00+05:30',
        }),
      ],
    }
    const [contest] = parseHackerearth(payload, RECORDED_AT).contests
    expect(contest.startTime).toBe(Date.UTC(2026, 11, 2, 8, 30))
    expect(contest.endTime).toBe(Date.UTC(2026, 11, 2, 11, 30))
  })

  it('leaves out finished challenges without counting them as skipped or unsupported', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('october-circuits-26')
    const ended = parseHackerearth({ response: [events.response[7]] }, RECORDED_AT)
    expect(ended).toEqual(EMPTY_RESULT)
  })

  it('counts hiring challenges and hackathons as unsupported', () => {
    const result = parsed()
    expect(result.unsupported).toBe(2)
    expect(ids(result)).not.toContain('acme-cloud-sde-hiring-challenge-2026')
    expect(ids(result)).not.toContain('greengrid-climate-hackathon-2026')
  })

  it('drops a challenge under /hiring/ even when its type says contest', () => {
    const url = 'https://www.hackerearth.com/challenges/hiring/acme-backend-hiring-challenge/'
    const result = parseHackerearth({ response: [event({ url })] }, RECORDED_AT)
    expect(result).toMatchObject({ contests: [], unsupported: 1, skipped: 0 })
  })

  it('reads an item that has start_timestamp but no start_utc_tz, skipping none', () => {
    const result = parsed()
    expect(result.skipped).toBe(0)
    expect(result.errors).toEqual([])
    const codemonk = byId(result, 'codemonk-graph-theory-part-i-26')
    expect(codemonk.startTime).toBe(Date.UTC(2026, 10, 28, 15, 30))
    expect(codemonk.endTime).toBe(Date.UTC(2026, 10, 28, 18, 30))
  })

  it('skips items whose times are unreadable, reversed, or whose url is no challenge page', () => {
    const payload = {
      response: [
        event({ start_utc_tz: 'Dec 2, 2026 08:30 UTC', start_timestamp: null, start_tz: null }),
        event({ end_utc_tz: '2026-12-02 08:00:00+00:00' }),
        event({ url: 'https://www.hackerearth.com/practice/' }),
      ],
    }
    const result = parseHackerearth(payload, RECORDED_AT)
    expect(result.contests).toEqual([])
    expect(result.skipped).toBe(3)
    expect(result.errors[0]).toMatch(
      /: start_utc_tz: not an ISO 8601 time with an offset \(start_utc_tz "Dec 2, 2026 08:30 UTC"\)$/,
    )
    expect(result.errors[1]).toMatch(/: end_utc_tz: not after start_utc_tz$/)
    expect(result.errors[2]).toMatch(
      /^hackerearth event https:\/\/www\.hackerearth\.com\/practice\/: url: /,
    )
  })

  it('throws a malformed error when the answer has no response list', async () => {
    for (const payload of [{}, { response: null }, { detail: 'Not found.' }, []]) {
      const error = await upstreamFailure(() => parseHackerearth(payload, RECORDED_AT))
      expect(error.kind).toBe('malformed')
      expect(error.platform).toBe('hackerearth')
    }
  })

  it('parses an empty response list to no contests without throwing', () => {
    expect(parseHackerearth({ response: [] }, RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('hackerearth times', () => {
  const parsed = () => parseHackerearth(timeForms, RECORDED_AT)
  const startOf = (slug: string) => byId(parsed(), slug).startTime
  const at = (day: number) => Date.UTC(2026, 11, day, 14, 30)

  it('reads every ISO 8601 form of start_utc_tz: T and Z, fractions, offsets without a colon, basic', () => {
    expect(startOf('dsa-sprint-dec-09-26')).toBe(at(9))
    expect(startOf('dsa-sprint-dec-10-26')).toBe(at(10))
    expect(startOf('dsa-sprint-dec-15-26')).toBe(at(15))
    expect(byId(parsed(), 'dsa-sprint-dec-15-26').endTime).toBe(Date.UTC(2026, 11, 15, 17, 30))
  })

  it('falls back to start_timestamp, then to the India time of start_tz', () => {
    expect(startOf('dsa-sprint-dec-11-26')).toBe(at(11))
    expect(startOf('dsa-sprint-dec-12-26')).toBe(at(12))
    expect(byId(parsed(), 'dsa-sprint-dec-12-26').endTime).toBe(Date.UTC(2026, 11, 12, 17, 30))
  })

  it('reads a start_timestamp of epoch seconds, as a number or a string of digits', () => {
    const contest = byId(parsed(), 'dsa-sprint-dec-13-26')
    expect([contest.startTime, contest.endTime]).toEqual([at(13), Date.UTC(2026, 11, 13, 17, 30)])
    const millis = event({
      start_utc_tz: null,
      end_utc_tz: null,
      start_timestamp: at(2),
      end_timestamp: String(at(3)),
    })
    expect(parseHackerearth({ response: [millis] }, RECORDED_AT).contests[0].startTime).toBe(at(2))
  })

  it('reads a start_utc_tz without an offset as UTC, as its name says', () => {
    expect(startOf('dsa-sprint-dec-14-26')).toBe(at(14))
  })

  it('skips an item no field of which holds a time, or whose India time has no offset', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('dsa-sprint-dec-16-26')
    expect(ids(result)).not.toContain('dsa-sprint-dec-17-26')
    expect(result.skipped).toBe(2)
    expect(result.errors).toEqual([
      expect.stringMatching(
        /dsa-sprint-dec-16-26\/: start_utc_tz: not an ISO 8601 time with an offset \(start_utc_tz "TBA", start_timestamp "TBA", start_tz "TBA"\)$/,
      ),
      expect.stringMatching(
        /dsa-sprint-dec-17-26\/: start_tz: not an ISO 8601 time with an offset/,
      ),
    ])
    const bare = event({ start_utc_tz: undefined, start_timestamp: undefined, start_tz: undefined })
    expect(parseHackerearth({ response: [bare] }, RECORDED_AT).errors[0]).toMatch(
      /: start_utc_tz, start_timestamp, start_tz: none of them given$/,
    )
  })

  it('refuses days, hours and offsets that do not exist', () => {
    expect(hackerearthTime('2026-11-31 10:00:00+00:00')).toBeUndefined()
    expect(hackerearthTime('2026-13-01 10:00:00+00:00')).toBeUndefined()
    expect(hackerearthTime('2026-11-30 24:00:00+00:00')).toBeUndefined()
    expect(hackerearthTime('2026-11-30 10:00:00 UTC')).toBeUndefined()
    expect(hackerearthTime('2026-11-30')).toBeUndefined()
    expect(hackerearthTime('2026-11-30 10:00:00')).toBeUndefined()
    expect(hackerearthTime('2026-11-30 10:00:00', true)).toBe(Date.UTC(2026, 10, 30, 10))
    expect(hackerearthTime('2026-11-30t10:00z')).toBe(Date.UTC(2026, 10, 30, 10))
    expect(hackerearthTime('2026-11-30T10:00:00,5-03')).toBe(Date.UTC(2026, 10, 30, 13, 0, 0, 500))
  })
})

describe('hackerearth fixture route', () => {
  const parsed = () => parseHackerearth(events, RECORDED_AT)

  it('moves every time of the feed, keeping its space-separated format', () => {
    const shifted = shiftedJson(hackerearth.source!.fixtures[0], events, WEEK_MS)
    expect(shifted.response[0].start_utc_tz).toBe('2026-11-27 15:30:00+00:00')
    expect(shifted.response[0].start_tz).toBe('2026-11-27 21:00:00+05:30')
    expect(shifted.response[6].start_timestamp).toBe('2026-12-05 15:30:00+00:00')
    const later = parseHackerearth(shifted, RECORDED_AT + WEEK_MS)
    expect(later.contests).toEqual(movedBy(parsed().contests, WEEK_MS))
  })
})

describe('hackerearth clist mapping', () => {
  const contest = (href: string) =>
    hackerearth.clist?.contest(clistEntry(href, 'December Circuits'))

  it('gives a challenge page the platformId and type the parser gives it', () => {
    const parsed = byId(parseHackerearth(events, RECORDED_AT), 'december-circuits-26')
    expect(contest(parsed.websiteUrl!)).toEqual(idAndType(parsed))
    expect(
      contest('https://www.hackerearth.com/challenges/competitive/december-circuits-26'),
    ).toEqual({ platformId: 'december-circuits-26', type: 'COMPETITIVE' })
  })

  it('maps hackathons, hiring challenges and other pages to nothing', () => {
    expect(
      contest('https://www.hackerearth.com/challenges/hackathon/greengrid-2026/'),
    ).toBeUndefined()
    expect(contest('https://www.hackerearth.com/challenges/hiring/acme-sde-2026/')).toBeUndefined()
    expect(contest('https://trai.hackerearth.com/')).toBeUndefined()
    expect(contest('https://www.hackerearth.com/problem/algorithm/xor-sum/')).toBeUndefined()
  })
})

describe('fetchHackerearth', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchHackerearth(standInRequest('/hackerearth'))

  it('gets the events feed once, naming the service, and parses it', async () => {
    await scriptOk('GET', '/hackerearth/chrome-extension/events', [events], 'application/json')
    const result = await fetchFromStandIn()
    expect(result).toEqual(parseHackerearth(events, RECORDED_AT))
    await expectOneRequest('/hackerearth/', '/hackerearth/chrome-extension/events/', 'GET')
  })

  it('throws a blocked status error for a 403 of bot protection or a 429', async () => {
    for (const status of [403, 429]) {
      await standIn.reset()
      await standIn.script({
        pathPrefix: '/hackerearth/chrome-extension/events',
        responses: [{ status, body: '<html>Access denied</html>' }],
      })
      const error = await upstreamFailure(fetchFromStandIn(), 'status')
      expect(error.status).toBe(status)
      expect(error.blocked).toBe(true)
    }
  })

  it('throws a status error carrying the status of a non-2xx answer', async () => {
    await expectStatusError(
      '/hackerearth/chrome-extension/events',
      'Service Unavailable',
      fetchFromStandIn,
      { 'content-type': 'text/plain' },
    )
  })
})
