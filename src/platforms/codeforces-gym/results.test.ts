// Codeforces Gym's results module: a gym's final standings (teams, ghosts, not yet final) from
// the stand-in serving the recorded answer, and the proof it shares with Codeforces.
import { beforeEach, describe, expect, it } from 'vitest'
import { serveResults } from '../../../test/helpers/platforms.ts'
import {
  requestPaths,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { HOUR_MS } from '../../lib/time.ts'
import type { EndedContest } from '../results.ts'
import standings106204 from './fixtures/results/standings-106204.json'
import { codeforcesGym } from './index.ts'
import { codeforcesGymResults } from './results.ts'

const BASE = '/codeforces-api'
const request = () => standInRequest(BASE)
const start = Date.parse('2026-11-17T12:00:00Z')
const LATAM_MIRROR: EndedContest = {
  platformId: '106204',
  startTime: start,
  endTime: start + 5 * HOUR_MS,
  type: 'ICPC',
}
const results = () => codeforcesGymResults.contestResults!(request(), LATAM_MIRROR)

beforeEach(async () => {
  await standIn.reset()
  await serveResults('codeforces')
  await serveResults('codeforces-gym')
})

describe('Codeforces Gym results', () => {
  it('gives the final standings in one request, unrated, each team member a row', async () => {
    expect(await results()).toEqual({
      state: 'published',
      rated: false,
      // The onsite team (a ghost, without accounts) ranks first and is counted.
      participants: 3,
      rows: [
        { handle: 'Kestrel_09', rank: 2, solved: 2 },
        { handle: 'quokka', rank: 2, solved: 2 },
        { handle: 'newcomer_2026', rank: 2, solved: 2 },
        { handle: 'lynx_dev', rank: 3, solved: 1 },
      ],
    })
    expect(await requestPaths(`${BASE}/`)).toEqual([
      `${BASE}/contest.standings?contestId=106204&showUnofficial=false`,
    ])
  })

  it('is pending until the gym is FINISHED', async () => {
    const running = structuredClone(standings106204)
    running.result.contest.phase = 'CODING'
    await standIn.script({
      pathPrefix: `${BASE}/contest.standings`,
      responses: [{ status: 200, body: running }],
    })
    expect(await results()).toEqual({ state: 'pending' })
  })

  it('reports standings that fail the schema as malformed, named as the gym', async () => {
    const broken = structuredClone(standings106204) as { result: { rows: unknown[] } }
    broken.result.rows = [{ party: { members: 'Kestrel_09' }, rank: 2 }]
    await standIn.script({
      pathPrefix: `${BASE}/contest.standings`,
      responses: [{ status: 200, body: broken }],
    })
    const error = await upstreamFailure(results(), 'malformed')
    expect(error.platform).toBe('codeforces-gym')
  })

  it('proves a handle as Codeforces does, the account being the same', async () => {
    const profile = await codeforcesGymResults.proof.profile(request(), 'Kestrel_09')
    expect(profile?.fields).toContain('CAS-7Q4K9M2X')
    expect(await codeforcesGymResults.proof.profile(request(), 'nobody_here')).toBeUndefined()
  })

  it('has no rating history and no titles: a gym moves no rating', async () => {
    expect(await codeforcesGymResults.history(request(), 'Kestrel_09')).toEqual([])
    expect(codeforcesGymResults.rank).toBeUndefined()
    expect(await requestPaths(`${BASE}/`)).toEqual([])
  })

  it('is the descriptor of codeforces-gym, paced as the Codeforces API', () => {
    expect(codeforcesGym.results).toBe(codeforcesGymResults)
    expect(codeforcesGymResults).toMatchObject({ scope: 'contest', minIntervalMs: 2_000 })
  })
})
