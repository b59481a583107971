// Results of platforms without a results module, from clist.by's statistics: friends only, only
// while CLIST_API_KEY is set (the judges list says so), the check asked through the real consumer
// against the clist stand-in's recorded statistics, and within clist's budget shared with the
// contest source, of which results take at most half a minute.
import { env, runInDurableObject } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { CLIST_BUDGET_KEY } from '../src/platforms/clist/client.ts'
import { findCheck } from '../src/results/checks.ts'
import { askCheck } from '../src/results/consumer.ts'
import { clistResultsBudget, clistResultsShare, platformsWithResults } from '../src/results/deps.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { addContests } from './helpers/contests.ts'
import { notificationsOf, recipient, resetNotifications, testEnv } from './helpers/notifications.ts'
import {
  clearResults,
  linkHandle,
  recordingResultsQueue,
  setResultPreferences,
  testResultsDeps,
} from './helpers/results.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api } from './helpers/users.ts'

const KEY = 'tester:key'
const withClist = (perMinute = 10): Partial<Env> => ({
  CLIST_API_KEY: KEY,
  CLIST_API_URL: `${standInUrl}/clist`,
  CLIST_REQUESTS_PER_MINUTE: String(perMinute),
})

// SRM 869 of the recorded clist contests (rated; TopCoder's shared events page, so keyed by
// clist's id), as the catalogue holds it.
const SRM_START = Date.parse('2026-10-29T12:00:00Z')
const SRM_END = Date.parse('2026-10-29T13:30:00Z')
const AFTER_END = SRM_END + 60 * 60_000

const clistBudget = () => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(CLIST_BUDGET_KEY))

/** Ages clist's budget window by a minute, as if the minute had passed. */
async function budgetMinutePasses() {
  await runInDurableObject(clistBudget(), (_, state) => {
    const sql = state.storage.sql
    const table = sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'fixed_window'").toArray()
    if (table.length > 0) sql.exec('UPDATE fixed_window SET start = start - 61000')
  })
}

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
  await standIn.reset()
  await fetch(`${standInUrl}/__control/clist`, {
    method: 'POST',
    body: JSON.stringify({ reset: true }),
  })
  await budgetMinutePasses()
})

async function srm869() {
  const [row] = await addContests(
    [
      {
        platform: 'topcoder',
        platformId: 'clist-63471290',
        name: 'Single Round Match 869',
        type: 'OTHER',
        startTime: SRM_START,
        endTime: SRM_END,
      },
    ],
    SRM_START - 86_400_000,
  )
  return row
}

describe('the judges list and links without a key', () => {
  it('lists clist’s platforms as friends only and not enabled, and refuses a friend there', async () => {
    const ada = await recipient({ name: 'Ada' })
    const list = await api('GET', '/users/handles', { token: ada.accessToken })
    const topcoder = list.body.judges.find((j: { platform: string }) => j.platform === 'topcoder')
    expect(topcoder).toEqual({
      platform: 'topcoder',
      name: 'TopCoder',
      where: '',
      editUrl: '',
      source: 'clist',
      own: false,
      submissionProof: false,
      enabled: false,
    })
    expect(list.body.judges.find((j: any) => j.platform === 'codeforces')).toMatchObject({
      source: 'judge',
      own: true,
      enabled: true,
    })
    const friend = await api('POST', '/users/friends', {
      token: ada.accessToken,
      body: { platform: 'topcoder', handle: 'kestrel_tc' },
    })
    expect(friend.status).toBe(400)
    expect(friend.body.message).toContain('CLIST_API_KEY is not set')
    expect(platformsWithResults(env)).not.toContain('topcoder')
    expect(platformsWithResults({ ...env, ...withClist() })).toContain('topcoder')
  })

  it('with a key, takes a friend there but never an own handle', async () => {
    const ada = await recipient({ name: 'Ada' })
    const list = await api('GET', '/users/handles', {
      token: ada.accessToken,
      bindings: withClist(),
    })
    expect(list.body.judges.find((j: any) => j.platform === 'kattis')).toMatchObject({
      enabled: true,
      own: false,
    })
    const friend = await api('POST', '/users/friends', {
      token: ada.accessToken,
      body: { platform: 'topcoder', handle: 'kestrel_tc' },
      bindings: withClist(),
    })
    expect(friend.status).toBe(201)
    const history = await api('GET', `/users/handles/${friend.body.id}/history`, {
      token: ada.accessToken,
      bindings: withClist(),
    })
    expect(history.status).toBe(400)
    expect(history.body.message).toContain('no rating history is read')
    const own = await api('POST', '/users/handles', {
      token: ada.accessToken,
      body: { platform: 'topcoder', handle: 'kestrel_tc' },
      bindings: withClist(),
    })
    expect(own.status).toBe(400)
    expect(own.body.message).toContain('follow the handle as a friend')
  })
})

describe('a check read from clist.by', () => {
  it('stores the linked handles’ rows and tells the friends’ summary', async () => {
    const e = testEnv(withClist())
    const dave = await recipient({ name: 'Dave' })
    await linkHandle(dave.id, 'topcoder', 'kestrel_tc', { relation: 'FRIEND' })
    await linkHandle(dave.id, 'topcoder', 'marble_owl', { relation: 'FRIEND' })
    await setResultPreferences(dave.id, true, true)
    const round = await srm869()
    const created = await resultChecksJob(
      { ...e, RESULTS_QUEUE: recordingResultsQueue() as any },
      AFTER_END,
    )
    expect(created.resultChecksCreated).toBe(1)
    const { deps } = testResultsDeps(e)
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt

    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    const { results: rows } = await env.DB.prepare(
      `SELECT handle, rank, old_rating AS oldRating, new_rating AS newRating FROM contest_results
         WHERE contest_id = ?1 ORDER BY handle_key`,
    )
      .bind(round.id)
      .all()
    expect(rows).toEqual([
      { handle: 'kestrel_tc', rank: 12, oldRating: 1912, newRating: 1987 },
      { handle: 'marble_owl', rank: 140, oldRating: 1544, newRating: 1498 },
    ])
    const asked = await standIn.requests('/clist/')
    expect(asked.map((r) => new URL(r.path, standInUrl).pathname)).toEqual([
      '/clist/contest/',
      '/clist/account/',
      '/clist/statistics/',
    ])
    expect(asked.every((r) => r.headers.authorization === `ApiKey ${KEY}`)).toBe(true)
    const [summary] = (await notificationsOf(dave.id)).filter((n) => n.type === 'CONTEST_RESULT')
    expect(summary.message).toContain('kestrel_tc: rank 12')
  })

  it('gives the check up once the key is gone', async () => {
    const e = testEnv(withClist())
    const dave = await recipient({ name: 'Dave' })
    await linkHandle(dave.id, 'topcoder', 'kestrel_tc', { relation: 'FRIEND' })
    const round = await srm869()
    await resultChecksJob({ ...e, RESULTS_QUEUE: recordingResultsQueue() as any }, AFTER_END)
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('gave-up')
    expect(await standIn.requests('/clist/')).toEqual([])
  })
})

describe('clist’s budget shared with the contest source', () => {
  it('lets results take half the minute, the contest source the rest; a refused ask waits', async () => {
    const e = testEnv(withClist(10))
    expect(clistResultsShare(10)).toBe(5)
    const take = clistResultsBudget(e)
    for (let i = 0; i < 5; i++) expect((await take()).allowed).toBe(true)
    expect((await take()).allowed).toBe(false)
    // The contest source still has the other half of the minute.
    const sync = syncDeps(e).clist!
    for (let i = 0; i < 5; i++) expect((await sync.takeRequest()).allowed).toBe(true)
    expect((await sync.takeRequest()).allowed).toBe(false)

    const dave = await recipient({ name: 'Dave' })
    await linkHandle(dave.id, 'topcoder', 'kestrel_tc', { relation: 'FRIEND' })
    const round = await srm869()
    await resultChecksJob({ ...e, RESULTS_QUEUE: recordingResultsQueue() as any }, AFTER_END)
    const { deps, queue } = testResultsDeps(e)
    const check = (await findCheck(createDb(env.DB), round.id))!
    expect(await askCheck(deps, { contestId: round.id }, check.nextCheckAt)).toBe('paced')
    expect(await standIn.requests('/clist/')).toEqual([])
    expect(queue.sent).toEqual([
      { body: { contestId: round.id }, delaySeconds: expect.any(Number) },
    ])
    // Not an unanswered ask: the backoff is where it was.
    expect(await findCheck(createDb(env.DB), round.id)).toMatchObject({
      attempts: check.attempts,
      state: 'WAITING',
    })
  })

  it('leaves results nothing of a budget of one request a minute', async () => {
    const take = clistResultsBudget(testEnv(withClist(1)))
    expect((await take()).allowed).toBe(false)
    expect((await syncDeps(testEnv(withClist(1))).clist!.takeRequest()).allowed).toBe(true)
  })
})
