// Luogu's contest list: parsed from the recorded pages (Lentille's envelope, the older one, the
// page's embedded context) and fetched, page by page and past a C3VK challenge, from the stand-in.
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
import type { ScriptedResponse } from '../../../test/stand-ins/providers.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import challengePage from './fixtures/cookie-challenge.html?raw'
import legacyPage1 from './fixtures/contest-list-legacy-page-1.json'
import htmlPage1 from './fixtures/contest-list-page-1.html?raw'
import page1 from './fixtures/contest-list-page-1.json'
import page2 from './fixtures/contest-list-page-2.json'
import { fetchLuogu, LUOGU_MAX_PAGES, luogu, parseLuogu } from './index.ts'

type Item = (typeof page1.data.contests.result)[number]
const items: Item[] = page1.data.contests.result
const item = (id: number) => items.find((c) => c.id === id)!

/** A page of the list holding `result`, like the recorded ones otherwise. */
const listPage = (result: unknown, fields: Record<string, unknown> = {}) => ({
  ...page1,
  data: { contests: { ...page1.data.contests, result, ...fields } },
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

  it('reads the older envelope (currentData) as the Lentille one', () => {
    expect(parseLuogu(legacyPage1, RECORDED_AT)).toEqual(parsed())
  })

  it('reads the rule and visibility under their older names ruleType and visibilityType', () => {
    const renamed = items.map(({ method, visibility, ...rest }) => ({
      ...rest,
      ruleType: method,
      visibilityType: visibility,
      rated: rest.rated === 1,
    }))
    expect(parseLuogu(listPage(renamed), RECORDED_AT)).toEqual(parsed())
  })

  it('keeps rated as a boolean, whether it came as 0 or 1 or as true or false', () => {
    expect(byId(parsed(), '301489').platformMetadata?.rated).toBe(true)
    expect(byId(parsed(), '301533').platformMetadata?.rated).toBe(false)
  })

  it('skips a contest with no rule under either name, saying so', () => {
    const { method: _, ...ruleless } = item(301518)
    const result = parseLuogu(listPage([ruleless]), RECORDED_AT)
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual(['luogu contest 301518: method: neither method nor ruleType'])
  })

  it('maps rule 1 to 5 to OI, ICPC, LeDuo, IOI and Codeforces-style', () => {
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
    const finished = { ...item(301431), method: 6 }
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
      { status: 200, template: 'contest.list', data: {} },
      { status: 200, template: 'contest.list', data: { contests: { count: 0, perPage: 20 } } },
    ]) {
      const error = await upstreamFailure(() => parseLuogu(payload, RECORDED_AT))
      expect(error.kind).toBe('malformed')
    }
  })

  it('names the status of a Lentille answer that carries an error instead of the list', async () => {
    const refused = {
      instance: 'main',
      template: 'error',
      status: 403,
      data: { errorType: 'LentilleError', errorMessage: '您没有权限' },
    }
    const error = await upstreamFailure(() => parseLuogu(refused, RECORDED_AT), 'malformed')
    expect(error.message).toBe(
      'luogu: contest list has neither data.contests.result nor currentData.contests.result (status 403)',
    )
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
    const moved = shiftedJson(route1, page1, WEEK_MS)
    const shifted = parseLuogu(moved, RECORDED_AT + WEEK_MS)
    expect(shifted.contests).toEqual(movedBy(parsed().contests, WEEK_MS))
    // The envelope's server time moves along, as the older envelope's currentTime did.
    expect(moved.time).toBe(page1.time + WEEK_MS / 1000)
  })
})

describe('fetchLuogu', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchLuogu(standInRequest('/luogu'))
  const script = (...bodies: unknown[]) => scriptOk('GET', '/luogu/contest/list', bodies)
  const scriptAnswers = (...responses: ScriptedResponse[]) =>
    standIn.script({ method: 'GET', pathPrefix: '/luogu/contest/list', responses })
  const paths = () => requestPaths('/luogu/')
  const sent = () => standIn.requests('/luogu/')
  const challengeRedirect = (cookie = 'a96282'): ScriptedResponse => ({
    status: 302,
    headers: {
      location: '/contest/list?page=1',
      'set-cookie': `C3VK=${cookie}; path=/; max-age=300`,
    },
  })

  it('asks for Lentille content-only JSON with a browser-shaped User-Agent naming the service', async () => {
    await script(page1, page2)
    await fetchFromStandIn()
    const [first] = await sent()
    expect(first.method).toBe('GET')
    expect(first.path).toBe('/luogu/contest/list?page=1')
    expect(first.headers['x-lentille-request']).toBe('content-only')
    expect(first.headers['x-luogu-type']).toBe('content-only')
    expect(first.headers.cookie).toBeUndefined()
    expect(first.headers['user-agent']).toMatch(
      /^Mozilla\/5\.0 \(compatible; ContestAlertService\//,
    )
  })

  it('reads the next page while a page still holds open contests, then stops', async () => {
    await script(page1, page2)
    const result = await fetchFromStandIn()
    expect(await paths()).toEqual(['/luogu/contest/list?page=1', '/luogu/contest/list?page=2'])
    expect(result).toEqual(parseLuogu(page1, RECORDED_AT))
  })

  it('reads a page answered in the older envelope like one in the Lentille envelope', async () => {
    await script(legacyPage1, page2)
    expect(await fetchFromStandIn()).toEqual(parseLuogu(page1, RECORDED_AT))
  })

  it('reads the list a page carries in its lentille-context script when HTML comes back', async () => {
    await scriptAnswers({ status: 200, body: htmlPage1 }, { status: 200, body: page2 })
    const result = await fetchFromStandIn()
    expect(await paths()).toHaveLength(2)
    // The page holds four of the first page's contests, the finished 301431 among them.
    expect(ids(result)).toEqual(['301518', '301489', '301440'])
    expect(byId(result, '301489')).toEqual(byId(parseLuogu(page1, RECORDED_AT), '301489'))
  })

  it('throws malformed when the lentille-context of a page is not JSON', async () => {
    await script(
      '<html><head><script id="lentille-context" type="application/json">{"data":</script></head></html>',
    )
    const error = await upstreamFailure(fetchFromStandIn, 'malformed')
    expect(error.message).toBe('luogu: lentille-context is not JSON')
  })

  it('passes a C3VK challenge page by asking again once with its cookie', async () => {
    await scriptAnswers(
      { status: 200, body: challengePage },
      { status: 200, body: page1 },
      { status: 200, body: page2 },
    )
    const result = await fetchFromStandIn()
    const requests = await sent()
    expect(requests.map((r) => r.path)).toEqual([
      '/luogu/contest/list?page=1',
      '/luogu/contest/list?page=1',
      '/luogu/contest/list?page=2',
    ])
    expect(requests[0].headers.cookie).toBeUndefined()
    // The cookie passed, it is sent with the later pages of the same sync too.
    expect(requests[1].headers.cookie).toBe('C3VK=c82bf1')
    expect(requests[2].headers.cookie).toBe('C3VK=c82bf1')
    expect(result).toEqual(parseLuogu(page1, RECORDED_AT))
  })

  it('passes a C3VK challenge sent as a redirect setting the cookie, without following it', async () => {
    await scriptAnswers(
      challengeRedirect(),
      { status: 200, body: page1 },
      { status: 200, body: page2 },
    )
    const result = await fetchFromStandIn()
    const requests = await sent()
    expect(requests.map((r) => r.path)).toEqual([
      '/luogu/contest/list?page=1',
      '/luogu/contest/list?page=1',
      '/luogu/contest/list?page=2',
    ])
    expect(requests[1].headers.cookie).toBe('C3VK=a96282')
    expect(result).toEqual(parseLuogu(page1, RECORDED_AT))
  })

  it('fails as blocked after one retry when the challenge comes again, without looping', async () => {
    await scriptAnswers({ status: 200, body: challengePage })
    const error = await upstreamFailure(fetchFromStandIn, 'status')
    expect(error.blocked).toBe(true)
    expect(error.message).toBe('luogu: C3VK cookie challenge again after replaying its cookie')
    expect(await paths()).toHaveLength(2)
  })

  it('fails as blocked when a later page challenges again though the cookie was sent', async () => {
    await scriptAnswers(
      challengeRedirect(),
      { status: 200, body: page1 },
      challengeRedirect('b594c1'),
    )
    const error = await upstreamFailure(fetchFromStandIn, 'status')
    expect(error.blocked).toBe(true)
    expect(error.status).toBe(302)
    expect(await paths()).toHaveLength(3)
  })

  it('throws a status error for a redirect that sets no C3VK cookie, following none', async () => {
    await scriptAnswers({ status: 302, headers: { location: '/auth/login' } })
    const error = await upstreamFailure(fetchFromStandIn, 'status')
    expect(error.status).toBe(302)
    expect(error.blocked).toBe(false)
    expect(await paths()).toEqual(['/luogu/contest/list?page=1'])
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
    expect((await paths()).at(-1)).toBe(`/luogu/contest/list?page=${LUOGU_MAX_PAGES}`)
    // A contest listed on two pages (the list moved between requests) is kept once.
    expect(ids(result)).toEqual(ids(parseLuogu(page1, RECORDED_AT)))
  })

  it('throws a status error carrying the HTTP status of a non-2xx answer', async () => {
    await expectStatusError('/luogu/contest/list', '<html>维护中</html>', fetchFromStandIn)
  })

  it('throws malformed when a page comes back with neither the list nor a challenge', async () => {
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
