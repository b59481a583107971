// Codeforces Gym from contest.list?gym=true: parsed from the recorded answer and fetched from the
// stand-in, which shares the codeforces base and tells the two lists apart by the query.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  expectSent,
  expectStatusError,
  ids,
  standInRequest,
} from '../../../test/helpers/platform-sources.ts'
import { servePlatform } from '../../../test/helpers/platforms.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { parseContestList } from '../codeforces/contest-list.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import gymList from './fixtures/contest-list-gym.json'
import { codeforcesGym, fetchCodeforcesGym } from './index.ts'

beforeEach(() => standIn.reset())

describe('Codeforces Gym list', () => {
  const parsed = () => parseContestList('codeforces-gym', gymList, RECORDED_AT)

  it('keeps only scheduled gyms that have not ended, in list order', () => {
    expect(ids(parsed())).toEqual(['106210', '106209', '106208', '106205'])
  })

  it('reads a running gym with its gym page as both links', () => {
    expect(byId(parsed(), '106205')).toEqual({
      platform: 'codeforces-gym',
      platformId: '106205',
      name: 'Universal Cup Stage 12: Nanjing',
      type: 'ICPC',
      startTime: Date.parse('2026-11-22T10:00:00Z'),
      endTime: Date.parse('2026-11-22T15:00:00Z'),
      websiteUrl: 'https://codeforces.com/gym/106205',
      registrationUrl: 'https://codeforces.com/gym/106205',
      platformMetadata: { codeforcesType: 'ICPC', phase: 'CODING' },
    })
  })

  it('drops training gyms without a start and finished gyms without counting them', () => {
    const result = parsed()
    for (const id of ['106207', '106204', '105001']) expect(ids(result)).not.toContain(id)
    expect(result.unsupported).toBe(0)
  })

  it('skips and explains a scheduled gym whose duration is not a number', () => {
    const result = parsed()
    expect(result.skipped).toBe(1)
    expect(result.errors).toEqual([
      expect.stringMatching(/^codeforces-gym contest 106206: durationSeconds/),
    ])
  })

  it('throws malformed for an answer without a result list', () => {
    expect(() => parseContestList('codeforces-gym', { status: 'OK' }, RECORDED_AT)).toThrow(
      expect.objectContaining({ kind: 'malformed', platform: 'codeforces-gym' }),
    )
  })
})

describe('fetchCodeforcesGym', () => {
  const fetchFromStandIn = () => fetchCodeforcesGym(standInRequest('/codeforces-api'))

  it('asks for contest.list?gym=true with English names, naming the service', async () => {
    await standIn.script({
      method: 'GET',
      pathPrefix: '/codeforces-api/contest.list',
      query: { gym: 'true' },
      responses: [{ status: 200, body: gymList, headers: { 'content-type': 'application/json' } }],
    })
    const result = await fetchFromStandIn()
    expect(ids(result)).toEqual(['106210', '106209', '106208', '106205'])
    const [sent] = await standIn.requests('/codeforces-api/')
    expectSent(sent, '/codeforces-api/contest.list?gym=true&lang=en', 'GET')
  })

  it('gets the recorded English answer from the stand-in, which serves it only to lang=en', async () => {
    expect(codeforcesGym.source!.fixtures[0].path).toBe('/contest.list?gym=true&lang=en')
    await servePlatform('codeforces-gym')
    expect(ids(await fetchFromStandIn())).toEqual(['106210', '106209', '106208', '106205'])
  })

  it('throws a status error carrying the HTTP status of a non-2xx answer', async () => {
    const error = await expectStatusError(
      '/codeforces-api/contest.list',
      '<html>Codeforces is temporarily unavailable</html>',
      fetchFromStandIn,
    )
    expect(error).toMatchObject({ kind: 'status', status: 503, platform: 'codeforces-gym' })
  })
})

describe('codeforces-gym on clist', () => {
  it('takes the gym id from the link, as the own source stores it', () => {
    const entry = clistEntry('https://codeforces.com/gym/106205', 'Universal Cup Stage 12: Nanjing')
    expect(codeforcesGym.clist!.contest(entry)).toEqual({ platformId: '106205', type: 'ICPC' })
    expect(
      codeforcesGym.clist!.contest({ ...entry, href: 'https://codeforces.com/contest/2299' }),
    ).toBeUndefined()
  })
})
