// An admin's "ask now" of a contest's results (POST /contests/{id}/results/check, used by the
// contract flow): the check, awaited or published, is made due at once; one given up, or a contest
// without a check, is refused and nothing is queued. Admins only.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import { NEVER } from '../src/results/backoff.ts'
import { findCheck, makeCheckDue } from '../src/results/checks.ts'
import { clearContests } from './helpers/contests.ts'
import { clearResults, endedContest } from './helpers/results.ts'
import { createAdmin, createUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

let adminToken: string
let userToken: string

beforeAll(async () => {
  adminToken = (await createAdmin()).accessToken
  userToken = (await createUser({ name: 'Not An Admin', verified: true })).accessToken
})

beforeEach(async () => {
  await clearResults()
  await clearContests()
})

const db = () => createDb(env.DB)

/** A check of `contestId` as the scheduler and the consumer leave it. */
async function seedCheck(contestId: string, state: string, nextCheckAt: number) {
  await env.DB.prepare(
    `INSERT INTO result_checks (contest_id, platform, state, attempts, next_check_at, created_at,
        updated_at) VALUES (?1, 'codeforces', ?2, 3, ?3, 0, 0)`,
  )
    .bind(contestId, state, nextCheckAt)
    .run()
}

const askNow = (id: string, token = adminToken) =>
  call(`/contests/${id}/results/check`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  })

describe('asking a contest’s results now', () => {
  it('makes an awaited or a published check due at once, keeping its backoff state', async () => {
    const now = Date.now()
    const waiting = await endedContest('codeforces', '2289')
    const published = await endedContest('codeforces', '2290')
    await seedCheck(waiting.id, 'WAITING', now + 4 * HOUR_MS)
    await seedCheck(published.id, 'PUBLISHED', NEVER)

    expect(await makeCheckDue(db(), waiting.id, now)).toMatchObject({
      state: 'WAITING',
      attempts: 3,
      nextCheckAt: now,
    })
    expect(await makeCheckDue(db(), published.id, now)).toMatchObject({
      state: 'PUBLISHED',
      nextCheckAt: now,
    })
  })

  it('leaves a given-up check as it is, and answers nothing for a contest without one', async () => {
    const now = Date.now()
    const gaveUp = await endedContest('codeforces', '2285')
    await seedCheck(gaveUp.id, 'GAVE_UP', now - HOUR_MS)
    expect(await makeCheckDue(db(), gaveUp.id, now + HOUR_MS)).toMatchObject({
      state: 'GAVE_UP',
      nextCheckAt: now - HOUR_MS,
    })
    const none = await endedContest('codeforces', '2293')
    expect(await makeCheckDue(db(), none.id, now)).toBeUndefined()
  })

  it('refuses a given-up check (409), a contest without one (404) and a non-admin (403)', async () => {
    const now = Date.now()
    const gaveUp = await endedContest('codeforces', '2285')
    await seedCheck(gaveUp.id, 'GAVE_UP', now - HOUR_MS)
    const refused = await askNow(gaveUp.id)
    expect(refused.status).toBe(409)
    expect((await findCheck(db(), gaveUp.id))?.state).toBe('GAVE_UP')

    const none = await endedContest('codeforces', '2293')
    const missing = await askNow(none.id)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({
      message: expect.stringMatching(/no result check/),
    })

    const waiting = await endedContest('codeforces', '2289')
    await seedCheck(waiting.id, 'WAITING', now + 4 * HOUR_MS)
    expect((await askNow(waiting.id, userToken)).status).toBe(403)
    expect((await findCheck(db(), waiting.id))?.nextCheckAt).toBe(now + 4 * HOUR_MS)
  })
})
