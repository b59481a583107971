// GET /users/results: the account's recent results across its own proven handles (never an
// unproven one's, a friend's or another account's), newest contest first with rank of how many,
// solved, old -> new rating, delta and a changed title, paged by limit (at most 50) and offset;
// and a hard deletion of an account removes the stored results no other account links.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { ResultRow } from '../src/platforms/results.ts'
import { storeResults } from '../src/results/store.ts'
import { clearContests } from './helpers/contests.ts'
import { clearResults, endedContest, linkHandle } from './helpers/results.ts'
import { api, createAdmin, createUser, type TestUser } from './helpers/users.ts'

beforeEach(async () => {
  await clearResults()
  await clearContests()
})

const results = (user: TestUser, query = '') =>
  api('GET', `/users/results${query}`, { token: user.accessToken })

/** A contest's results stored as the pipeline stores them (linked handles only). */
async function published(
  contest: { id: string; platform: string },
  rated: boolean,
  rows: ResultRow[],
  participants: number | null,
) {
  await storeResults(createDb(env.DB), contest, rated, rows, Date.now())
  const now = Date.now()
  await env.DB.prepare(
    `INSERT INTO result_checks (contest_id, platform, state, attempts, next_check_at, rated,
       participants, published_at, created_at, updated_at)
     VALUES (?1, ?2, 'PUBLISHED', 1, ?3, ?4, ?5, ?3, ?3, ?3)`,
  )
    .bind(contest.id, contest.platform, now, rated ? 1 : 0, participants)
    .run()
}

async function storedResultKeys() {
  const { results } = await env.DB.prepare(
    'SELECT handle_key AS k FROM contest_results ORDER BY handle_key, contest_id',
  ).all<{ k: string }>()
  return results.map((r) => r.k)
}

describe('GET /users/results', () => {
  it('lists the own proven handles’ results, newest contest first, with the numbers and a changed title', async () => {
    const user = await createUser()
    const other = await createUser()
    await linkHandle(user.id, 'codeforces', 'Kestrel_09')
    await linkHandle(user.id, 'atcoder', 'sakura_k')
    await linkHandle(user.id, 'codeforces', 'not_mine_yet', { state: 'UNPROVEN' })
    await linkHandle(user.id, 'codeforces', 'lynx_dev', { relation: 'FRIEND' })
    await linkHandle(other.id, 'codeforces', 'falcon')
    await linkHandle(other.id, 'codeforces', 'not_mine_yet', { relation: 'FRIEND' })

    const older = await endedContest('codeforces', '2289', { hoursAgo: 50, name: 'Round A' })
    const newer = await endedContest('atcoder', 'abc481', { hoursAgo: 3, name: 'ABC 481' })
    const unrated = await endedContest('codeforces', '2285', { hoursAgo: 20, name: 'Round U' })
    await published(
      older,
      true,
      [
        { handle: 'Kestrel_09', rank: 312, oldRating: 1580, newRating: 1639 },
        { handle: 'lynx_dev', rank: 20, oldRating: 2000, newRating: 2010 },
        { handle: 'falcon', rank: 5, oldRating: 2100, newRating: 2150 },
        { handle: 'not_mine_yet', rank: 9, oldRating: 1000, newRating: 1100 },
      ],
      20_345,
    )
    await published(unrated, false, [{ handle: 'kestrel_09', rank: 44, solved: 5 }], 900)
    await published(
      newer,
      true,
      [{ handle: 'sakura_k', rank: 1_204, oldRating: 1190, newRating: 1172 }],
      9_876,
    )

    const res = await results(user)
    expect(res.status).toBe(200)
    expect(res.body.pagination).toEqual({
      total: 3,
      limit: 20,
      offset: 0,
      hasNext: false,
      hasPrev: false,
    })
    expect(res.body.data.map((r: any) => r.contest.name)).toEqual(['ABC 481', 'Round U', 'Round A'])
    const [abc, roundU, roundA] = res.body.data
    expect(abc).toMatchObject({
      contest: {
        id: newer.id,
        platform: 'atcoder',
        startTime: new Date(newer.startTime).toISOString(),
      },
      handle: 'sakura_k',
      rated: true,
      rank: 1_204,
      participants: 9_876,
      solved: null,
      oldRating: 1190,
      newRating: 1172,
      delta: -18,
      titleChange: null,
    })
    expect(roundU).toMatchObject({
      handle: 'kestrel_09',
      rated: false,
      rank: 44,
      participants: 900,
      solved: 5,
      oldRating: null,
      newRating: null,
      delta: null,
      titleChange: null,
    })
    // 1580 -> 1639: Specialist to Expert on Codeforces.
    expect(roundA).toMatchObject({
      contest: { id: older.id, platform: 'codeforces' },
      handle: 'Kestrel_09',
      rank: 312,
      participants: 20_345,
      oldRating: 1580,
      newRating: 1639,
      delta: 59,
      titleChange: { from: 'Specialist', to: 'Expert' },
    })
    expect(typeof roundA.handleId).toBe('string')

    // The other account sees its own result only; a friend's link shows nothing.
    const theirs = await results(other)
    expect(theirs.body.data.map((r: any) => r.handle)).toEqual(['falcon'])
  })

  it('pages by limit and offset, at most 50 a page', async () => {
    const user = await createUser()
    await linkHandle(user.id, 'codeforces', 'Kestrel_09')
    const contests = []
    for (let i = 0; i < 5; i++) {
      contests.push(await endedContest('codeforces', `30${i}`, { hoursAgo: 10 - i, name: `R${i}` }))
    }
    for (const [i, c] of contests.entries()) {
      await published(
        c,
        true,
        [{ handle: 'Kestrel_09', rank: i + 1, oldRating: 1500, newRating: 1500 + i }],
        null,
      )
    }
    const first = await results(user, '?limit=2')
    expect(first.body.data.map((r: any) => r.contest.name)).toEqual(['R4', 'R3'])
    expect(first.body.pagination).toEqual({
      total: 5,
      limit: 2,
      offset: 0,
      hasNext: true,
      hasPrev: false,
    })
    expect(first.body.data[0]).toMatchObject({ participants: null, delta: 4 })
    const last = await results(user, '?limit=2&offset=4')
    expect(last.body.data.map((r: any) => r.contest.name)).toEqual(['R0'])
    expect(last.body.pagination).toEqual({
      total: 5,
      limit: 2,
      offset: 4,
      hasNext: false,
      hasPrev: true,
    })
    const past = await results(user, '?offset=10')
    expect(past.status).toBe(200)
    expect(past.body.data).toEqual([])
    expect(past.body.pagination.total).toBe(5)
    expect((await results(user, '?limit=50')).status).toBe(200)
  })

  it('refuses a limit over 50, an unknown query key, and no token', async () => {
    const user = await createUser()
    const tooMany = await results(user, '?limit=51')
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toEqual(['limit must not be greater than 50'])
    const unknown = await results(user, '?page=2')
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toEqual(['property page should not exist'])
    expect((await results(user, '?offset=-1')).status).toBe(400)
    expect((await api('GET', '/users/results')).status).toBe(401)
  })
})

describe('deleting an account', () => {
  it('removes the stored results of its handles that no other account links, in the same batch', async () => {
    const gone = await createUser()
    const stays = await createUser()
    await linkHandle(gone.id, 'codeforces', 'Kestrel_09')
    await linkHandle(gone.id, 'codeforces', 'lynx_dev', { relation: 'FRIEND' })
    await linkHandle(gone.id, 'codeforces', 'heron', { relation: 'FRIEND' })
    await linkHandle(gone.id, 'codeforces', 'owl_2', { state: 'UNPROVEN' })
    await linkHandle(stays.id, 'codeforces', 'lynx_dev', { relation: 'FRIEND' })
    await linkHandle(stays.id, 'codeforces', 'owl_2')
    await linkHandle(stays.id, 'codeforces', 'falcon')
    // An unproven own link of the other account keeps nothing: its results are not kept for it.
    await linkHandle(stays.id, 'codeforces', 'heron', { state: 'UNPROVEN' })
    const round = await endedContest('codeforces', '2289')
    const rows = ['Kestrel_09', 'lynx_dev', 'heron', 'owl_2', 'falcon'].map((handle, i) => ({
      handle,
      rank: i + 1,
      oldRating: 1500,
      newRating: 1510,
    }))
    await published(round, true, rows, 100)
    expect(await storedResultKeys()).toEqual(['falcon', 'heron', 'kestrel_09', 'lynx_dev', 'owl_2'])

    // A soft delete keeps them (a recovered account proves its handles again).
    expect((await api('DELETE', '/user/delete-account', { token: gone.accessToken })).status).toBe(
      200,
    )
    expect(await storedResultKeys()).toHaveLength(5)

    const admin = await createAdmin()
    expect((await api('DELETE', `/users/${gone.id}`, { token: admin.accessToken })).status).toBe(
      200,
    )
    expect(await storedResultKeys()).toEqual(['falcon', 'lynx_dev', 'owl_2'])
    expect((await results(stays)).body.data.map((r: any) => r.handle)).toEqual(['falcon', 'owl_2'])
  })
})
