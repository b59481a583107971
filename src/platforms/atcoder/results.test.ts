// AtCoder's results module: the profile proof, a contest's results list (pending, published,
// unrated, re-rated), the history and the colours, against the stand-in serving the recorded
// answers.
import { beforeEach, describe, expect, it } from 'vitest'
import { serveResults } from '../../../test/helpers/platforms.ts'
import {
  expectSent,
  requestPaths,
  shiftedJson,
  standInRequest,
  upstreamFailure,
  WEEK_MS,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import type { ContestResults, EndedContest, ResultRow } from '../results.ts'
import { matchStandInRoute, standInRoutes } from '../stand-in-routes.ts'
import historyBroken from './fixtures/results/history-broken.json'
import profileBroken from './fixtures/results/profile-broken.html?raw'
import profileNoAffiliation from './fixtures/results/profile-no-affiliation.html?raw'
import profileNotFound from './fixtures/results/profile-not-found.html?raw'
import profilePage from './fixtures/results/profile-sakura_k.html?raw'
import resultsRecalculated from './fixtures/results/results-abc481-recalculated.json'
import resultsAbc481 from './fixtures/results/results-abc481.json'
import resultsBroken from './fixtures/results/results-broken.json'
import { atcoder } from './index.ts'
import { atcoderRank, atcoderResults, readAtcoderProfile } from './results.ts'

const BASE = '/atcoder'
const request = () => standInRequest(BASE)

function ended(platformId: string, startIso: string, minutes: number, type: string): EndedContest {
  const startTime = Date.parse(startIso)
  return { platformId, startTime, endTime: startTime + minutes * MINUTE_MS, type }
}
// From the recorded /contests page: ABC 481 ended the day before the recorded moment, ARC 211
// was running; the student championship's final is not a type of the catalogue but has results.
const ABC_481 = ended('abc481', '2026-11-21T21:00:00+09:00', 100, 'ABC')
const ARC_211 = ended('arc211', '2026-11-22T21:00:00+09:00', 120, 'ARC')
const JSC_FINAL = ended('jsc2026-final', '2026-11-08T13:00:00+09:00', 180, 'ABC')

const results = (contest: EndedContest) => atcoderResults.contestResults!(request(), contest)
const profile = (handle: string) => atcoderResults.proof.profile(request(), handle)

function row(answer: ContestResults, handle: string): ResultRow {
  if (answer.state !== 'published') throw new Error(`expected published, got ${answer.state}`)
  const found = answer.rows.find((r) => r.handle === handle)
  if (!found) throw new Error(`no row for ${handle}`)
  return found
}

const script = (pathPrefix: string, body: unknown, status = 200) =>
  standIn.script({ pathPrefix: `${BASE}${pathPrefix}`, responses: [{ status, body }] })

beforeEach(async () => {
  await standIn.reset()
  await serveResults('atcoder')
})

describe('AtCoder colours', () => {
  it.each([
    [0, 'Gray', '#808080'],
    [399, 'Gray', '#808080'],
    [400, 'Brown', '#804000'],
    [800, 'Green', '#008000'],
    [1199, 'Green', '#008000'],
    [1200, 'Cyan', '#00c0c0'],
    [1600, 'Blue', '#0000ff'],
    [2000, 'Yellow', '#c0c000'],
    [2400, 'Orange', '#ff8000'],
    [2799, 'Orange', '#ff8000'],
    [2800, 'Red', '#ff0000'],
    [3900, 'Red', '#ff0000'],
  ])('%i is %s', (rating, title, colour) => {
    expect(atcoderRank(rating)).toEqual({ title, colour })
  })
})

describe('AtCoder proof', () => {
  it('reads the Affiliation and the rating of the English profile page', async () => {
    expect(await profile('sakura_k')).toEqual({
      handle: 'sakura_k',
      fields: ['Kyoto University & CAS-3M8T6QZR'],
      rating: 1631,
    })
    const [sent] = await standIn.requests(`${BASE}/`)
    expectSent(sent, `${BASE}/users/sakura_k?lang=en`, 'GET')
  })

  it('gives the name as AtCoder spells it, and no fields where the rows are absent', async () => {
    await script('/users/hoshi_zora', profileNoAffiliation)
    expect(await profile('hoshi_zora')).toEqual({ handle: 'Hoshi_Zora', fields: [] })
  })

  it("gives undefined on AtCoder's 404, and asks nothing for what cannot be a user", async () => {
    await script('/users/nobody_here', profileNotFound, 404)
    expect(await profile('nobody_here')).toBeUndefined()
    expect(await profile('a/b')).toBeUndefined()
    expect(await profile('x')).toBeUndefined()
    expect(await requestPaths(`${BASE}/`)).toEqual([`${BASE}/users/nobody_here?lang=en`])
  })

  it('reports a page that is not a profile as malformed, and a 503 as a status error', async () => {
    await script('/users/sakura_k', profileBroken)
    await upstreamFailure(profile('sakura_k'), 'malformed')
    await script('/users/sakura_k', '<html>busy</html>', 503)
    expect((await upstreamFailure(profile('sakura_k'), 'status')).status).toBe(503)
  })

  it('reads the same profile after the markup is reformatted', () => {
    const reworked = profilePage
      .replace(/>\s+</g, '><')
      .replace(/class="username"/g, "class='username bold'")
      .replace(/<th class="no-break">/g, '<TH  class="no-break" >')
    expect(reworked).not.toBe(profilePage)
    expect(readAtcoderProfile(reworked)).toEqual(readAtcoderProfile(profilePage))
  })
})

describe('AtCoder contest results', () => {
  it('reads the published list: places, ratings and performances of the rated', async () => {
    const answer = await results(ABC_481)
    expect(answer).toMatchObject({ state: 'published', rated: true, participants: 5 })
    expect(row(answer, 'sakura_k')).toEqual({
      handle: 'sakura_k',
      rank: 3,
      oldRating: 1577,
      newRating: 1631,
      performance: 2043,
    })
    expect(await requestPaths(`${BASE}/`)).toEqual([`${BASE}/contests/abc481/results/json`])
  })

  it('gives the deltas and the colours crossed, and a first rating from 0', async () => {
    const answer = await results(ABC_481)
    const change = (handle: string) => {
      const r = row(answer, handle)
      const colours = [atcoderRank(r.oldRating!).title, atcoderRank(r.newRating!).title]
      return [r.newRating! - r.oldRating!, ...colours]
    }
    expect(change('sakura_k')).toEqual([54, 'Cyan', 'Blue'])
    expect(change('hoshi')).toEqual([-22, 'Cyan', 'Green'])
    expect(change('tanuki_7')).toEqual([-3, 'Green', 'Brown'])
    expect(change('kestrel')).toEqual([211, 'Gray', 'Gray'])
  })

  it('keeps only the place of a participant above the rated range', async () => {
    expect(row(await results(ABC_481), 'mochi_ac')).toEqual({ handle: 'mochi_ac', rank: 1 })
  })

  it('is pending while AtCoder lists nobody', async () => {
    expect(await results(ARC_211)).toEqual({ state: 'pending' })
  })

  it('publishes an unrated contest (IsRated false for all) with places only', async () => {
    expect(await results(JSC_FINAL)).toEqual({
      state: 'published',
      rated: false,
      participants: 2,
      rows: [
        { handle: 'mochi_ac', rank: 1 },
        { handle: 'sakura_k', rank: 2 },
      ],
    })
  })

  it('reads a re-rated list with the new numbers', async () => {
    expect(resultsRecalculated).not.toEqual(resultsAbc481)
    await script('/contests/abc481/results/json', resultsRecalculated)
    const answer = await results(ABC_481)
    expect(row(answer, 'sakura_k')).toMatchObject({ rank: 4, newRating: 1626 })
  })

  it('reports an entry that fails the schema as malformed, never as not published', async () => {
    await script('/contests/abc481/results/json', resultsBroken)
    const error = await upstreamFailure(results(ABC_481), 'malformed')
    expect(error.message).toMatch(/Place|UserScreenName/)
  })

  it('reports an answer that is not a list, or cut short, as malformed', async () => {
    await script('/contests/abc481/results/json', { results: resultsAbc481 })
    await upstreamFailure(results(ABC_481), 'malformed')
    await script('/contests/abc481/results/json', JSON.stringify(resultsAbc481).slice(0, 200))
    await upstreamFailure(results(ABC_481), 'malformed')
  })
})

describe('AtCoder rating history', () => {
  it('reads history/json as the rated contests, oldest first', async () => {
    const points = await atcoderResults.history(request(), 'sakura_k')
    expect(points.map((p) => p.platformId)).toEqual(['abc430', 'abc479', 'abc481'])
    expect(points[2]).toEqual({
      contestName: 'AtCoder Beginner Contest 481',
      platformId: 'abc481',
      time: Date.parse('2026-11-21T13:40:00Z'),
      rank: 3,
      oldRating: 1577,
      newRating: 1631,
    })
  })

  it('reports a history that is not a list as malformed', async () => {
    await script('/users/sakura_k/history/json', historyBroken)
    await upstreamFailure(atcoderResults.history(request(), 'sakura_k'), 'malformed')
  })
})

describe('the atcoder descriptor', () => {
  it('declares its results: per contest, one request every 2 seconds', () => {
    expect(atcoder.results).toBe(atcoderResults)
    expect(atcoderResults).toMatchObject({ scope: 'contest', minIntervalMs: 2_000 })
  })

  it('moves the recorded end times by whole weeks for a later stand-in', () => {
    const moved = shiftedJson(atcoderResults.fixtures[0], resultsAbc481, WEEK_MS)
    expect(moved[1].EndTime).toBe('2026-11-28T22:40:00+09:00')
    expect(moved[1].NewRating).toBe(resultsAbc481[1].NewRating)
  })

  it('serves each recorded answer where the module asks for it (npm start, seed)', async () => {
    await results(ABC_481)
    await results(ARC_211)
    await results(JSC_FINAL)
    await profile('sakura_k')
    await atcoderResults.history(request(), 'sakura_k')
    const routes = standInRoutes()
    const files = (await standIn.requests(`${BASE}/`)).map((sent) => {
      const route = matchStandInRoute(routes, sent.method, new URL(sent.path, 'http://stand-in'))
      return route?.filePath.replace('src/platforms/atcoder/fixtures/results/', '')
    })
    expect(files).toEqual([
      'results-abc481.json',
      'results-empty.json',
      'results-jsc2026-final.json',
      'profile-sakura_k.html',
      'history-sakura_k.json',
    ])
  })
})
