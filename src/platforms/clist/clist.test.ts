// The clist.by client against the stand-in (the real wire format, its limits and pages), and the
// mapping of clist entries into a platform's contests.
import { beforeEach, describe, expect, it } from 'vitest'
import { realFetch, upstreamFailure } from '../../../test/helpers/platform-sources.ts'
import { standIn, standInUrl } from '../../../test/helpers/stand-in.ts'
import type { ClistContest } from '../define.ts'
import { definePlatform } from '../define.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import {
  ClistBudgetSpent,
  CLIST_MAX_PAGES,
  fetchClistContests,
  fetchClistResources,
  parseClistPage,
  type ClistRequest,
} from './client.ts'
import { clistContests } from './contests.ts'
import recorded from './fixtures/contests.json'

const API_KEY = 'contest-alerts:0f3c9a7d21b84e6f'
const HOUR = 3_600_000

beforeEach(() => standIn.reset())

function request(overrides: Partial<ClistRequest> = {}): ClistRequest {
  return {
    baseUrl: `${standInUrl}/clist`,
    apiKey: API_KEY,
    resource: 'codeforces.com',
    now: RECORDED_AT,
    fetchFn: realFetch,
    ...overrides,
  }
}

function configureClist(settings: {
  limitPerMinute?: number
  apiKey?: string
  now?: number
  reset?: boolean
}) {
  return fetch(`${standInUrl}/__control/clist`, {
    method: 'POST',
    body: JSON.stringify(settings),
  })
}

/** A clist page in the wire format holding `count` codeforces.com contests from `firstId`. */
function page(count: number, firstId = 1, offset = 0) {
  const objects = Array.from({ length: count }, (_, i) => ({
    duration: 7200,
    end: '2026-11-24T16:35:00',
    event: `Codeforces Round ${firstId + i}`,
    host: 'codeforces.com',
    href: `https://codeforces.com/contest/${firstId + i}`,
    id: 70000000 + firstId + i,
    n_problems: null,
    n_statistics: null,
    parsed_at: null,
    problems: null,
    resource: 'codeforces.com',
    resource_id: 1,
    start: '2026-11-24T14:35:00',
  }))
  const next = `/api/v4/contest/?resource=codeforces.com&limit=1000&offset=${offset + 1000}`
  return { meta: { limit: 1000, next, offset, previous: null, total_count: null }, objects }
}

describe('fetchClistContests', () => {
  it("asks for the resource's contests not ended at now, by start, with the API key", async () => {
    const result = await fetchClistContests(request())

    const [sent] = await standIn.requests('/clist/')
    expect(sent.method).toBe('GET')
    const url = new URL(sent.path, standInUrl)
    expect(url.pathname).toBe('/clist/contest/')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      resource: 'codeforces.com',
      end__gt: '2026-11-22T12:00:00',
      order_by: 'start',
      limit: '1000',
      offset: '0',
    })
    expect(sent.headers.authorization).toBe(`ApiKey ${API_KEY}`)
    expect(sent.headers['user-agent']).toContain('ContestAlertService')
    // The running round first, then the upcoming ones; the past rounds were not served.
    expect(result.entries.map((e) => e.id)).toEqual([63625590, 63631902, 63639005])
    expect(result.entries[0]).toEqual({
      id: 63625590,
      event: 'Codeforces Round 1071 (Div. 3)',
      href: 'https://codeforces.com/contest/2177',
      startTime: Date.UTC(2026, 10, 22, 11, 5),
      endTime: Date.UTC(2026, 10, 22, 13, 20),
    })
    expect(result).toMatchObject({ skipped: 0, errors: [] })
  })

  it('reads the naive times clist writes as UTC', () => {
    const { entries } = parseClistPage(recorded, 'atcoder.jp')
    const abc432 = entries.find((e) => e.id === 63641230)
    // 21:00 in Tokyo, written by clist as "2026-11-28T12:00:00".
    expect(abc432?.startTime).toBe(Date.parse('2026-11-28T21:00:00+09:00'))
    expect(abc432?.endTime).toBe(Date.parse('2026-11-28T22:40:00+09:00'))
  })

  it('follows full pages and stops at a short one, though meta.next is set on every page', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [
        { status: 200, body: page(1000, 1, 0) },
        { status: 200, body: page(3, 1001, 1000) },
      ],
    })
    let takes = 0
    const result = await fetchClistContests(
      request({ takeRequest: async () => (takes++, { allowed: true }) }),
    )

    const sent = await standIn.requests('/clist/')
    const offsets = sent.map((r) => new URL(r.path, standInUrl).searchParams.get('offset'))
    expect(offsets).toEqual(['0', '1000'])
    expect(takes).toBe(2)
    expect(result.entries).toHaveLength(1003)
    expect(result.entries.at(-1)?.id).toBe(70001003)
  })

  it('stops after the page bound when every page is full', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [{ status: 200, body: page(1000) }],
    })
    const result = await fetchClistContests(request())

    expect(await standIn.requests('/clist/')).toHaveLength(CLIST_MAX_PAGES)
    expect(result.entries).toHaveLength(CLIST_MAX_PAGES * 1000)
    expect(result.errors).toEqual([
      `stopped after ${CLIST_MAX_PAGES} pages; clist may list more contests`,
    ])
  })

  it('pages by the size clist used when it gives fewer than asked', async () => {
    const small = (offset: number, count: number) => ({
      ...page(count, offset + 1, offset),
      meta: { ...page(0).meta, limit: 2, offset },
    })
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [
        { status: 200, body: small(0, 2) },
        { status: 200, body: small(2, 1) },
      ],
    })
    const result = await fetchClistContests(request())

    const sent = await standIn.requests('/clist/')
    expect(sent.map((r) => new URL(r.path, standInUrl).searchParams.get('offset'))).toEqual([
      '0',
      '2',
    ])
    expect(result.entries.map((e) => e.id)).toEqual([70000001, 70000002, 70000003])
  })

  it('skips invalid items, each with its reason, and keeps the rest', async () => {
    const body = page(4)
    body.objects[0] = { ...body.objects[0], id: '70000001' as unknown as number }
    body.objects[1] = { ...body.objects[1], end: body.objects[1].start }
    body.objects[2] = { ...body.objects[2], resource: 'atcoder.jp' }
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [{ status: 200, body }],
    })
    const result = await fetchClistContests(request())

    expect(result.entries.map((e) => e.id)).toEqual([70000004])
    expect(result.skipped).toBe(3)
    expect(result.errors).toEqual([
      expect.stringMatching(/^clist contest 70000001: id: /),
      'clist contest 70000002: end: ends at or before it starts',
      'clist contest 70000003: listed under atcoder.jp, not codeforces.com',
    ])
  })

  it('skips the recorded zero-length round that clist lists with its date only', async () => {
    const result = await fetchClistContests(request({ resource: 'topcoder.com' }))

    expect(result.entries.map((e) => e.id)).toEqual([63633478, 63650116])
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual(['clist contest 63650420: end: ends at or before it starts'])
  })

  it('throws a 429 with Retry-After beyond the requests allowed a minute', async () => {
    await configureClist({ limitPerMinute: 1, now: RECORDED_AT })
    await fetchClistContests(request())

    const error = await upstreamFailure(fetchClistContests(request()), 'status')
    expect(error.status).toBe(429)
    expect(error.retryAfter).toBe(60)
    expect(error.blocked).toBe(true)

    // A minute later the user may ask again.
    await configureClist({ now: RECORDED_AT + 60_000 })
    expect((await fetchClistContests(request())).entries).toHaveLength(3)
  })

  it('makes no request when the shared budget refuses one, saying when it allows one', async () => {
    const retryAt = RECORDED_AT + 42_000
    const refused = fetchClistContests(
      request({ takeRequest: async () => ({ allowed: false, retryAt }) }),
    )
    await expect(refused).rejects.toBeInstanceOf(ClistBudgetSpent)
    await expect(refused).rejects.toMatchObject({
      retryAt,
      message: 'waiting for the clist budget',
    })
    expect(await standIn.requests('/clist/')).toEqual([])
  })

  it('asks for several resources in one request, each given its own contests', async () => {
    let takes = 0
    const { byResource, unattributed } = await fetchClistResources({
      ...request(),
      resources: ['topcoder.com', 'open.kattis.com', 'toph.co'],
      takeRequest: async () => (takes++, { allowed: true }),
    })

    const sent = await standIn.requests('/clist/')
    expect(sent).toHaveLength(1)
    expect(takes).toBe(1)
    const url = new URL(sent[0].path, standInUrl)
    expect(url.searchParams.getAll('resource')).toEqual(['topcoder.com,open.kattis.com,toph.co'])
    expect(byResource.get('topcoder.com')!.entries.map((e) => e.id)).toEqual([63633478, 63650116])
    // The zero-length round is topcoder.com's to skip, no other resource's.
    expect(byResource.get('topcoder.com')).toMatchObject({ skipped: 1 })
    expect(byResource.get('open.kattis.com')).toMatchObject({ skipped: 0, errors: [] })
    expect(byResource.get('open.kattis.com')!.entries.length).toBeGreaterThan(0)
    expect(byResource.get('toph.co')!.entries.length).toBeGreaterThan(0)
    expect(unattributed).toEqual([])
  })

  it('throws a 401 when the key is not accepted', async () => {
    await configureClist({ apiKey: API_KEY })
    const error = await upstreamFailure(
      fetchClistContests(request({ apiKey: 'contest-alerts:wrong' })),
      'status',
    )
    expect(error.status).toBe(401)
  })

  it('throws a status error with the status on a 5xx', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [{ status: 503, body: '<h1>Service Unavailable</h1>' }],
    })
    const error = await upstreamFailure(fetchClistContests(request()), 'status')
    expect(error.status).toBe(503)
  })

  it('throws malformed on an answer without meta and objects', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/clist/contest/',
      responses: [{ status: 200, body: { meta: page(0).meta, objects: { count: 0 } } }],
    })
    await upstreamFailure(fetchClistContests(request()), 'malformed')
  })

  it('reads an empty page as no contests, without throwing', async () => {
    const result = await fetchClistContests(request({ resource: 'leetcode.com' }))
    expect(result).toEqual({ entries: [], skipped: 0, errors: [] })
  })
})

describe('the clist stand-in', () => {
  type Answer = { meta: Record<string, unknown>; objects: { id: number }[] }
  const get = (query: string, authorization = `ApiKey ${API_KEY}`) =>
    fetch(`${standInUrl}/clist/contest/?${query}`, { headers: { authorization } })
  const list = async (query: string) => (await (await get(query)).json()) as Answer

  it('pages with limit and offset, meta.next set while a page has items', async () => {
    const first = await list('resource=atcoder.jp&order_by=start&limit=3')
    expect(first.meta).toMatchObject({ limit: 3, offset: 0, previous: null, total_count: null })
    expect(first.meta.next).toBe(
      '/clist/contest/?resource=atcoder.jp&order_by=start&limit=3&offset=3',
    )
    expect(first.objects.map((c) => c.id)).toEqual([63601455, 63612340, 63641230])

    const last = await list('resource=atcoder.jp&order_by=start&limit=3&offset=3')
    expect(last.objects.map((c) => c.id)).toEqual([63642019])
    expect(last.meta.next).toEqual(expect.any(String))

    const beyond = await list('resource=atcoder.jp&order_by=start&limit=3&offset=6')
    expect(beyond).toMatchObject({ meta: { next: null }, objects: [] })
  })

  it('answers 401 without an ApiKey name:key header', async () => {
    expect((await get('resource=atcoder.jp', 'Bearer abc')).status).toBe(401)
    expect((await get('resource=atcoder.jp', 'ApiKey no-key')).status).toBe(401)
  })

  it('filters by several resources as clist does, and refuses resource__in as tastypie does', async () => {
    const resources = (body: Answer) => [
      ...new Set(body.objects.map((c) => (c as unknown as { resource: string }).resource)),
    ]
    expect(resources(await list('resource=atcoder.jp,toph.co&limit=100')).sort()).toEqual([
      'atcoder.jp',
      'toph.co',
    ])
    expect(resources(await list('resource_id__in=93,86&limit=100')).sort()).toEqual([
      'atcoder.jp',
      'toph.co',
    ])
    const refused = await get('resource__in=atcoder.jp,toph.co')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({
      error: "'in' is not an allowed filter on the 'resource' field.",
    })
  })

  it('reads upcoming=true as not ended by its clock', async () => {
    await configureClist({ now: RECORDED_AT })
    const body = await list('resource=codingame.com&upcoming=true')
    expect(body.objects.map((c) => c.id)).toEqual([63590117, 63653010])
  })
})

describe('clistContests', () => {
  const demo = definePlatform({
    id: 'demo',
    name: 'Demo',
    homeUrl: 'https://demo.example',
    contestsUrl: 'https://demo.example/contests',
    types: ['ROUND', 'CUP'] as const,
    typeNames: { ROUND: 'Round', CUP: 'Cup' },
    clist: {
      resource: 'demo.example',
      contest(entry) {
        const match = /^https?:\/\/demo\.example\/(round|cup)\/(\d+)$/.exec(entry.href)
        if (!match) return undefined
        return match[1] === 'cup'
          ? {
              platformId: match[2],
              type: 'CUP',
              websiteUrl: `https://demo.example/cup/${match[2]}/info`,
            }
          : { platformId: match[2], type: 'ROUND' }
      },
    },
  })
  const entry = (id: number, href: string, startTime: number, event = `Contest ${id}`) => ({
    id,
    event,
    href,
    startTime,
    endTime: startTime + 2 * HOUR,
  })
  const entries: ClistContest[] = [
    entry(1, 'https://demo.example/round/11', RECORDED_AT - 5 * HOUR),
    entry(2, 'https://demo.example/round/12', RECORDED_AT - HOUR, '  Round 12  '),
    entry(3, 'https://demo.example/blog/13', RECORDED_AT + HOUR),
    entry(4, 'https://demo.example/cup/14', RECORDED_AT + 24 * HOUR),
    entry(5, 'https://demo.example/blog/15', RECORDED_AT - 9 * HOUR),
  ]

  it('maps each entry through the module, keeping running and upcoming contests', () => {
    const result = clistContests(demo, entries, RECORDED_AT)

    expect(result.contests).toEqual([
      {
        platform: 'demo',
        platformId: '12',
        name: 'Round 12',
        type: 'ROUND',
        startTime: RECORDED_AT - HOUR,
        endTime: RECORDED_AT + HOUR,
        websiteUrl: 'https://demo.example/round/12',
        platformMetadata: { source: 'clist', clistId: 2 },
      },
      {
        platform: 'demo',
        platformId: '14',
        name: 'Contest 4',
        type: 'CUP',
        startTime: RECORDED_AT + 24 * HOUR,
        endTime: RECORDED_AT + 26 * HOUR,
        websiteUrl: 'https://demo.example/cup/14/info',
        platformMetadata: { source: 'clist', clistId: 4 },
      },
    ])
  })

  it('counts unmapped entries as unsupported and leaves ended ones out uncounted', () => {
    const result = clistContests(demo, entries, RECORDED_AT)
    // Entry 3 is unmapped and upcoming; 1 (mapped) and 5 (unmapped) have ended.
    expect(result).toMatchObject({ unsupported: 1, skipped: 0, errors: [] })
  })

  it("links to the platform's list when the href is not https", () => {
    const [contest] = clistContests(
      demo,
      [entry(6, 'http://demo.example/round/16', RECORDED_AT + HOUR)],
      RECORDED_AT,
    ).contests
    expect(contest.websiteUrl).toBe('https://demo.example/contests')
  })
})
