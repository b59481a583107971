// CodeChef's results module against the stand-in: the profile page's name as the proof, a
// handle's line from the page's rating history (pending, published, not rated), keyed by the
// round's own code, the history, the stars, and pages that are not profiles.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  expectSent,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import type { EndedContest } from '../results.ts'
import { matchStandInRoute, standInRoutes } from '../stand-in-routes.ts'
import profileBroken from './fixtures/results/profile-broken.html?raw'
import profileChallenge from './fixtures/results/profile-challenge.html?raw'
import profileFresh from './fixtures/results/profile-fresh_chef.html?raw'
import profileRated from './fixtures/results/profile-lotus_byte-rated.html?raw'
import profilePage from './fixtures/results/profile-lotus_byte.html?raw'
import { codechef } from './index.ts'
import {
  codechefEntryRating,
  codechefResults,
  codechefRound,
  codechefStars,
  readCodechefProfile,
  shiftCodechefProfile,
} from './results.ts'

const request = () => standInRequest('/codechef')
const HTML = 'text/html; charset=utf-8'

/** Starters `n` as the catalogue keys it (its own code), ending Wednesday 22:00 in India. */
function starters(n: number): EndedContest {
  const endTime = Date.parse('2026-11-18T22:00:00+05:30') - (264 - n) * 7 * 86_400_000
  return {
    platformId: `START${n}`,
    startTime: endTime - 7_200_000,
    endTime,
    type: 'STARTERS',
  }
}

const serve = (...pages: string[]) => scriptOk('GET', '/codechef/users/', pages, HTML)
const handleResult = (contest: EndedContest, handle = 'lotus_byte') =>
  codechefResults.handleResult!(request(), contest, handle)

beforeEach(() => standIn.reset())

describe('CodeChef proof', () => {
  it('reads the username and the name the profile page shows, and the current rating', async () => {
    await serve(profilePage)
    expect(await codechefResults.proof.profile(request(), 'lotus_byte')).toEqual({
      handle: 'lotus_byte',
      fields: ['Asha Verma cas-9ZP3RT2M'],
      rating: 1812,
    })
    const [sent] = await standIn.requests('/codechef/')
    expectSent(sent, '/codechef/users/lotus_byte', 'GET')
  })

  it('has no rating for a handle never rated', async () => {
    await serve(profileFresh)
    expect(await codechefResults.proof.profile(request(), 'fresh_chef')).toEqual({
      handle: 'fresh_chef',
      fields: ['Ravi Nair'],
    })
  })

  it('has no profile when CodeChef answers 404 or redirects away, nor for no handle', async () => {
    await standIn.script({
      pathPrefix: '/codechef/users/',
      responses: [
        { status: 302, headers: { location: '/' } },
        { status: 404, body: '<html>Not found</html>' },
      ],
    })
    expect(await codechefResults.proof.profile(request(), 'nobody_here')).toBeUndefined()
    expect(await codechefResults.proof.profile(request(), 'nobody_here')).toBeUndefined()
    expect(await codechefResults.proof.profile(request(), '../admin')).toBeUndefined()
    // The redirect was not followed: two requests, both to the profile.
    const paths = (await standIn.requests('/codechef/')).map((r) => r.path)
    expect(paths).toEqual(['/codechef/users/nobody_here', '/codechef/users/nobody_here'])
  })

  it("reads Cloudflare's challenge as blocked (403) or malformed (200), never as a profile", async () => {
    await standIn.script({
      pathPrefix: '/codechef/users/',
      responses: [
        { status: 403, body: profileChallenge },
        { status: 200, body: profileChallenge },
      ],
    })
    const blocked = await upstreamFailure(codechefResults.proof.profile(request(), 'lotus_byte'))
    expect(blocked.blocked).toBe(true)
    await upstreamFailure(codechefResults.proof.profile(request(), 'lotus_byte'), 'malformed')
  })
})

describe('CodeChef results of a handle', () => {
  it('reads a rated round by its own code from the division the handle was rated in', async () => {
    await serve(profilePage)
    expect(await handleResult(starters(263))).toEqual({
      handle: 'lotus_byte',
      rank: 590,
      oldRating: 1799,
      newRating: 1812,
    })
    // The catalogue before the round-code change keyed a round by a child code: the same round.
    expect(await handleResult({ ...starters(263), platformId: 'START263B' })).toMatchObject({
      newRating: 1812,
    })
  })

  it('is pending until the round is in the history, then reads it', async () => {
    await serve(profilePage, profileRated)
    expect(await handleResult(starters(264))).toBe('pending')
    const row = await handleResult(starters(264))
    expect(row).toEqual({ handle: 'lotus_byte', rank: 402, oldRating: 1812, newRating: 1846 })
  })

  it('gives nothing for a round the history went past without (not rated in it)', async () => {
    await serve(profilePage)
    expect(await handleResult(starters(261))).toBeUndefined()
  })

  it('gives nothing for a handle CodeChef does not have', async () => {
    await standIn.script({ pathPrefix: '/codechef/users/', responses: [{ status: 404 }] })
    expect(await handleResult(starters(263), 'nobody_here')).toBeUndefined()
    expect(await codechefResults.history(request(), 'nobody_here')).toEqual([])
  })

  it('throws malformed for a history that is not the documented rows, or none at all', async () => {
    const noScript = profilePage.replace(/var all_rating = [^;]*;/, '')
    await serve(
      profileBroken,
      noScript,
      profilePage.replace('var all_rating = [', 'var all_rating = [{'),
    )
    await upstreamFailure(handleResult(starters(263)), 'malformed')
    await upstreamFailure(handleResult(starters(263)), 'malformed')
    await upstreamFailure(handleResult(starters(263)), 'malformed')
  })

  it('reads the older Drupal settings object when the page has no all_rating', () => {
    const rows = /var all_rating = (\[[^;]*\]);/.exec(profilePage)![1]
    const drupal = profilePage.replace(
      /var all_rating = [^;]*;/,
      `jQuery.extend(Drupal.settings, {"date_versus_rating":{"all":${rows}}});`,
    )
    expect(readCodechefProfile(drupal).ratings).toEqual(readCodechefProfile(profilePage).ratings)
  })
})

describe('CodeChef rating history and stars', () => {
  it('lists the rated rounds oldest first, at their end in India time, from the entry rating', () => {
    const { ratings } = readCodechefProfile(profilePage)
    expect(ratings[0]).toEqual({
      code: 'START258B',
      name: 'Starters 258 Division 2 (Rated)',
      rating: 1688,
      rank: 1412,
      endTime: Date.parse('2026-10-07T22:00:06+05:30'),
    })
  })

  it('gives the history keyed by round, each point from the rating before it', async () => {
    await serve(profilePage)
    const points = await codechefResults.history(request(), 'lotus_byte')
    expect(points.map((p) => p.platformId)).toEqual([
      'START258',
      'START259',
      'START260',
      'START262',
      'START263',
    ])
    expect(points[0]).toMatchObject({ oldRating: 1000, newRating: 1688, rank: 1412 })
    expect(points[4]).toMatchObject({ oldRating: 1799, newRating: 1812 })
    expect(codechefStars(points[3].newRating).title).toBe('3★')
    expect(codechefStars(points[4].newRating).title).toBe('4★')
  })

  it('names the stars at their bounds', () => {
    const titles = [1399, 1400, 1599, 1600, 1800, 2000, 2199, 2200, 2499, 2500].map(
      (r) => codechefStars(r).title,
    )
    expect(titles).toEqual(['1★', '2★', '2★', '3★', '4★', '5★', '5★', '6★', '6★', '7★'])
    expect(codechefStars(1229).colour).toBe('#666666')
  })

  it('starts a first rated round at 1000 since Starters 25, at 1500 before', () => {
    expect(codechefEntryRating(Date.UTC(2022, 1, 9, 16))).toBe(1000)
    expect(codechefEntryRating(Date.UTC(2021, 11, 1))).toBe(1500)
  })

  it('keys a division child by its round, other codes as they are', () => {
    expect(codechefRound('START79D')).toBe('START79')
    expect(codechefRound('COOK160A')).toBe('COOK160')
    expect(codechefRound('NOV261B')).toBe('NOV261')
    expect(codechefRound('LTIME125')).toBe('LTIME125')
    expect(codechefRound('TCUP2026')).toBe('TCUP2026')
  })
})

describe('the codechef descriptor and its recorded pages', () => {
  it('declares per-handle results read from profile pages', () => {
    expect(codechef.results).toBe(codechefResults)
    expect(codechefResults.scope).toBe('handle')
    expect(codechefResults.minIntervalMs).toBeGreaterThanOrEqual(1_000)
  })

  it('serves each profile at its path, its end dates moved with the stand-in', () => {
    const route = matchStandInRoute(
      standInRoutes(),
      'GET',
      new URL('http://s/codechef-api/users/lotus_byte'),
    )
    expect(route?.file).toBe('fixtures/results/profile-lotus_byte.html')
    const week = 7 * 86_400_000
    const moved = readCodechefProfile(shiftCodechefProfile(profilePage, week)).ratings
    const recorded = readCodechefProfile(profilePage).ratings
    expect(moved.map((r) => r.endTime)).toEqual(recorded.map((r) => r.endTime + week))
  })
})
