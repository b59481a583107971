// Results asked per handle (LeetCode, its real module against the stand-in's GraphQL answers):
// each linked handle is asked once a contest, ten a request under GraphQL aliases. The pending
// probe (the first batch) is the only request asked more than once, never after it answered; a
// published contest is not re-checked, and neither a duplicate or lost walk message nor an
// operator's ask-now asks a handle answered again.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { LEETCODE_HISTORY_BATCH, LEETCODE_SITE } from '../src/platforms/leetcode/results.ts'
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

/** The handle `username` answers `bodies` in turn (the last repeats), alone or in a batch. */
const answer = (username: string, bodies: unknown[]) =>
  standIn.script({
    method: 'POST',
    pathPrefix: PATH,
    body: { operationName: 'userContestRankingHistory', variables: { username } },
    responses: bodies.map((body) => ({ status: 200, body })),
  })

/** The handles each history request asked, in order (a batch names them as its variables). */
async function askedBatches() {
  return (await standIn.requests(PATH)).map((r) => {
    const { variables } = JSON.parse(r.body) as { variables: Record<string, string> }
    return Object.values(variables)
  })
}

/** Requests the stand-in received for each handle's history. */
async function askedPerHandle() {
  const counts: Record<string, number> = {}
  for (const handle of (await askedBatches()).flat()) counts[handle] = (counts[handle] ?? 0) + 1
  return counts
}

const lc = (n: number) => `lc${String(n).padStart(2, '0')}`
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
const each = (from: number, to: number, asks: number) =>
  Object.fromEntries(range(from, to).map((n) => [lc(n), asks]))

describe('LeetCode results pacing', () => {
  it('asks each linked handle once a contest, ten a request: no re-check, no second ask after a duplicate, a lost message or an ask-now', async () => {
    expect(LEETCODE_HISTORY_BATCH).toBe(10)
    const ada = await recipient({ name: 'Ada' })
    const bob = await recipient({ name: 'Bob' })
    // Twelve handles, own and friends': a batch of ten, then one of two.
    for (const n of range(1, 12)) {
      await linkHandle(n % 2 ? ada.id : bob.id, 'leetcode', lc(n), {
        relation: n <= 2 ? 'OWN' : 'FRIEND',
      })
    }
    const round = await endedContest('leetcode', 'weekly-contest-530', { name: TITLE })
    const start = Math.floor(round.startTime / 1000)
    // Nothing is published for two checks, then every history holds the round.
    for (const n of range(1, 12)) {
      const published = history(start, { rating: 1500 + n, ranking: 100 * n })
      await answer(lc(n), n <= 10 ? [history(start), history(start), published] : [published])
    }
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'leetcode',
    ])
    // One token an invocation, the ask's own: a walk of two batches pauses after the first.
    let tokens = 0
    const pace = async (): Promise<Pace> =>
      tokens-- > 0 ? { allowed: true } : { allowed: false, retryAt: Date.now() + 5_000 }
    const { deps, queue } = testResultsDeps(testEnv(), { pace })
    const ask = (body: { contestId: string; after?: string }, at: number) => {
      tokens = 1
      return askCheck(deps, body, at)
    }
    const check = async () => (await findCheck(createDb(env.DB), round.id))!

    // The probe is the first batch: one request a check while nothing is published.
    let at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('pending')
    at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('pending')
    expect(await askedBatches()).toEqual([range(1, 10).map(lc), range(1, 10).map(lc)])

    at = (await check()).nextCheckAt
    expect(await ask({ contestId: round.id }, at)).toBe('walking')
    const walkOn = queue.sent.at(-1)!.body
    expect(walkOn).toEqual({ contestId: round.id, after: lc(10) })
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
    expect(published).toMatchObject({ state: 'PUBLISHED', nextCheckAt: NEVER, walkAfter: lc(12) })
    expect((await askedBatches()).slice(2)).toEqual([range(1, 10).map(lc), [lc(11), lc(12)]])
    expect(await askedPerHandle()).toEqual({ ...each(1, 10, 3), ...each(11, 12, 1) })

    // A day and three days later (a contest-wide judge's re-checks): nothing is due or asked.
    for (const later of [paused + DAY_MS, paused + 3 * DAY_MS + CLAIM_MS]) {
      expect(await dueChecks(createDb(env.DB), later)).toEqual([])
      expect(await ask({ contestId: round.id }, later)).toBe('not-held')
    }
    // An operator's ask-now walks on after the last handle answered: only a handle linked since
    // (after it in key order) is asked.
    await linkHandle(bob.id, 'leetcode', lc(13))
    await answer(lc(13), [history(start, { rating: 1500, ranking: 7000 })])
    const now = paused + 4 * DAY_MS
    await makeCheckDue(createDb(env.DB), round.id, now)
    expect(await ask({ contestId: round.id }, now)).toBe('published')
    expect(await askedPerHandle()).toEqual({ ...each(1, 10, 3), ...each(11, 13, 1) })
    // Five requests for thirteen handles: two probes, then one request per ten handles.
    expect(await askedBatches()).toHaveLength(5)
    const { results } = await env.DB.prepare(
      'SELECT handle_key AS k FROM contest_results WHERE contest_id = ?1 ORDER BY handle_key',
    )
      .bind(round.id)
      .all<{ k: string }>()
    expect(results.map((r) => r.k)).toEqual(range(1, 13).map(lc))
  })

  it('counts a batch with a malformed alias as a failed check, never as handles that did not attend', async () => {
    const ada = await recipient({ name: 'Ada' })
    await linkHandle(ada.id, 'leetcode', 'aa_lc')
    await linkHandle(ada.id, 'leetcode', 'bb_lc', { relation: 'FRIEND' })
    const round = await endedContest('leetcode', 'weekly-contest-530', { name: TITLE })
    const start = Math.floor(round.startTime / 1000)
    const published = history(start, { rating: 1650, ranking: 120 }).data.userContestRankingHistory
    await standIn.script({
      method: 'POST',
      pathPrefix: PATH,
      body: { operationName: 'contestHistories' },
      responses: [{ status: 200, body: { data: { h0: published, h1: null } } }],
    })
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'leetcode',
    ])
    const { deps } = testResultsDeps(testEnv(), { pace: async () => ({ allowed: true }) })
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('failed')
    const failed = (await findCheck(createDb(env.DB), round.id))!
    expect(failed).toMatchObject({ state: 'WAITING', walkAfter: null, publishedAt: null })
    const error = await env.DB.prepare('SELECT error FROM result_checks WHERE contest_id = ?1')
      .bind(round.id)
      .first<string>('error')
    expect(error).toContain('h1')
    const stored = await env.DB.prepare(
      'SELECT count(*) AS n FROM contest_results WHERE contest_id = ?1',
    )
      .bind(round.id)
      .first<number>('n')
    expect(stored).toBe(0)
  })

  it('reads a probe with a line as published even when its first handle is still pending', async () => {
    const ada = await recipient({ name: 'Ada' })
    // The first handle by key has no contest in its history (pending whatever the day); the
    // second's history holds the round: the round is out.
    await linkHandle(ada.id, 'leetcode', 'aa_new')
    await linkHandle(ada.id, 'leetcode', 'bb_old', { relation: 'FRIEND' })
    const round = await endedContest('leetcode', 'weekly-contest-530', { name: TITLE })
    const start = Math.floor(round.startTime / 1000)
    await answer('aa_new', [{ data: { userContestRankingHistory: [] } }])
    await answer('bb_old', [history(start, { rating: 1650, ranking: 120 })])
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'leetcode',
    ])
    const { deps } = testResultsDeps(testEnv(), { pace: async () => ({ allowed: true }) })
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    expect(await askedBatches()).toEqual([['aa_new', 'bb_old']])
    const { results } = await env.DB.prepare(
      'SELECT handle_key AS k FROM contest_results WHERE contest_id = ?1',
    )
      .bind(round.id)
      .all<{ k: string }>()
    expect(results.map((r) => r.k)).toEqual(['bb_old'])
  })
})
