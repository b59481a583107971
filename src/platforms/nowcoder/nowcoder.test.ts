// Nowcoder's vip-index page: parsed from the recorded pages (with the lists and without them) and
// fetched from the stand-in.
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
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import page from './fixtures/vip-index.html?raw'
import tabs from './fixtures/vip-index-tabs.html?raw'
import { fetchNowcoder, nowcoder, nowcoderType, parseNowcoder } from './index.ts'

/** A page with the current list holding `items` (markup of contest items). */
const currentList = (items = '') => `<!DOCTYPE html><html><body><div class="nk-content">
  <div class="platform-mod js-current">
    <div class="platform-mod-hd clearfix"><h2 class="platform-mod-tit">近期比赛</h2></div>${items}
  </div></div></body></html>`

describe('parseNowcoder', () => {
  const parsed = () => parseNowcoder(page, RECORDED_AT)

  it('reads a contest from its data-json with a trimmed name and its contest page', () => {
    expect(byId(parsed(), '140240')).toEqual({
      platform: 'nowcoder',
      platformId: '140240',
      name: '牛客周赛 Round 171',
      type: 'WEEKLY',
      startTime: Date.parse('2026-11-29T19:00:00+08:00'),
      endTime: Date.parse('2026-11-29T21:00:00+08:00'),
      websiteUrl: 'https://ac.nowcoder.com/acm/contest/140240',
      platformMetadata: { rankType: 0, organizer: '牛客竞赛' },
    })
  })

  it('keeps the running and the upcoming contests of the current list in page order', () => {
    expect(ids(parsed())).toEqual([
      '140215',
      '140221',
      '140218',
      '140240',
      '140233',
      '140252',
      '140260',
    ])
  })

  it('lands the epoch milliseconds on the Beijing time the page shows', () => {
    // "比赛时间： 2026-11-22 19:00 至 2026-11-22 21:00" is 11:00 to 13:00 UTC: running at 12:00.
    const running = byId(parsed(), '140215')
    expect(running.startTime).toBe(Date.UTC(2026, 10, 22, 11, 0))
    expect(running.endTime).toBe(Date.UTC(2026, 10, 22, 13, 0))
  })

  it('tells the weekly, monthly (小白月赛 too) and practice series apart by name', () => {
    const typeOf = (id: string) => byId(parsed(), id).type
    expect(['140215', '140218', '140252', '140221', '140233', '140260'].map(typeOf)).toEqual([
      'WEEKLY',
      'MONTHLY',
      'MONTHLY',
      'PRACTICE',
      'OTHER',
      'OTHER',
    ])
    expect(nowcoderType('牛客挑战赛95')).toBe('OTHER')
  })

  it('decodes the twice-escaped data-json, an ampersand in a name included', () => {
    expect(byId(parsed(), '140233').name).toBe('牛客 & 杭电联合挑战赛95')
  })

  it('reads a page that escapes data-json only once the same way', () => {
    const once = page.replaceAll('&amp;quot;', '&quot;').replaceAll('&amp;amp;', '&amp;')
    expect(once).not.toBe(page)
    expect(parseNowcoder(once, RECORDED_AT)).toEqual(parsed())
  })

  it('leaves out finished contests without counting them as skipped or unsupported', () => {
    const result = parsed()
    for (const finished of ['140207', '140199', '140192', '140178']) {
      expect(ids(result)).not.toContain(finished)
    }
    expect(result.skipped).toBe(1)
    expect(result.unsupported).toBe(1)
  })

  it('counts a contest behind a password as unsupported', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('140226')
    expect(result.unsupported).toBe(1)
  })

  it('skips an item without an end time and one whose data-json is not JSON, saying why', () => {
    expect(parsed().errors).toEqual([
      expect.stringMatching(/^nowcoder contest 140247: contestEndTime: /),
    ])
    const broken = currentList(
      '<div class="platform-item js-item " data-id="140300" data-json="{&amp;quot;contestId"></div>',
    )
    expect(parseNowcoder(broken, RECORDED_AT)).toEqual({
      contests: [],
      skipped: 1,
      unsupported: 0,
      errors: ['nowcoder contest 140300: data-json is not JSON'],
    })
  })

  it('throws malformed for a page without a single contest item, the old list included', async () => {
    const loginWall =
      '<!DOCTYPE html><html><body><div class="login-box">请先登录</div></body></html>'
    for (const html of [loginWall, '', currentList()]) {
      const error = await upstreamFailure(() => parseNowcoder(html, RECORDED_AT))
      expect(error.kind).toBe('malformed')
      expect(error.message).toMatch(/no \.platform-item\[data-json\]/)
    }
  })

  it('reads a page whose items have all finished as no contests', () => {
    const finished = page.slice(page.indexOf('<div class="platform-mod js-end">'))
    expect(parseNowcoder(currentList(finished), RECORDED_AT)).toEqual(EMPTY_RESULT)
  })

  it('has a fixture route whose shift moves every contest by the same whole weeks', () => {
    const [route] = nowcoder.source!.fixtures
    const shifted = route.shift(page, WEEK_MS)
    expect(shifted).toContain('2026-12-06 19:00') // the shown time of 牛客周赛 Round 171
    expect(parseNowcoder(shifted, RECORDED_AT + WEEK_MS).contests).toEqual(
      movedBy(parsed().contests, WEEK_MS),
    )
  })
})

describe('a page without div.platform-mod.js-current', () => {
  const parsedTabs = () => parseNowcoder(tabs, RECORDED_AT)

  it('reads the items wherever they are: a hot strip and tab panels instead of the lists', () => {
    expect(tabs).not.toContain('js-current')
    expect(ids(parsedTabs())).toEqual(['140215', '140218', '140240'])
  })

  it('reads each contest as the page with the lists does', () => {
    for (const id of ['140215', '140218', '140240']) {
      expect(byId(parsedTabs(), id)).toEqual(byId(parseNowcoder(page, RECORDED_AT), id))
    }
  })

  it('counts a contest listed in several places once, kept or not', () => {
    // 140215 is in the hot strip, the current and the finished tab; 140226 (behind a password)
    // in the hot strip and the current tab.
    expect(tabs.match(/data-id="140215"/g)).toHaveLength(3)
    expect(tabs.match(/data-id="140226"/g)).toHaveLength(2)
    const result = parsedTabs()
    expect(result.contests.filter((c) => c.platformId === '140215')).toHaveLength(1)
    expect(result.unsupported).toBe(1)
    expect(result.skipped).toBe(0)
  })

  it('counts an item whose data-json is broken once too', () => {
    const broken =
      '<div class="platform-item js-item " data-id="140300" data-json="{&amp;quot;contestId"></div>'
    expect(parseNowcoder(currentList(broken + broken), RECORDED_AT)).toMatchObject({
      skipped: 1,
      errors: ['nowcoder contest 140300: data-json is not JSON'],
    })
  })
})

describe('fetchNowcoder', () => {
  beforeEach(() => standIn.reset())

  const fetchFromStandIn = () => fetchNowcoder(standInRequest('/nowcoder'))

  it('reads the vip-index page, naming the service in its User-Agent', async () => {
    await scriptOk('GET', '/nowcoder/acm/contest/vip-index', [page], 'text/html; charset=utf-8')
    const result = await fetchFromStandIn()
    expect(result).toEqual(parseNowcoder(page, RECORDED_AT))
    await expectOneRequest('/nowcoder/', '/nowcoder/acm/contest/vip-index', 'GET')
  })

  it('reads a page laid out without the lists the same way', async () => {
    await scriptOk('GET', '/nowcoder/acm/contest/vip-index', [tabs], 'text/html; charset=utf-8')
    expect(ids(await fetchFromStandIn())).toEqual(['140215', '140218', '140240'])
  })

  it('throws a status error carrying the HTTP status of a non-2xx answer', async () => {
    await expectStatusError(
      '/nowcoder/acm/contest/vip-index',
      '<html><body>服务暂不可用</body></html>',
      fetchFromStandIn,
    )
  })
})

describe('nowcoder on clist', () => {
  const fromClist = (href: string, event = '牛客周赛 Round 171') =>
    nowcoder.clist!.contest(clistEntry(href, event))

  it('takes the contest id from the link and the series from the name, as the own source does', () => {
    const own = byId(parseNowcoder(page, RECORDED_AT), '140240')
    expect(fromClist('https://ac.nowcoder.com/acm/contest/140240')).toEqual(idAndType(own))
    expect(fromClist('https://ac.nowcoder.com/acm/contest/140218', '牛客小白月赛130')?.type).toBe(
      'MONTHLY',
    )
  })

  it('passes over links that are not a Nowcoder contest page', () => {
    expect(fromClist('https://ac.nowcoder.com/acm/contest/vip-index')).toBeUndefined()
    expect(fromClist('https://www.nowcoder.com/discuss/140240')).toBeUndefined()
  })
})
