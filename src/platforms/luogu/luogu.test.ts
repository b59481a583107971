// Luogu's contest list: parsed from the recorded pages and fetched, page by page, from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  EMPTY_RESULT,
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
import { RECORDED_AT } from '../fixture-time.ts'
import page1 from './fixtures/contest-list-page-1.json'
import page2 from './fixtures/contest-list-page-2.json'
import { fetchLuogu, LUOGU_MAX_PAGES, luogu, parseLuogu } from './index.ts'

const items = page1.currentData.contests.result
const item = (id: number) => items.find((c) => c.id === id)!

/** A page of the list holding `result`, like the recorded ones otherwise. */
const listPage = (result: unknown, fields: Record<string, unknown> = {}) => ({
  ...page1,
  currentData: { contests: { ...page1.currentData.contests, result, ...fields } },
})

describe('parseLuogu', () => {
  const parsed = () => parseLuogu(page1, RECORDED_AT)

  it('reads a contest with its trimmed name, times in milliseconds and contest page', () => {
    expect(byId(parsed(), '301489')).toEqual({
      platform: 'luogu',
      platformId: '301489',
      name: '【LGR-255】洛谷 11 月月赛 II & ZROI Round 3',
      type: 'OI',
      startTime: Date.parse('2026-11-29T14:30:00+08:00'),
      endTime: Date.parse('2026-11-29T18:30:00+08:00'),
      websiteUrl: 'https://www.luogu.com.cn/contest/301489',
      platformMetadata: { ruleType: 1, visibilityType: 1, rated: true, host: '洛谷官方' },
    })
  })

  it('keeps the running and upcoming contests in list order, a long one among finished ones', () => {
    expect(ids(parsed())).toEqual([
      '301533',
      '301518',
      '301502',
      '301489',
      '301470',
      '301461',
      '301440',
      '301200',
    ])
  })

  it('maps ruleType 1 to 5 to OI, ICPC, LeDuo, IOI and Codeforces-style', () => {
    const typeOf = (id: string) => byId(parsed(), id).type
    expect(['301489', '301502', '301470', '301518', '301461'].map(typeOf)).toEqual([
      'OI',
      'ICPC',
      'LEDUO',
      'IOI',
      'CF',
    ])
  })

  it('lands the unix seconds on the Beijing time the contest is announced for', () => {
    const running = byId(parsed(), '301440')
    // 19:30 to 23:00 in Beijing (UTC+8) is 11:30 to 15:00 UTC, so it runs at 12:00 UTC.
    expect(running.startTime).toBe(Date.UTC(2026, 10, 22, 11, 30))
    expect(running.endTime).toBe(Date.UTC(2026, 10, 22, 15, 0))
  })

  it('leaves out finished contests without counting them as skipped or unsupported', () => {
    const result = parseLuogu(page2, RECORDED_AT)
    expect(result).toEqual(EMPTY_RESULT)
    expect(ids(parsed())).not.toContain('301431')
  })

  it('counts a contest of a rule it does not know as unsupported, unless it has ended', () => {
    expect(parsed().unsupported).toBe(1)
    expect(ids(parsed())).not.toContain('301450')
    const finished = { ...item(301431), ruleType: 6 }
    expect(parseLuogu(listPage([finished]), RECORDED_AT).unsupported).toBe(0)
  })

  it('skips a contest without a start time and one that ends before it starts, saying why', () => {
    const result = parsed()
    expect(result.skipped).toBe(2)
    expect(result.errors).toHaveLength(2)
    expect(result.errors[0]).toMatch(/^luogu contest 301455: startTime: /)
    expect(result.errors[1]).toBe('luogu contest 301446: endTime: not after startTime')
  })

  it('throws malformed when the answer has no contest list', async () => {
    for (const payload of [
      null,
      { code: 200, currentData: {} },
      { code: 200, currentData: { contests: { count: 0, perPage: 20 } } },
      { code: 403, currentTemplate: 'AuthLogin', currentData: { errorMessage: '请先登录' } },
    ]) {
      const error = await upstreamFailure(() => parseLuogu(payload, RECORDED_AT))
      expect(error.kind).toBe('malformed')
    }
  })

  it('reads an empty list as no contests', () => {
    const result = parseLuogu(listPage([], { count: 0 }), RECORDED_AT)
    expect(result).toEqual(EMPTY_RESULT)
  })

  it('reads a list sent as an object keyed by index like one sent as an array', () => {
    const byIndex = Object.fromEntries(items.map((c, i) => [String(i), c]))
    expect(parseLuogu(listPage(byIndex), RECORDED_AT)).toEqual(parsed())
  })

  it('has fixture routes whose shift moves every contest by the same whole weeks', () => {
    const [route1] = luogu.source!.fixtures
    const shifted = parseLuogu(shiftedJson(route1, page1, WEEK_MS), RECORDED_AT + WEEK_MS)
    expect(shifted.contests).toEqual(movedBy(parsed().contests, WEEK_MS))
  })
})

describe('fetchLuogu', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchLuogu(standInRequest('/luogu'))
  const script = (...bodies: unknown[]) => scriptOk('GET', '/luogu/contest/list', bodies)
  const paths = () => requestPaths('/luogu/')

  it('asks for content-only JSON with a browser-shaped User-Agent naming the service', async () => {
    await script(page1, page2)
    await fetchFromStandIn()
    const [first] = await standIn.requests('/luogu/')
    expect(first.method).toBe('GET')
    expect(first.path).toBe('/luogu/contest/list?page=1&_contentOnly=1')
    expect(first.headers['x-luogu-type']).toBe('content-only')
    expect(first.headers['user-agent']).toMatch(
      /^Mozilla\/5\.0 \(compatible; ContestAlertService\//,
    )
  })

  it('reads the next page while a page still holds open contests, then stops', async () => {
    await script(page1, page2)
    const result = await fetchFromStandIn()
    expect(await paths()).toEqual([
      '/luogu/contest/list?page=1&_contentOnly=1',
      '/luogu/contest/list?page=2&_contentOnly=1',
    ])
    expect(result).toEqual(parseLuogu(page1, RECORDED_AT))
  })

  it('stops at the last page even when it holds open contests', async () => {
    const upcoming = items.slice(0, 3)
    await script(listPage(upcoming, { count: upcoming.length }))
    const result = await fetchFromStandIn()
    expect(await paths()).toHaveLength(1)
    expect(ids(result)).toEqual(['301533', '301518', '301502'])
  })

  it(`reads no more than ${LUOGU_MAX_PAGES} pages of a list that never seems to end`, async () => {
    await script(page1) // the same open page, again and again
    const result = await fetchFromStandIn()
    expect(await paths()).toHaveLength(LUOGU_MAX_PAGES)
    expect((await paths()).at(-1)).toBe(
      `/luogu/contest/list?page=${LUOGU_MAX_PAGES}&_contentOnly=1`,
    )
    // A contest listed on two pages (the list moved between requests) is kept once.
    expect(ids(result)).toEqual(ids(parseLuogu(page1, RECORDED_AT)))
  })

  it('throws a status error carrying the HTTP status of a non-2xx answer', async () => {
    await expectStatusError('/luogu/contest/list', '<html>维护中</html>', fetchFromStandIn)
  })

  it('throws malformed when the content-only switch is ignored and a page comes back', async () => {
    await script('<!DOCTYPE html><html><body>比赛列表</body></html>')
    const error = await upstreamFailure(fetchFromStandIn)
    expect(error.kind).toBe('malformed')
  })
})

describe('luogu on clist', () => {
  const fromClist = (href: string, event = '【LGR-255】洛谷 11 月月赛 II & ZROI Round 3') =>
    luogu.clist!.contest(clistEntry(href, event))

  it('takes the contest id from the link, as the own source stores it', () => {
    const own = byId(parseLuogu(page1, RECORDED_AT), '301489')
    expect(fromClist('https://www.luogu.com.cn/contest/301489')).toEqual(idAndType(own))
  })

  it('guesses ICPC and LeDuo from the name, since clist does not carry the rule', () => {
    expect(fromClist('https://www.luogu.com.cn/contest/301502', item(301502).name)?.type).toBe(
      'ICPC',
    )
    expect(fromClist('https://www.luogu.com.cn/contest/301470', item(301470).name)?.type).toBe(
      'LEDUO',
    )
  })

  it('passes over links that are not a Luogu contest page', () => {
    expect(fromClist('https://www.luogu.com.cn/contest/list')).toBeUndefined()
    expect(fromClist('https://www.luogu.com.cn/problem/P1001')).toBeUndefined()
    expect(fromClist('https://codeforces.com/contest/301489')).toBeUndefined()
  })
})
