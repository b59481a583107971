// Results of platforms without a results module, from clist.by's statistics: friends only, only
// while CLIST_API_KEY is set (the judges list says so), the check asked through the real consumer
// against the clist stand-in's recorded statistics, and within clist's budget shared with the
// contest source, of which results take at most half a minute; every linked handle walked in
// batches of 100, one ask each, a batch the budget cut short asked again later and no stored
// handle asked again.
import { env, runInDurableObject } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { newId } from '../src/lib/ids.ts'
import { CLIST_BUDGET_KEY } from '../src/platforms/clist/client.ts'
import { CLIST_RESULTS_INTERVAL_MS } from '../src/platforms/clist/results.ts'
import { NEVER } from '../src/results/backoff.ts'
import { findCheck, makeCheckDue } from '../src/results/checks.ts'
import { askCheck, type ResultsMessage } from '../src/results/consumer.ts'
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

async function srm869(platformMetadata?: Record<string, unknown>) {
  const [row] = await addContests(
    [
      {
        platform: 'topcoder',
        platformId: 'clist-63471290',
        name: 'Single Round Match 869',
        type: 'OTHER',
        startTime: SRM_START,
        endTime: SRM_END,
        ...(platformMetadata && { platformMetadata }),
      },
    ],
    SRM_START - 86_400_000,
  )
  return row
}

// A crowd of 250 TopCoder handles followed as friends by three accounts, each with a clist account
// and a row in SRM 869, served by the stand-in in the recorded shape (accounts.json,
// statistics.json) after the recorded ones.
const CROWD = Array.from({ length: 250 }, (_, i) => ({
  handle: `fan${String(i + 1).padStart(3, '0')}`,
  accountId: 8_100_001 + i,
  place: 20 + i,
}))

async function followCrowd() {
  const users = [
    await recipient({ name: 'Ada' }),
    await recipient({ name: 'Ben' }),
    await recipient({ name: 'Cy' }),
  ]
  const now = Date.now()
  await env.DB.batch(
    CROWD.map((fan, i) =>
      env.DB.prepare(
        `INSERT INTO judge_handles (id, user_id, platform, handle, handle_key, relation, state,
           created_at, updated_at) VALUES (?1, ?2, 'topcoder', ?3, ?3, 'FRIEND', 'UNPROVEN', ?4, ?4)`,
      ).bind(newId(now), users[i % 3].id, fan.handle, now),
    ),
  )
  await fetch(`${standInUrl}/__control/clist`, {
    method: 'POST',
    body: JSON.stringify({
      // Three batches of three requests in a few seconds: clist's own limit is not the subject.
      limitPerMinute: 100,
      accounts: CROWD.map((fan) => ({
        handle: fan.handle,
        id: fan.accountId,
        last_activity: '2026-10-29T13:30:00',
        n_contests: 9,
        name: null,
        rating: 1500 + fan.place,
        resource: 'topcoder.com',
        resource_id: 12,
        resource_rank: null,
      })),
      statistics: CROWD.map((fan) => ({
        account_id: fan.accountId,
        contest_id: 63471290,
        date: '2026-10-29T13:30:00',
        event: 'Single Round Match 869',
        handle: fan.handle,
        id: 990_000_000 + fan.accountId,
        more_fields: null,
        new_rating: 1500 + fan.place,
        old_rating: 1490 + fan.place,
        place: fan.place,
        problems: null,
        rating_change: 10,
        score: 100,
      })),
    }),
  })
}

/** What clist was asked: each request's path and query, decoded. */
async function clistAsked() {
  return (await standIn.requests('/clist/')).map((r) => {
    const url = new URL(r.path, standInUrl)
    return { path: url.pathname, query: Object.fromEntries(url.searchParams) }
  })
}

/** How many requests of `path` named each value of their `field` (a comma-separated list). */
async function namedPer(path: string, field: string) {
  const counts = new Map<string, number>()
  for (const r of await clistAsked()) {
    if (r.path !== path) continue
    for (const v of r.query[field].split(',')) counts.set(v, (counts.get(v) ?? 0) + 1)
  }
  return counts
}

const storedCount = async (contestId: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM contest_results WHERE contest_id = ?1')
    .bind(contestId)
    .first<{ n: number }>())!.n

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

describe('an own handle held there from before', () => {
  it('is never proven: verify answers 422 saying why and what to do instead', async () => {
    const ada = await recipient({ name: 'Ada' })
    // Linked when the platform had a proof of its own; its results now come from clist.by.
    await linkHandle(ada.id, 'topcoder', 'kestrel_tc', { relation: 'OWN', state: 'UNPROVEN' })
    const { id } = (await env.DB.prepare(
      "SELECT id FROM judge_handles WHERE user_id = ?1 AND platform = 'topcoder'",
    )
      .bind(ada.id)
      .first<{ id: string }>())!
    const verify = await api('POST', `/users/handles/${id}/verify`, {
      token: ada.accessToken,
      bindings: withClist(),
    })
    expect(verify.status).toBe(422)
    expect(verify.body.message).toBe(
      "topcoder's results come from clist.by, which shows no profile a proof can be read from, " +
        'so an own handle there can never be proven: remove it (DELETE /users/handles/{id}) and ' +
        'follow it as a friend (POST /users/friends), whose results are read',
    )
    expect(await standIn.requests('/clist/')).toEqual([])
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

describe('a walk over every linked handle, 100 an ask', () => {
  it('asks all 250 linked handles in 3 batches, stores every row, and publishes once', async () => {
    const e = testEnv(withClist(20))
    await followCrowd()
    // Synced from clist: the catalogue keeps clist's id, the first choice of the lookup.
    const round = await srm869({ source: 'clist', clistId: 63471290 })
    await resultChecksJob({ ...e, RESULTS_QUEUE: recordingResultsQueue() as any }, AFTER_END)
    const { deps, queue } = testResultsDeps(e)
    const at = (await findCheck(createDb(env.DB), round.id))!.nextCheckAt

    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('walking')
    const second = queue.sent.at(-1)!
    // The walk goes on from the batch's last handle, one pace of the reader later.
    expect(second).toEqual({
      body: { contestId: round.id, after: 'fan100' },
      delaySeconds: CLIST_RESULTS_INTERVAL_MS / 1000,
    })
    expect(await storedCount(round.id)).toBe(100)
    // Nothing is told before the walk has reached the last handle.
    expect(await findCheck(createDb(env.DB), round.id)).toMatchObject({ state: 'WAITING' })
    expect(await askCheck(deps, second.body, at + CLIST_RESULTS_INTERVAL_MS)).toBe('walking')
    const third = queue.sent.at(-1)!.body
    expect(third).toEqual({ contestId: round.id, after: 'fan200' })
    expect(await askCheck(deps, third, at + 2 * CLIST_RESULTS_INTERVAL_MS)).toBe('published')

    expect(await storedCount(round.id)).toBe(250)
    expect(await findCheck(createDb(env.DB), round.id)).toMatchObject({
      state: 'PUBLISHED',
      nextCheckAt: NEVER,
      walkAfter: 'fan250',
      rated: 1,
      participants: 402,
    })
    const asked = await clistAsked()
    expect(asked.map((r) => r.path)).toEqual(
      Array(3).fill(['/clist/contest/', '/clist/account/', '/clist/statistics/']).flat(),
    )
    expect(asked[0].query).toEqual({ id: '63471290' })
    const batches = asked.filter((r) => r.path === '/clist/account/')
    expect(batches.map((r) => r.query.handle__in.split(',').length)).toEqual([100, 100, 50])
    const perHandle = await namedPer('/clist/account/', 'handle__in')
    expect(perHandle.size).toBe(250)
    expect([...perHandle.values()].every((n) => n === 1)).toBe(true)

    // An operator's ask-now later: nobody linked after the last handle, so nothing is asked.
    await makeCheckDue(createDb(env.DB), round.id, at + 3_600_000)
    expect(await askCheck(deps, { contestId: round.id }, at + 3_600_000)).toBe('published')
    expect(await clistAsked()).toHaveLength(asked.length)
  })

  it('a batch the budget cuts short is asked again later; no stored handle is asked again', async () => {
    // Results' share: 5 requests a minute, so each minute holds one batch and part of the next.
    const e = testEnv(withClist(10))
    await followCrowd()
    const round = await srm869()
    await resultChecksJob({ ...e, RESULTS_QUEUE: recordingResultsQueue() as any }, AFTER_END)
    const { deps, queue } = testResultsDeps(e)
    const check = () => findCheck(createDb(env.DB), round.id)
    let at = (await check())!.nextCheckAt
    const ask = (body: ResultsMessage) => askCheck(deps, body, (at += CLIST_RESULTS_INTERVAL_MS))

    expect(await ask({ contestId: round.id })).toBe('walking')
    const walkOn = queue.sent.at(-1)!.body
    // The contest and the accounts of the second batch are asked; its statistics wait.
    expect(await ask(walkOn)).toBe('paced')
    expect(queue.sent.at(-1)!.body).toEqual(walkOn)
    expect(await storedCount(round.id)).toBe(100)
    const paused = (await check())!
    expect(paused).toMatchObject({ state: 'WAITING', walkAfter: 'fan100', attempts: 0 })

    await budgetMinutePasses()
    expect(await ask(walkOn)).toBe('walking')
    const last = queue.sent.at(-1)!.body
    expect(last).toEqual({ contestId: round.id, after: 'fan200' })
    expect(await ask(last)).toBe('paced')
    await budgetMinutePasses()
    expect(await ask(last)).toBe('published')
    expect(await storedCount(round.id)).toBe(250)

    // Each handle's statistics were asked once; only the accounts of a batch cut short before
    // its statistics (nothing of it stored) were asked twice, never a stored handle's.
    const statistics = await namedPer('/clist/statistics/', 'account_id__in')
    expect(statistics.size).toBe(250)
    expect([...statistics.values()].every((n) => n === 1)).toBe(true)
    const accounts = await namedPer('/clist/account/', 'handle__in')
    for (const fan of CROWD) {
      expect(accounts.get(fan.handle)).toBe(fan.handle <= 'fan100' ? 1 : 2)
    }
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
