// The results pipeline's checks: which ended contests are awaited, the backoff until a judge
// publishes and the give-up, the judge's pace kept per platform (one judge's wait never holds
// another's message), and storing a round's results in statements that do not grow with handles.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { resultChecksJob } from '../src/jobs/results.ts'
import { DAY_MS, MINUTE_MS } from '../src/lib/time.ts'
import { GIVE_UP_AFTER_MS, waitAfter } from '../src/results/backoff.ts'
import { findCheck } from '../src/results/checks.ts'
import { askCheck, ERROR_CHARS } from '../src/results/consumer.ts'
import { paceOf } from '../src/results/deps.ts'
import { createDb } from '../src/db/client.ts'
import { addContests, contest } from './helpers/contests.ts'
import { countingCalls } from './helpers/counting.ts'
import { recipient, resetNotifications, seedRecipients, testEnv } from './helpers/notifications.ts'
import {
  clearResults,
  endedContest,
  linkHandle,
  recordingResultsQueue,
  resultsFixture,
  scriptCodeforces,
  serveResults,
  testResultsDeps,
} from './helpers/results.ts'
import { standIn } from './helpers/stand-in.ts'

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
  await serveResults('codeforces')
  await serveResults('atcoder')
})

const db = () => createDb(env.DB)

async function checkIds() {
  const { results } = await env.DB.prepare(
    'SELECT contest_id AS id FROM result_checks ORDER BY contest_id',
  ).all<{ id: string }>()
  return results.map((r) => r.id)
}

describe('result checks', () => {
  it('are made only for ended contests of judges with results where a handle is linked', async () => {
    const now = Date.now()
    const ada = await recipient()
    const round = await endedContest('codeforces', '2289')
    const longAgo = await endedContest('codeforces', '2280', { hoursAgo: 5 * 24 })
    const abc = await endedContest('atcoder', 'abc481')
    await addContests([contest(5, { platform: 'codeforces', platformId: '2300' })])
    await linkHandle(ada.id, 'codeforces', 'quokka')
    // An own handle not proven yet counts for nothing.
    await linkHandle(ada.id, 'atcoder', 'mochi_ac', { relation: 'OWN', state: 'UNPROVEN' })
    const queue = recordingResultsQueue()
    const e = { ...env, RESULTS_QUEUE: queue as unknown as Queue }

    const first = await resultChecksJob(e, now, ['codeforces', 'atcoder'])
    expect(first).toEqual({ resultChecksCreated: 1, resultChecksQueued: 1 })
    expect(await checkIds()).toEqual([round.id])
    expect(queue.sent).toEqual([{ body: { contestId: round.id }, delaySeconds: undefined }])
    expect(longAgo.id).not.toBe(round.id)

    // A friend's handle counts: the AtCoder round is awaited from the next run; a second run of
    // the same contests adds nothing, and a platform without results is never looked at.
    await linkHandle(ada.id, 'atcoder', 'sakura_k', { relation: 'FRIEND' })
    const second = await resultChecksJob(e, now, ['codeforces', 'atcoder'])
    expect(second.resultChecksCreated).toBe(1)
    expect(await checkIds()).toEqual([round.id, abc.id].sort())
    expect((await resultChecksJob(e, now, ['codeforces', 'atcoder'])).resultChecksCreated).toBe(0)
    expect((await resultChecksJob(e, now, [])).resultChecksCreated).toBe(0)
    expect(await findCheck(db(), round.id)).toMatchObject({ state: 'WAITING', attempts: 0 })
  })
})

describe('the backoff', () => {
  it('asks again after 10, 20, 40 minutes, 1, 2, 4 hours, then every 6, and gives up after 10 days', async () => {
    const ada = await recipient()
    await linkHandle(ada.id, 'codeforces', 'quokka')
    // contest.ratingChanges is empty and the standings are in system tests (the recorded answers).
    const round = await endedContest('codeforces', '2290')
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'codeforces',
    ])
    const { deps, queue } = testResultsDeps(testEnv())
    let at = (await findCheck(db(), round.id))!.nextCheckAt
    const waits: number[] = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await askCheck(deps, { contestId: round.id }, at)).toBe('pending')
      const check = (await findCheck(db(), round.id))!
      expect(check).toMatchObject({ state: 'WAITING', attempts: attempt })
      waits.push((check.nextCheckAt - at) / MINUTE_MS)
      // The next ask is queued with the wait as its delay, not left to the next scheduler run.
      expect(queue.sent.at(-1)).toEqual({
        body: { contestId: round.id },
        delaySeconds: waitAfter(attempt) / 1000,
      })
      at = check.nextCheckAt
    }
    expect(waits).toEqual([10, 20, 40, 60, 120, 240, 360, 360])
    // Not due yet: a duplicate message asks nothing.
    expect(await askCheck(deps, { contestId: round.id }, at - 1)).toBe('not-held')

    const late = round.endTime + GIVE_UP_AFTER_MS
    await env.DB.prepare('UPDATE result_checks SET next_check_at = ?1 WHERE contest_id = ?2')
      .bind(late, round.id)
      .run()
    const sent = queue.sent.length
    expect(await askCheck(deps, { contestId: round.id }, late)).toBe('gave-up')
    expect(await findCheck(db(), round.id)).toMatchObject({ state: 'GAVE_UP', attempts: 9 })
    expect(queue.sent).toHaveLength(sent)
    expect(await askCheck(deps, { contestId: round.id }, late + DAY_MS)).toBe('not-held')
  })

  it('counts a failing judge as unanswered, with its error kept, and asks again later', async () => {
    const ada = await recipient()
    await linkHandle(ada.id, 'codeforces', 'quokka')
    const round = await endedContest('codeforces', '2289')
    await scriptCodeforces('contest.ratingChanges', '2289', [
      resultsFixture('codeforces', 'rating-changes-broken.json'),
    ])
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'codeforces',
    ])
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('failed')
    const row = await env.DB.prepare('SELECT error, state FROM result_checks WHERE contest_id = ?')
      .bind(round.id)
      .first<{ error: string; state: string }>()
    expect(row).toMatchObject({ state: 'WAITING' })
    expect(row!.error).toMatch(/codeforces/)
  })
})

describe('a failed ask', () => {
  it('keeps a bounded error, however many rows the judge got wrong', async () => {
    const ada = await recipient()
    await linkHandle(ada.id, 'codeforces', 'quokka')
    const round = await endedContest('codeforces', '2289')
    const [row] = resultsFixture('codeforces', 'rating-changes-2289.json').result
    // Every row refused on its own: the refusal names each, megabytes for a large round.
    const broken = Array.from({ length: 3000 }, (_, i) => ({
      ...row,
      handle: `h${i}`,
      newRating: 'n/a',
    }))
    await scriptCodeforces('contest.ratingChanges', '2289', [{ status: 'OK', result: broken }])
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'codeforces',
    ])
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('failed')
    const error = await env.DB.prepare('SELECT error FROM result_checks WHERE contest_id = ?')
      .bind(round.id)
      .first<string>('error')
    expect(error).toMatch(/^codeforces: contest.ratingChanges: 0.newRating/)
    expect(error!.length).toBeLessThanOrEqual(ERROR_CHARS)
  })
})

describe('the judge pace', () => {
  it('queues a platform whose token is not back again with a delay, and asks another platform at once', async () => {
    const ada = await recipient()
    await linkHandle(ada.id, 'codeforces', 'quokka')
    await linkHandle(ada.id, 'atcoder', 'mochi_ac')
    const cf = await endedContest('codeforces', '2289')
    const abc = await endedContest('atcoder', 'abc481')
    const now = Date.now()
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, now, [
      'codeforces',
      'atcoder',
    ])
    // The real pace (the RateLimiter Durable Object, a bucket per platform); Codeforces' interval
    // is stretched to a minute so the test does not race its refill, and its token is spent.
    const real = paceOf(testEnv())
    const pace = (platform: string, ms: number) =>
      real(platform, platform === 'codeforces' ? 60_000 : ms)
    await pace('codeforces', 0)
    const { deps, queue } = testResultsDeps(testEnv(), { pace })
    const at = now + 20 * MINUTE_MS
    const outcomes = [
      await askCheck(deps, { contestId: cf.id }, at),
      await askCheck(deps, { contestId: abc.id }, at),
    ]
    expect(outcomes).toEqual(['paced', 'published'])
    // Codeforces was not asked; its message is queued again for when the token is back, and the
    // check is free for it, with no attempt counted.
    expect(await standIn.requests('/codeforces-api/contest.ratingChanges')).toEqual([])
    expect(queue.sent).toHaveLength(1)
    expect(queue.sent[0].body).toEqual({ contestId: cf.id })
    expect(queue.sent[0].delaySeconds).toBeGreaterThan(0)
    expect(queue.sent[0].delaySeconds).toBeLessThanOrEqual(60)
    const held = await env.DB.prepare(
      'SELECT claimed_until AS c, attempts, state FROM result_checks WHERE contest_id = ?',
    )
      .bind(cf.id)
      .first()
    expect(held).toEqual({ c: null, attempts: 0, state: 'WAITING' })
    expect(await findCheck(db(), abc.id)).toMatchObject({ state: 'PUBLISHED' })
  })
})

describe('storing', () => {
  /** A rated round of `linked` linked handles among `linked + 100` participants, asked once. */
  async function roundOf(linked: number, platformId: string) {
    const tag = await seedRecipients(linked)
    await env.DB.prepare(
      `INSERT INTO judge_handles (id, user_id, platform, handle, handle_key, relation, state,
         proven_at, created_at, updated_at)
       SELECT 'jh' || id, id, 'codeforces', 'H' || substr(id, 9), 'h' || substr(id, 9), 'OWN',
         'PROVEN', 1, 1, 1 FROM users WHERE id LIKE ?1 || '%'`,
    )
      .bind(tag)
      .run()
    const { results: keys } = await env.DB.prepare(
      `SELECT 'H' || substr(id, 9) AS handle FROM users WHERE id LIKE ?1 || '%'`,
    )
      .bind(tag)
      .all<{ handle: string }>()
    const [row] = resultsFixture('codeforces', 'rating-changes-2289.json').result
    const handles = [
      ...keys.map((k) => k.handle),
      ...Array.from({ length: 100 }, (_, i) => `x${i}`),
    ]
    await scriptCodeforces('contest.ratingChanges', platformId, [
      {
        status: 'OK',
        result: handles.map((handle, i) => ({
          ...row,
          contestId: Number(platformId),
          handle,
          rank: i + 1,
          newRating: row.oldRating + (i % 50) - 20,
        })),
      },
    ])
    const round = await endedContest('codeforces', platformId)
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'codeforces',
    ])
    let statements = 0
    const e = testEnv({ DB: countingCalls(env.DB, (m) => m === 'prepare' && statements++) })
    const { deps } = testResultsDeps(e)
    const outcome = await askCheck(deps, { contestId: round.id }, Date.now() + 20 * MINUTE_MS)
    const stored = await env.DB.prepare(
      'SELECT count(*) AS n FROM contest_results WHERE contest_id = ?',
    )
      .bind(round.id)
      .first<number>('n')
    const alerts = await env.DB.prepare(
      'SELECT count(*) AS n FROM notifications WHERE contest_id = ?',
    )
      .bind(round.id)
      .first<number>('n')
    await env.DB.prepare('DELETE FROM users WHERE id LIKE ?1 || ?2').bind(tag, '%').run()
    return { outcome, statements, stored, alerts }
  }

  it('stores only linked handles and alerts them in statements that do not grow with their number', async () => {
    const few = await roundOf(40, '3001')
    const many = await roundOf(400, '3002')
    expect(few).toMatchObject({ outcome: 'published', stored: 40, alerts: 40 })
    expect(many).toMatchObject({ outcome: 'published', stored: 400, alerts: 400 })
    expect(many.statements).toBe(few.statements)
    // Claim, contest, store, two reads of the alerts, one batch of them, the enqueue's mark, the
    // webhook's endpoints, the check's record: a handful, whatever the handles.
    expect(many.statements).toBeLessThan(20)
  })
})
