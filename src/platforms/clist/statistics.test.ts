// clist.by v4 statistics against the stand-in (the recorded contests, accounts and statistics,
// served with clist's filters, key and limit): a contest's results for linked handles on a
// platform without its own results module, pending, rated or not, full pages followed through
// meta.next, the contest told apart from others starting within the hour, and the shared budget.
import { beforeEach, describe, expect, it } from 'vitest'
import { realFetch, upstreamFailure } from '../../../test/helpers/platform-sources.ts'
import { standIn, standInUrl } from '../../../test/helpers/stand-in.ts'
import { kattis } from '../kattis/index.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import type { EndedContest } from '../results.ts'
import { topcoder } from '../topcoder/index.ts'
import { ClistBudgetSpent, type ClistAccess } from './client.ts'
import sameStart from './fixtures/contests-same-start.json'
import recordedContests from './fixtures/contests.json'
import statisticsPage1 from './fixtures/statistics-page-1.json'
import statisticsPage2 from './fixtures/statistics-page-2.json'
import { CLIST_LIST_PAGES, clistContestResults, clistHandleHistory } from './statistics.ts'

const API_KEY = 'contest-alerts:0f3c9a7d21b84e6f'

function access(fields: Partial<ClistAccess> = {}): ClistAccess {
  return {
    baseUrl: `${standInUrl}/clist`,
    apiKey: API_KEY,
    now: RECORDED_AT,
    fetchFn: realFetch,
    ...fields,
  }
}

const configureClist = (settings: Record<string, unknown>) =>
  fetch(`${standInUrl}/__control/clist`, { method: 'POST', body: JSON.stringify(settings) })

// From the recorded contests: SRM 869 (rated, on TopCoder's shared events page, so keyed by clist's
// id) and the Kattis Autumn Cup's second round (unrated).
const SRM_869: EndedContest = {
  platformId: 'clist-63471290',
  startTime: Date.parse('2026-10-29T12:00:00Z'),
  endTime: Date.parse('2026-10-29T13:30:00Z'),
  type: 'CONTEST',
}
const AUTUMN_CUP_2: EndedContest = {
  platformId: 'w3fyqk',
  startTime: Date.parse('2026-11-21T09:00:00Z'),
  endTime: Date.parse('2026-11-21T14:00:00Z'),
  type: 'CONTEST',
}

/** The paths of the requests clist received, without the /clist prefix. */
async function clistPaths() {
  return (await standIn.requests('/clist/')).map((r) => decodeURIComponent(r.path.slice(6)))
}

beforeEach(async () => {
  await standIn.reset()
  await configureClist({ reset: true })
})

describe('clist.by statistics of a contest', () => {
  it('gives the linked handles rows of a rated contest: place, old and new rating', async () => {
    const results = await clistContestResults(access(), topcoder, SRM_869, [
      'kestrel_tc',
      'marble_owl',
      'never_there',
    ])
    expect(results).toEqual({
      state: 'published',
      rated: true,
      participants: 402,
      rows: [
        { handle: 'kestrel_tc', rank: 12, oldRating: 1912, newRating: 1987 },
        { handle: 'marble_owl', rank: 140, oldRating: 1544, newRating: 1498 },
      ],
    })
    const paths = await clistPaths()
    expect(paths).toHaveLength(3)
    expect(paths[0]).toMatch(/^\/contest\/\?resource=topcoder\.com&start__gte=2026-10-29T11:00:00&/)
    expect(paths[1]).toContain(
      '/account/?resource=topcoder.com&handle__in=kestrel_tc,marble_owl,never_there',
    )
    expect(paths[2]).toContain('/statistics/?contest_id=63471290&account_id__in=')
    const [sent] = await standIn.requests('/clist/')
    expect(sent.headers.authorization).toBe(`ApiKey ${API_KEY}`)
  })

  it("asks by clist's id when the catalogue has it", async () => {
    const results = await clistContestResults(access(), topcoder, SRM_869, ['ferrous'], {
      clistId: 63471290,
    })
    expect(results).toMatchObject({ state: 'published', rows: [{ handle: 'ferrous', rank: 3 }] })
    expect((await clistPaths())[0]).toBe('/contest/?id=63471290')
  })

  it('tells an unrated contest by asking once for any rating, and keeps its places', async () => {
    const results = await clistContestResults(access(), kattis, AUTUMN_CUP_2, [
      'quiet-fox',
      'marble_owl',
    ])
    // marble_owl's Kattis account took no part in the round.
    expect(results).toEqual({
      state: 'published',
      rated: false,
      participants: 318,
      rows: [{ handle: 'quiet-fox', rank: 27 }],
    })
    const paths = await clistPaths()
    expect(paths.at(-1)).toBe('/statistics/?contest_id=63624502&new_rating__isnull=false&limit=1')
  })

  it('waits for ratings while asked to, then publishes standings without them', async () => {
    const wait = { awaitRatingsUntil: RECORDED_AT + 3_600_000 }
    const early = await clistContestResults(access(), kattis, AUTUMN_CUP_2, ['quiet-fox'], wait)
    expect(early).toEqual({ state: 'pending' })
    const later = await clistContestResults(
      access({ now: RECORDED_AT + 7_200_000 }),
      kattis,
      AUTUMN_CUP_2,
      ['quiet-fox'],
      wait,
    )
    expect(later).toMatchObject({ state: 'published', rated: false })
  })

  it('is pending while clist has parsed no standings, or does not list the contest', async () => {
    const srm = recordedContests.objects.find((c) => c.id === 63471290)!
    await standIn.script({
      pathPrefix: '/clist/contest/',
      responses: [
        {
          status: 200,
          body: {
            meta: { limit: 1000, offset: 0, next: null, previous: null, total_count: null },
            objects: [{ ...srm, n_statistics: null, parsed_at: null }],
          },
        },
      ],
    })
    expect(await clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc'])).toEqual({
      state: 'pending',
    })
    await standIn.reset()
    const elsewhere = {
      ...SRM_869,
      platformId: 'clist-1',
      startTime: SRM_869.startTime + 86_400_000,
    }
    expect(await clistContestResults(access(), topcoder, elsewhere, ['kestrel_tc'])).toEqual({
      state: 'pending',
    })
    // Nothing more was asked about a contest clist does not have.
    expect(await clistPaths()).toHaveLength(1)
  })

  it('asks no statistics when none of the handles has a clist account there', async () => {
    const results = await clistContestResults(access(), topcoder, SRM_869, ['a,b', 'unknown'])
    expect(results).toMatchObject({ state: 'published', rated: true, rows: [] })
    const paths = await clistPaths()
    expect(paths[1]).toContain('handle__in=unknown&')
    expect(paths.filter((p) => p.startsWith('/statistics/'))).toHaveLength(1)
  })
})

describe('clist.by statistics: pages', () => {
  /** Answers the statistics requests with `bodies` in turn (the last repeats). */
  const serveStatistics = (...bodies: unknown[]) =>
    standIn.script({
      pathPrefix: '/clist/statistics/',
      responses: bodies.map((body) => ({ status: 200, body })),
    })

  it('follows a full page through meta.next, asked under CLIST_API_URL, to a short one', async () => {
    // clist answered pages of two (its own limit below the 1000 asked): the first is full.
    await serveStatistics(statisticsPage1, statisticsPage2)
    const results = await clistContestResults(access(), topcoder, SRM_869, [
      'kestrel_tc',
      'marble_owl',
      'ferrous',
    ])
    expect(results).toMatchObject({ state: 'published', rated: true })
    const rows = results.state === 'published' ? results.rows : []
    expect(rows.map((r) => r.handle).sort()).toEqual(['ferrous', 'kestrel_tc', 'marble_owl'])
    const asked = (await clistPaths()).filter((p) => p.startsWith('/statistics/'))
    // meta.next names clist's own prefix (/api/v4); its query is asked under the base setting.
    expect(asked).toEqual([
      expect.stringMatching(/^\/statistics\/\?contest_id=63471290&account_id__in=.*&limit=1000$/),
      '/statistics/?contest_id=63471290&account_id__in=7201101,7201102,7201103&limit=2&offset=2',
    ])
  })

  it('never answers in part: past the page bound, or a next that is not the next page, fails', async () => {
    // A full page again and again: the bound stops it rather than drop what lies beyond.
    await serveStatistics(statisticsPage1)
    const endless = await upstreamFailure(
      clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc']),
      'api',
    )
    expect(endless.message).toContain(`more than ${CLIST_LIST_PAGES} pages`)
    const asked = (await clistPaths()).filter((p) => p.startsWith('/statistics/'))
    expect(asked).toHaveLength(CLIST_LIST_PAGES)

    await standIn.reset()
    const elsewhere = { ...statisticsPage1.meta, next: '/api/v4/account/?limit=2&offset=2' }
    await serveStatistics({ ...statisticsPage1, meta: elsewhere })
    const wrong = await upstreamFailure(
      clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc']),
      'malformed',
    )
    expect(wrong.message).toContain('is not the next page')
  })
})

describe('clist.by statistics: which contest, without clist’s id', () => {
  // Three topcoder.com contests start within an hour of 12:00 on 14 November (the recorded
  // lookup by start); the catalogue's contest is keyed by a clist id clist no longer lists.
  const ROUND_START = Date.parse('2026-11-14T12:00:00Z')
  const round = (fields: Partial<EndedContest>): EndedContest => ({
    platformId: 'clist-63500001',
    startTime: ROUND_START,
    endTime: ROUND_START + 5_400_000,
    type: 'OTHER',
    ...fields,
  })
  const serveContests = (objects: unknown[] = sameStart.objects) =>
    standIn.script({
      pathPrefix: '/clist/contest/',
      responses: [{ status: 200, body: { ...sameStart, objects } }],
    })
  /** The contest the statistics were asked of, and the participants told. */
  async function matched(contest: EndedContest) {
    const results = await clistContestResults(access(), topcoder, contest, ['kestrel_tc'])
    const statistics = (await clistPaths()).find((p) => p.startsWith('/statistics/'))
    return {
      participants: results.state === 'published' ? results.participants : undefined,
      contestId: /contest_id=(\d+)/.exec(statistics ?? '')?.[1],
    }
  }

  it('refuses when several start within the hour and no name tells them apart', async () => {
    await serveContests()
    const error = await upstreamFailure(
      clistContestResults(access(), topcoder, round({ name: 'TCO27 Algorithm Round 1' }), [
        'kestrel_tc',
      ]),
      'api',
    )
    expect(error.message).toContain('3 topcoder.com contests start within an hour')
    expect(error.message).toContain('TCO27 Algorithm Round 1A (clist 63569101)')
    expect(error.message).toContain('no results are read')
    // Nothing was asked about any of them.
    expect(await clistPaths()).toHaveLength(1)
    // Without a name to go by, the same.
    await serveContests()
    await upstreamFailure(clistContestResults(access(), topcoder, round({}), ['kestrel_tc']), 'api')
  })

  it('takes the one its name is most like, its numbers held, the closest start when alike', async () => {
    await serveContests()
    expect(await matched(round({ name: 'TCO27 Algorithm Round 1B' }))).toEqual({
      participants: 574,
      contestId: '63569102',
    })
    await standIn.reset()
    await serveContests()
    const marathon = round({ name: 'Marathon Match 164', startTime: ROUND_START + 2_400_000 })
    expect(await matched(marathon)).toMatchObject({ contestId: '63569240' })
  })

  it('takes the one the mapping gives its platformId, or the only one of its resource', async () => {
    await serveContests()
    const byId = round({ platformId: 'clist-63569101', name: 'Round 1 (renamed)' })
    expect(await matched(byId)).toMatchObject({ contestId: '63569101', participants: 611 })
    await standIn.reset()
    // Another resource's contest at the same start is none of the candidates.
    const [first] = sameStart.objects
    const other = { ...first, id: 63569999, resource: 'codingame.com', host: 'codingame.com' }
    await serveContests([first, other])
    expect(await matched(round({ name: 'Something else' }))).toMatchObject({
      contestId: '63569101',
    })
  })
})

describe('clist.by statistics: the budget and failures', () => {
  it('takes one request of the shared budget per request, and asks nothing once refused', async () => {
    let taken = 0
    const budget = access({
      takeRequest: async () => (++taken <= 2 ? { allowed: true } : { allowed: false, retryAt: 99 }),
    })
    const error = await clistContestResults(budget, topcoder, SRM_869, ['kestrel_tc']).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ClistBudgetSpent)
    expect((error as ClistBudgetSpent).retryAt).toBe(99)
    expect(await clistPaths()).toHaveLength(2)
  })

  it("reports clist's own limit as a 429 with its Retry-After, and a refused key as 401", async () => {
    await configureClist({ limitPerMinute: 2, now: RECORDED_AT })
    const limited = await upstreamFailure(
      clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc']),
      'status',
    )
    expect(limited.status).toBe(429)
    expect(limited.retryAfter).toBeGreaterThan(0)
    await configureClist({ reset: true, apiKey: 'someone:else' })
    const refused = await upstreamFailure(
      clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc']),
      'status',
    )
    expect(refused.status).toBe(401)
  })

  it('throws malformed for statistics that are not the documented rows', async () => {
    await standIn.script({
      pathPrefix: '/clist/statistics/',
      responses: [
        { status: 200, body: { meta: { limit: 1000, offset: 0 }, objects: [{ id: 1 }] } },
      ],
    })
    await upstreamFailure(
      clistContestResults(access(), topcoder, SRM_869, ['kestrel_tc']),
      'malformed',
    )
  })

  it("refuses, as clist does, statistics asked for by handle (not one of clist's filters)", async () => {
    const res = await fetch(`${standInUrl}/clist/statistics/?handle=kestrel_tc`, {
      headers: { Authorization: `ApiKey ${API_KEY}` },
    })
    expect(res.status).toBe(400)
    const unfiltered = await fetch(`${standInUrl}/clist/statistics/?place__isnull=false`, {
      headers: { Authorization: `ApiKey ${API_KEY}` },
    })
    expect(await unfiltered.json()).toEqual({
      error:
        "One of ['contest_id', 'contest_id', 'account_id', 'account_id', 'coder_id'] is required",
    })
  })
})

describe('clist.by rating history of a handle', () => {
  it('lists its rated contests oldest first, the first one from its new rating', async () => {
    const points = await clistHandleHistory(access(), topcoder, 'kestrel_tc')
    expect(points).toEqual([
      {
        contestName: 'Single Round Match 862',
        time: Date.parse('2026-08-20T13:30:00Z'),
        rank: 55,
        oldRating: 1874,
        newRating: 1874,
      },
      {
        contestName: 'Single Round Match 866',
        time: Date.parse('2026-09-24T13:30:00Z'),
        rank: 31,
        oldRating: 1874,
        newRating: 1912,
      },
      {
        contestName: 'Single Round Match 869',
        time: Date.parse('2026-10-29T13:30:00Z'),
        rank: 12,
        oldRating: 1912,
        newRating: 1987,
      },
    ])
    expect(await clistHandleHistory(access(), topcoder, 'nobody')).toEqual([])
  })
})
