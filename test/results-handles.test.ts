// Results asked per linked handle (a judge without a whole-contest list, as LeetCode): the first
// handle's "pending" asks no further, the judge's pace is kept before each handle and a token not
// back queues the walk on from the last handle asked, and the walk's end is the publication.
// The judge here is a stand-in answering per handle; the LeetCode module comes with helper B.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { MINUTE_MS } from '../src/lib/time.ts'
import type { ResultRow, ResultsModule } from '../src/platforms/results.ts'
import { dueChecks, findCheck } from '../src/results/checks.ts'
import { askCheck, type Pace } from '../src/results/consumer.ts'
import { notificationsOf, recipient, resetNotifications, testEnv } from './helpers/notifications.ts'
import {
  clearResults,
  endedContest,
  linkHandle,
  recordingResultsQueue,
  testResultsDeps,
} from './helpers/results.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
})

const PATH = '/per-handle-judge/result'

/** A judge read per handle: `{pending: true}`, `{absent: true}` or the handle's line. */
const perHandle: ResultsModule = {
  proof: { where: 'About me', editUrl: `${standInUrl}/profile`, profile: async () => undefined },
  scope: 'handle',
  minIntervalMs: 1_000,
  async handleResult(request, contest, handle) {
    const res = await request.fetchFn(
      `${request.baseUrl}/result?contest=${contest.platformId}&handle=${handle}`,
    )
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    const body = (await res.json()) as { pending?: boolean; absent?: boolean } & ResultRow
    if (body.pending) return 'pending'
    if (body.absent) return undefined
    return body
  },
  history: async () => [],
  fixtures: [],
}

const answer = (handle: string, body: unknown) =>
  standIn.script({
    method: 'GET',
    pathPrefix: PATH,
    query: { handle },
    responses: [{ status: 200, body }],
  })

describe('results asked per handle', () => {
  it('stops at a first pending handle, keeps the pace before each handle, and walks on after a wait', async () => {
    const ada = await recipient({ name: 'Ada' })
    const bob = await recipient({ name: 'Bob' })
    await linkHandle(ada.id, 'leetcode', 'alice_lc')
    await linkHandle(bob.id, 'leetcode', 'bob_lc')
    await linkHandle(bob.id, 'leetcode', 'carol_lc', { relation: 'FRIEND' })
    await linkHandle(ada.id, 'leetcode', 'dan_lc', { relation: 'FRIEND' })
    const round = await endedContest('leetcode', 'weekly-contest-480')
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'leetcode',
    ])
    let tokens = Infinity
    const pace = async (): Promise<Pace> =>
      tokens-- > 0 ? { allowed: true } : { allowed: false, retryAt: Date.now() + 5_000 }
    const { deps, queue } = testResultsDeps(testEnv(), {
      module: (platform) => (platform === 'leetcode' ? perHandle : undefined),
      request: (_, now) => ({
        baseUrl: `${standInUrl}/per-handle-judge`,
        fetchFn: (input, init) => fetch(input, init),
        now,
      }),
      pace,
    })
    for (const handle of ['alice_lc', 'bob_lc', 'carol_lc', 'dan_lc']) {
      await answer(handle, { pending: true })
    }
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('pending')
    // The first handle said nothing is out yet: the others were not asked.
    expect((await standIn.requests(PATH)).length).toBe(1)

    await answer('alice_lc', { handle: 'alice_lc', rank: 120, oldRating: 1800, newRating: 1850 })
    await answer('bob_lc', { handle: 'bob_lc', rank: 900, oldRating: 1500, newRating: 1480 })
    await answer('carol_lc', { absent: true })
    await answer('dan_lc', { handle: 'dan_lc', rank: 40, oldRating: 2100, newRating: 2150 })
    const next = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt
    // Two tokens: the ask's own and one more, so two handles are asked and the walk waits.
    tokens = 2
    expect(await askCheck(deps, { contestId: round.id }, next)).toBe('walking')
    expect(queue.sent.at(-1)).toEqual({
      body: { contestId: round.id, after: 'bob_lc' },
      delaySeconds: expect.any(Number),
    })
    expect(queue.sent.at(-1)!.delaySeconds).toBeGreaterThan(0)
    expect(await notificationsOf(ada.id)).toEqual([])
    // The walk's own message goes on with it: the scheduler's sweep does not start it over.
    expect(await dueChecks(createDb(env.DB), Date.now())).toEqual([])

    tokens = Infinity
    const walkOn = queue.sent.at(-1)!.body
    expect(await askCheck(deps, walkOn, next + MINUTE_MS)).toBe('published')
    const asked = (await standIn.requests(PATH)).map((r) =>
      new URL(r.path, 'http://stand-in').searchParams.get('handle'),
    )
    // Once per handle after the pending probe: the pace is never spent twice on a handle.
    expect(asked).toEqual(['alice_lc', 'alice_lc', 'bob_lc', 'carol_lc', 'dan_lc'])
    expect(await findCheck(createDb(env.DB), round.id)).toMatchObject({
      state: 'PUBLISHED',
      rated: 1,
      participants: null,
    })
    const [adaAlert] = (await notificationsOf(ada.id)).filter((n) => n.payload.kind === 'result')
    expect(adaAlert.message).toContain('alice_lc: rank 120, rating 1,800 -> 1,850 (+50)')
    const [bobAlert] = await notificationsOf(bob.id)
    expect(bobAlert.message).toContain('bob_lc: rank 900, rating 1,500 -> 1,480 (-20)')
  })
})
