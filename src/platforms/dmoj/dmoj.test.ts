// The DMOJ source: the recorded pages of /contests parsed, and fetched page by page from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
  idAndType,
  ids,
  requestPaths,
  scriptOk,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import page1 from './fixtures/contests-page-1.json'
import page2 from './fixtures/contests-page-2.json'
import { DMOJ_MAX_PAGES, dmoj, fetchDmoj, parseDmoj } from './index.ts'

const JSON_TYPE = 'application/json'

beforeEach(() => standIn.reset())

const parsed = () => parseDmoj([page1, page2], RECORDED_AT)

/** A page answer holding `objects`, with page counts as DMOJ writes them. */
function pageOf(objects: unknown[], extra: Record<string, unknown> = {}) {
  return {
    api_version: '2.0',
    method: 'get',
    fetched: '2026-11-22T12:00:00.000000+00:00',
    data: {
      current_object_count: objects.length,
      objects_per_page: 1000,
      page_index: 1,
      has_more: false,
      objects,
      total_objects: objects.length,
      total_pages: 1,
      ...extra,
    },
  }
}

const upcoming = page2.data.objects[4]

describe('parseDmoj', () => {
  it('reads a rated window contest with its page, time limit and tags', () => {
    expect(byId(parsed(), 'dmopc26c3')).toEqual({
      platform: 'dmoj',
      platformId: 'dmopc26c3',
      name: "DMOPC '26 November Contest",
      type: 'RATED',
      startTime: Date.UTC(2026, 10, 20, 23, 0),
      endTime: Date.UTC(2026, 10, 23, 4, 0),
      websiteUrl: 'https://dmoj.ca/contest/dmopc26c3',
      platformMetadata: { timeLimitSeconds: 10800, tags: ['dmopc'], rateAll: false },
    })
  })

  it('keeps a null time limit for a contest that is not windowed, and trims the name', () => {
    const mock = byId(parsed(), 'mockccc27')
    expect(mock.name).toBe("Mock CCC '27")
    expect(mock.platformMetadata).toEqual({
      timeLimitSeconds: null,
      tags: ['mock'],
      rateAll: false,
    })
  })

  it('reads UTC times and times with another offset on the right instant', () => {
    expect(byId(parsed(), 'mockccc27').startTime).toBe(Date.UTC(2026, 10, 29, 17, 0))
    // A DMOJ site configured for Toronto would write its local offset.
    const toronto = parseDmoj(
      [
        pageOf([
          {
            ...upcoming,
            start_time: '2026-12-11T18:00:00-05:00',
            end_time: '2026-12-13T23:00:00.250000-05:00',
          },
        ]),
      ],
      RECORDED_AT,
    ).contests[0]
    expect(toronto.startTime).toBe(Date.UTC(2026, 11, 11, 23, 0))
    expect(toronto.endTime).toBe(Date.UTC(2026, 11, 14, 4, 0, 0, 250))
  })

  it('keeps the running and upcoming contests of every page and drops the ended ones', () => {
    const result = parsed()
    expect(ids(result)).toEqual(['dmopc26c3', 'mockccc27', 'ucc26', 'dmopc26c4'])
    // Five contests have ended: they are neither skipped nor unsupported, only left out.
    expect(result.skipped).toBe(1)
    expect(result.unsupported).toBe(0)
  })

  it('types a contest RATED or UNRATED from is_rated', () => {
    const types = Object.fromEntries(parsed().contests.map((c) => [c.platformId, c.type]))
    expect(types).toEqual({
      dmopc26c3: 'RATED',
      mockccc27: 'UNRATED',
      ucc26: 'RATED',
      dmopc26c4: 'RATED',
    })
  })

  it('keeps every well-formed contest: nothing on the list counts as unsupported', () => {
    const result = parseDmoj([pageOf([{ ...upcoming, is_rated: false, tags: [] }])], RECORDED_AT)
    expect(result.contests).toHaveLength(1)
    expect(result.unsupported).toBe(0)
  })

  it('skips a contest without a start time and says why', () => {
    const result = parsed()
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^dmoj contest ecoo19f: start_time/)
  })

  it('skips a contest that ends before it starts, or has no usable key', () => {
    const result = parseDmoj(
      [
        pageOf([
          { ...upcoming, end_time: upcoming.start_time },
          { ...upcoming, key: '../admin' },
        ]),
      ],
      RECORDED_AT,
    )
    expect(result.contests).toEqual([])
    expect(result.skipped).toBe(2)
    expect(result.errors[0]).toBe('dmoj contest dmopc26c4: end_time is not after start_time')
  })

  it('keeps a contest listed on two pages once (the list moved between requests)', () => {
    const result = parseDmoj([page2, page2], RECORDED_AT)
    expect(ids(result)).toEqual(['dmopc26c3', 'mockccc27', 'ucc26', 'dmopc26c4'])
  })

  it('throws malformed when a page has no objects list', async () => {
    const broken = [
      { api_version: '2.0', method: 'get', error: { code: 404, message: 'page/object not found' } },
      { data: { total_pages: 2 } },
      [],
      null,
    ]
    for (const page of broken) {
      await upstreamFailure(() => parseDmoj([page1, page], RECORDED_AT), 'malformed')
    }
  })

  it('parses an empty list to no contests without throwing', () => {
    expect(parseDmoj([pageOf([])], RECORDED_AT)).toEqual(EMPTY_RESULT)
  })
})

describe('DMOJ fixture routes', () => {
  it('answer pages 1 and 2 in order, and move every time by the shift', () => {
    const routes = dmoj.source!.fixtures
    expect(routes.map((r) => [r.path, r.file])).toEqual([
      ['/contests?page=1', 'fixtures/contests-page-1.json'],
      ['/contests?page=2', 'fixtures/contests-page-2.json'],
    ])
    const shifted = [page1, page2].map((page, i) => shiftedJson(routes[i], page, WEEK_MS))
    expect(shifted[1].data.objects[4].start_time).toBe('2026-12-18T23:00:00+00:00')
    const later = parseDmoj(shifted, RECORDED_AT + WEEK_MS)
    expect(ids(later)).toEqual(ids(parsed()))
  })
})

describe('fetchDmoj', () => {
  const request = () => standInRequest('/dmoj')
  const paths = () => requestPaths('/dmoj/')

  it('reads page 1 then page 2, the last, naming the service', async () => {
    await scriptOk('GET', '/dmoj/contests', [page1, page2], JSON_TYPE)
    const result = await fetchDmoj(request())
    expect(result).toEqual(parsed())

    const requests = await standIn.requests('/dmoj/')
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/dmoj/contests?page=1'],
      ['GET', '/dmoj/contests?page=2'],
    ])
    for (const r of requests) expect(r.headers['user-agent']).toContain('ContestAlertService')
  })

  it(`stops at ${DMOJ_MAX_PAGES} pages however many total_pages claims`, async () => {
    const endless = { ...page1, data: { ...page1.data, total_pages: 25, total_objects: 125 } }
    await scriptOk('GET', '/dmoj/contests', [endless], JSON_TYPE)
    const result = await fetchDmoj(request())
    expect(result.contests).toEqual([])
    const sent = await paths()
    expect(sent).toHaveLength(DMOJ_MAX_PAGES)
    expect(sent.at(-1)).toBe(`/dmoj/contests?page=${DMOJ_MAX_PAGES}`)
  })

  it('follows has_more when the answer carries no total_pages', async () => {
    const { total_pages: _1, total_objects: _2, ...first } = page1.data
    const { total_pages: _3, total_objects: _4, ...last } = page2.data
    const pages = [{ ...page1, data: first }, { ...page2, data: last }, page2]
    await scriptOk('GET', '/dmoj/contests', pages, JSON_TYPE)
    const result = await fetchDmoj(request())
    expect(result.contests).toHaveLength(4)
    expect(await paths()).toEqual(['/dmoj/contests?page=1', '/dmoj/contests?page=2'])
  })

  it('fails as a whole, with the status, when a later page answers non-2xx', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/dmoj/contests',
      responses: [
        { status: 200, body: page1, headers: { 'content-type': JSON_TYPE } },
        {
          status: 503,
          body: { api_version: '2.0', method: 'get', error: { code: 503, message: 'down' } },
        },
      ],
    })
    const error = await upstreamFailure(fetchDmoj(request()), 'status')
    expect(error.status).toBe(503)
    expect(await paths()).toEqual(['/dmoj/contests?page=1', '/dmoj/contests?page=2'])
  })
})

describe('DMOJ clist mapping', () => {
  const entry = (href: string, event: string) =>
    clistEntry(href, event, {
      startTime: Date.UTC(2026, 10, 20, 23, 0),
      endTime: Date.UTC(2026, 10, 23, 4, 0),
    })

  it('maps a contest page to the key and type the parser gives the same contest', () => {
    for (const key of ['dmopc26c3', 'mockccc27']) {
      const own = byId(parsed(), key)
      // clist appends ". Rated" to the names of rated DMOJ contests.
      const event = own.type === 'RATED' ? `${own.name}. Rated` : own.name
      expect(dmoj.clist!.contest(entry(`https://dmoj.ca/contest/${key}`, event))).toEqual(
        idAndType(own),
      )
    }
  })

  it('ignores links that are not a contest page', () => {
    expect(dmoj.clist!.contest(entry('https://dmoj.ca/problem/helloworld', 'x'))).toBe(undefined)
    expect(dmoj.clist!.contest(entry('https://dmoj.ca/contests/', 'x'))).toBe(undefined)
  })
})
