// AtCoder's /contests page: parsed from the recorded page (and reworked copies of it) and fetched
// from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  CLOSED_PORT,
  expectSent,
  expectWellFormed,
  idAndType,
  ids,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { phaseAt } from '../../contests/serialize.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import type { SourceRequest } from '../source.ts'
import atcoderEmptyUpcoming from './fixtures/atcoder-contests-empty-upcoming.html?raw'
import atcoderPage from './fixtures/atcoder-contests.html?raw'
import { atcoder, atcoderTime, atcoderType, fetchAtcoder, parseAtcoderContests } from './index.ts'

const NOW = RECORDED_AT
const request = (fields: Partial<SourceRequest> = {}) => standInRequest('/atcoder', fields)

beforeEach(() => standIn.reset())

describe('AtCoder adapter', () => {
  const parsed = () => parseAtcoderContests(atcoderPage, NOW)

  it('reads the running, upcoming and recent tables, converting Tokyo times to UTC', () => {
    const result = parsed()
    expectWellFormed(atcoder, result.contests)
    expect(result.contests).toHaveLength(17)
    expect(byId(result, 'abc482')).toEqual({
      platform: 'atcoder',
      platformId: 'abc482',
      name: 'UNIQUE VISION Programming Contest 2026 Winter (AtCoder Beginner Contest 482)',
      type: 'ABC',
      startTime: Date.parse('2026-11-28T12:00:00Z'),
      endTime: Date.parse('2026-11-28T13:40:00Z'),
      websiteUrl: 'https://atcoder.jp/contests/abc482',
      registrationUrl: 'https://atcoder.jp/contests/abc482',
      difficulty: 'EASY',
      platformMetadata: { ratedRange: '- 1999', rated: true, kind: 'Algorithm' },
    })
  })

  it('includes the running contests, among them a heuristic contest of 242 hours', () => {
    const result = parsed()
    const ahc = byId(result, 'ahc058')
    expect(ahc.type).toBe('AHC')
    expect(ahc).not.toHaveProperty('difficulty')
    expect(ahc.endTime - ahc.startTime).toBe(242 * 3_600_000)
    expect(phaseAt(ahc.startTime, ahc.endTime, NOW)).toBe('CODING')
    const arc = byId(result, 'arc211')
    expect(phaseAt(arc.startTime, arc.endTime, NOW)).toBe('CODING')
  })

  it('maps ABC, ARC, AGC and AHC to their types and difficulties', () => {
    const result = parsed()
    const seen = (id: string) => [byId(result, id).type, byId(result, id).difficulty]
    expect(seen('abc483')).toEqual(['ABC', 'EASY'])
    expect(seen('arc212')).toEqual(['ARC', 'HARD'])
    expect(seen('agc076')).toEqual(['AGC', 'EXPERT'])
    expect(seen('ahc059')).toEqual(['AHC', undefined])
    expect(seen('ahc057')).toEqual(['AHC', undefined])
  })

  it('lists every upcoming contest of the upcoming table', () => {
    const upcoming = parsed().contests.filter((c) => c.startTime > NOW)
    expect(upcoming.map((c) => c.platformId)).toEqual([
      'abc482',
      'agc076',
      'ahc059',
      'abc483',
      'arc212',
      'abc484',
    ])
  })

  it('counts unrated and other contests as unsupported and skips a row with an unreadable time', () => {
    const result = parsed()
    expect(result.unsupported).toBe(2)
    expect(ids(result)).not.toContain('jsc2026-final')
    expect(ids(result)).not.toContain('adt_easy_20261105_1')
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual([
      expect.stringMatching(/^atcoder upcoming row abc485: startText/),
    ])
  })

  it('ignores the permanent table and markup inside scripts', () => {
    const result = parsed()
    expect(ids(result)).not.toContain('practice')
    expect(ids(result)).not.toContain('abs')
    expect(result.errors.join()).not.toContain('#')
  })

  it('reads the same contests after whitespace, quoting and attribute changes', () => {
    // The patterns take either quote and a line break before '>': the recorded page was written
    // with single quotes and tabs, its copy here went through Prettier.
    const reworked = atcoderPage
      .replace(/>\s+</g, '><')
      .replace(/\s+/g, ' ')
      .replace(/<td class="text-center">/g, '<TD  data-x="a>b"  class=\'text-center\' >')
      .replace(/<\/td>/g, '</TD>')
      .replace(
        /<a href="\/contests\/([^"]+)"\s*>/g,
        "<a class=contest href='https://atcoder.jp/contests/$1'>",
      )
      .replace(
        /<time class=["']fixtime fixtime-full["']>/g,
        '<time datetime="" class="fixtime fixtime-full">',
      )
    expect(reworked).not.toBe(atcoderPage)
    expect(parseAtcoderContests(reworked, NOW)).toEqual(parsed())
  })

  it('reads rows and cells whose optional end tags are left out', () => {
    const unclosed = atcoderPage.replace(/<\/td>|<\/tr>/g, '')
    expect(unclosed).not.toContain('</td>')
    expect(parseAtcoderContests(unclosed, NOW)).toEqual(parsed())
  })

  it('reads a page with an empty upcoming table without error', () => {
    const result = parseAtcoderContests(atcoderEmptyUpcoming, NOW)
    expect(result.contests.filter((c) => c.startTime > NOW)).toEqual([])
    expect(result.errors).toEqual([])
    expect(ids(result)).toContain('ahc058')
    expect(ids(result)).toContain('abc481')
  })

  it('throws a malformed error for a page without the upcoming table', async () => {
    const start = atcoderPage.indexOf('<div id="contest-table-upcoming">')
    const end = atcoderPage.indexOf('<div id="contest-table-recent">')
    const withoutUpcoming = atcoderPage.slice(0, start) + atcoderPage.slice(end)
    const error = await upstreamFailure(
      () => parseAtcoderContests(withoutUpcoming, NOW),
      'malformed',
    )
    expect(error.message).toContain('contest-table-upcoming')
  })

  it('reads AtCoder times with their offset and ids or titles as types', () => {
    expect(atcoderTime('2026-11-29 21:00:00+0900')).toBe(Date.parse('2026-11-29T12:00:00Z'))
    expect(atcoderTime('2026-11-29 21:00+09:00')).toBe(Date.parse('2026-11-29T12:00:00Z'))
    expect(atcoderTime('2026-11-29 21:00:00')).toBeNaN()
    expect(atcoderType('toyota2026', 'Toyota Contest 2026 (AtCoder Beginner Contest 490)')).toBe(
      'ABC',
    )
    expect(atcoderType('wtf2026', 'World Tour Finals 2026')).toBeUndefined()
  })

  it('fetches the English /contests page from the base URL, naming the service', async () => {
    await scriptOk('GET', '/atcoder/contests', [atcoderPage])
    const result = await fetchAtcoder(request())
    expect(result).toEqual(parsed())
    const [sent] = await standIn.requests('/atcoder/')
    expectSent(sent, '/atcoder/contests/?lang=en')
  })

  it('reports an HTTP 503, a maintenance page and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/atcoder/contests',
      responses: [
        { status: 503, body: '<html><body>Service Unavailable</body></html>' },
        { status: 200, body: '<html><body><h1>AtCoder is under maintenance</h1></body></html>' },
      ],
    })
    const status = await upstreamFailure(fetchAtcoder(request()), 'status')
    expect(status.status).toBe(503)
    await upstreamFailure(fetchAtcoder(request()), 'malformed')
    await upstreamFailure(fetchAtcoder(request({ baseUrl: CLOSED_PORT })), 'network')
  })
})

describe('the atcoder descriptor', () => {
  it('fetches from its ATCODER_URL stand-in and gives well-formed contests', async () => {
    await scriptOk('GET', '/atcoder/contests', [atcoderPage])
    expect(atcoder.source!.setting).toBe('ATCODER_URL')
    expectWellFormed(atcoder, (await atcoder.source!.fetch(request())).contests)
  })

  it('maps a clist.by entry to the id and type the own source stores', () => {
    const entry = clistEntry(
      'https://atcoder.jp/contests/abc482',
      'UNIQUE VISION Programming Contest 2026 Winter (AtCoder Beginner Contest 482)',
    )
    const own = byId(parseAtcoderContests(atcoderPage, NOW), 'abc482')
    expect(atcoder.clist!.contest(entry)).toEqual(idAndType(own))
    expect(
      atcoder.clist!.contest({
        ...entry,
        event: 'Japanese Student Championship 2026 Final',
        href: 'https://atcoder.jp/contests/jsc2026-final',
      }),
    ).toBeUndefined()
  })
})
