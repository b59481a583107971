// Results asked per handle (LeetCode, its real module against the stand-in's GraphQL answers):
// each linked handle is asked once a contest. The pending probe is the only handle asked more than
// once, never after it answered; a published contest is not re-checked, and neither a duplicate
// or lost walk message nor an operator's ask-now asks a handle answered again.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { LEETCODE_SITE } from '../src/platforms/leetcode/results.ts'
import { standInPath } from '../src/platforms/stand-in-routes.ts'
import { CLAIM_MS, NEVER } from '../src/results/backoff.ts'
import { dueChecks, findCheck, makeCheckDue } from '../src/results/checks.ts'
import { askCheck, type Pace } from '../src/results/consumer.ts'
import { recipient, resetNotifications, testEnv } from './helpers/notifications.ts'
import {
  clearResults,
  endedContest,
  linkHandle,
  recordingResultsQueue,
  testResultsDeps,
} from './helpers/results.ts'
import { standIn } from './helpers/stand-in.ts'

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
})

const PATH = `${standInPath('LEETCODE_API_URL')}${LEETCODE_SITE.history.path}`
const TITLE = 'Weekly Contest 530'

/** A history answer: an earlier contest, and the round's entry once it is published. */
function history(startSeconds: number, entry?: { rating: number; ranking: number }) {
  const earlier = {
    attended: true,
    rating: 1600,
    ranking: 900,
    problemsSolved: 2,
    contest: { title: 'Weekly Contest 529', startTime: startSeconds - 7 * 86_400 },
  }
  const round = entry && {
    attended: true,
    ...entry,
    problemsSolved: 3,
    contest: { title: TITLE, startTime: startSeconds },
  }
  return { data: { userContestRankingHistory: round ? [earlier, round] : [earlier] } }
}

/** The handle `username` answers `bodies` in turn (the last repeats). */
const answer = (username: string, bodies: unknown[]) =>
  standIn.script({
    method: 'POST',
    pathPrefix: PATH,
    body: { operationName: 'userContestRankingHistory', variables: { username } },
    responses: bodies.map((body) => ({ status: 200, body })),
  })

/** Requests the stand-in received for each handle's history. */
async function askedPerHandle() {
  const counts: Record<string, number> = {}
  for (const r of await standIn.requests(PATH)) {
    const { variables } = JSON.parse(r.body) as { variables: { username: string } }
    counts[variables.username] = (counts[variables.username] ?? 0) + 1
  }
  return counts
}

describe('LeetCode results pacing', () => {
  it('asks each linked handle once a contest: no re-check, no second ask after a duplicate, a lost message or an ask-now', async () => {
    const ada = await recipient({ name: 'Ada' })
    const bob = await recipient({ name: 'Bob' })
    await linkHandle(ada.id, 'leetcode', 'ana_lc')
    await linkHandle(bob.id, 'leetcode', 'ben_lc')
    await linkHandle(ada.id, 'leetcode', 'cy_lc', { relation: 'FRIEND' })
    const round = await endedContest('leetcode', 'weekly-contest-530', { name: TITLE })
    const start = Math.floor(round.startTime / 1000)
    // The first handle (the probe) answers pending twice, then the published history; the others
    // are published when they are first asked.
    await answer('ana_lc', [
      history(start),
      history(start),
      history(start, { rating: 1650, ranking: 120 }),
    ])
    await answer('ben_lc', [history(start, { rating: 1580, ranking: 4000 })])
    await answer('cy_lc', [history(start, { rating: 1700, ranking: 80 })])
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'leetcode',
    ])
    // Two tokens an invocation: the ask's own and one more, so a walk of three handles pauses.
    let tokens = 0
    const pace = async (): Promise<Pace> =>
      tokens-- > 0 ? { allowed: true } : { allowed: false, retryAt: Date.now() + 5_000 }
    const { deps, queue } = testResultsDeps(testEnv(), { pace })
    const ask = (body: { contestId: string; after?: string }, at: number) => {
      tokens = 2
      return askCheck(deps, body, at)
    }
    const check = async () => (await findCheck(createDb(env.DB), round.id))!

    let at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('pending')
    at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('pending')
    expect(await askedPerHandle()).toEqual({ ana_lc: 2 })

    at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('walking')
    const walkOn = queue.sent.at(-1)!.body
    expect(walkOn).toEqual({ contestId: round.id, after: 'ben_lc' })
    // The walk's message is lost: the sweep finds the check due once the pause is over, and its
    // message goes on from where the walk stopped, not from the first handle.
    const paused = (await check()).nextCheckAt
    expect(await dueChecks(createDb(env.DB), paused - 1)).toEqual([])
    expect(await dueChecks(createDb(env.DB), paused)).toEqual([round.id])
    expect(await ask({ contestId: round.id }, paused)).toBe('published')
    // The lost message turns up late, and a duplicate of it: neither is held.
    expect(await ask(walkOn, paused + 1)).toBe('not-held')
    expect(await ask(walkOn, paused + 2)).toBe('not-held')
    const published = await check()
    expect(published).toMatchObject({ state: 'PUBLISHED', nextCheckAt: NEVER, walkAfter: 'cy_lc' })
    expect(await askedPerHandle()).toEqual({ ana_lc: 3, ben_lc: 1, cy_lc: 1 })

    // A day and three days later (a contest-wide judge's re-checks): nothing is due or asked.
    for (const later of [paused + DAY_MS, paused + 3 * DAY_MS + CLAIM_MS]) {
      expect(await dueChecks(createDb(env.DB), later)).toEqual([])
      expect(await ask({ contestId: round.id }, later)).toBe('not-held')
    }
    // An operator's ask-now walks on after the last handle answered: only a handle linked since
    // (after it in key order) is asked.
    await linkHandle(bob.id, 'leetcode', 'dee_lc')
    await answer('dee_lc', [history(start, { rating: 1500, ranking: 7000 })])
    const now = paused + 4 * DAY_MS
    await makeCheckDue(createDb(env.DB), round.id, now)
    expect(await ask({ contestId: round.id }, now)).toBe('published')
    expect(await askedPerHandle()).toEqual({ ana_lc: 3, ben_lc: 1, cy_lc: 1, dee_lc: 1 })
    const { results } = await env.DB.prepare(
      'SELECT handle_key AS k FROM contest_results WHERE contest_id = ?1 ORDER BY handle_key',
    )
      .bind(round.id)
      .all<{ k: string }>()
    expect(results.map((r) => r.k)).toEqual(['ana_lc', 'ben_lc', 'cy_lc', 'dee_lc'])
  })
})
