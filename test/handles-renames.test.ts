// Following Codeforces renames: the walk over linked handles asks them by exact name, looks the one
// a "not found" names up as a former handle, and moves every link of it (own proven, friends) and
// its stored results to the new handle, proof kept; a handle gone under every name is left; each
// request takes a token of the judge's pace; the daily cron runs the walk.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { codeforcesResults } from '../src/platforms/codeforces/results.ts'
import { resultsDeps } from '../src/results/deps.ts'
import { followRenames, renameCursorKey } from '../src/results/renames.ts'
import { storeResults } from '../src/results/store.ts'
import { addContests, contest } from './helpers/contests.ts'
import { recipient, resetNotifications } from './helpers/notifications.ts'
import { clearResults, linkHandle, resultsFixture, serveResults } from './helpers/results.ts'
import { standIn } from './helpers/stand-in.ts'
import { runDailyCleanup } from './helpers/worker.ts'

const BASE = '/codeforces-api'

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
  await standIn.reset()
  await serveResults('codeforces')
  await env.KV.delete(renameCursorKey('codeforces'))
})

const userInfo = (handles: string, historic: boolean, body: unknown, status = 200) =>
  standIn.script({
    pathPrefix: `${BASE}/user.info`,
    query: { handles, checkHistoricHandles: String(historic) },
    responses: [{ status, body }],
  })

async function handlesOf(userId: string) {
  const { results } = await env.DB.prepare(
    `SELECT handle, handle_key AS handleKey, relation, state, proven_at AS provenAt
       FROM judge_handles WHERE user_id = ?1 ORDER BY handle_key`,
  )
    .bind(userId)
    .all()
  return results
}

/** The walk over the real modules and the stand-in, the pace recorded and allowing. */
function walk(now = Date.now()) {
  const deps = resultsDeps(env, [])
  const paced: number[] = []
  const run = followRenames(
    {
      db: deps.db,
      kv: env.KV,
      renames: codeforcesResults.renames!,
      request: deps.request('codeforces', now),
      pace: async () => {
        paced.push(now)
        return { allowed: true }
      },
    },
    'codeforces',
    now,
  )
  return { run, paced }
}

describe('Codeforces renames', () => {
  it('moves every link of a renamed handle and its results, proof kept; a new letter case is taken', async () => {
    const ada = await recipient({ name: 'Ada' })
    const bob = await recipient({ name: 'Bob' })
    const carol = await recipient({ name: 'Carol' })
    await linkHandle(ada.id, 'codeforces', 'lynx_old')
    await linkHandle(bob.id, 'codeforces', 'lynx_old', { relation: 'FRIEND' })
    await linkHandle(carol.id, 'codeforces', 'quokka')
    const [before] = await handlesOf(ada.id)
    const [round] = await addContests([contest(-30, { platformId: '2289' })])
    await storeResults(
      createDb(env.DB),
      round,
      true,
      [{ handle: 'lynx_old', rank: 5, oldRating: 1800, newRating: 1874 }],
      Date.now(),
    )
    await userInfo(
      'lynx_old;quokka',
      false,
      resultsFixture('codeforces', 'user-info-batch-missing.json'),
      400,
    )
    await userInfo('quokka', false, resultsFixture('codeforces', 'user-info-quokka.json'))

    const { run, paced } = walk()
    expect(await run).toEqual({ asked: 2, renamed: 2, gone: 0, requests: 3 })
    // The batch, the former handle (the recorded user-info-renamed.json), the batch without it.
    expect(paced).toHaveLength(3)
    expect((await standIn.requests(`${BASE}/user.info`)).map((r) => r.path)).toEqual([
      `${BASE}/user.info?handles=lynx_old%3Bquokka&checkHistoricHandles=false`,
      `${BASE}/user.info?handles=lynx_old&checkHistoricHandles=true`,
      `${BASE}/user.info?handles=quokka&checkHistoricHandles=false`,
    ])

    expect(await handlesOf(ada.id)).toEqual([
      {
        handle: 'lynx_dev',
        handleKey: 'lynx_dev',
        relation: 'OWN',
        state: 'PROVEN',
        provenAt: before.provenAt,
      },
    ])
    expect(await handlesOf(bob.id)).toMatchObject([{ handle: 'lynx_dev', relation: 'FRIEND' }])
    expect(await handlesOf(carol.id)).toMatchObject([{ handle: 'Quokka', handleKey: 'quokka' }])
    const stored = await env.DB.prepare(
      'SELECT handle, handle_key AS handleKey, rank FROM contest_results WHERE contest_id = ?1',
    )
      .bind(round.id)
      .all()
    expect(stored.results).toEqual([{ handle: 'lynx_dev', handleKey: 'lynx_dev', rank: 5 }])
    // The batch was shorter than a full one: the next walk starts over.
    expect(await env.KV.get(renameCursorKey('codeforces'))).toBeNull()
  })

  it('leaves a handle Codeforces knows under no name, and drops a friend already followed', async () => {
    const ada = await recipient({ name: 'Ada' })
    const bob = await recipient({ name: 'Bob' })
    await linkHandle(ada.id, 'codeforces', 'nobody_here')
    await linkHandle(bob.id, 'codeforces', 'lynx_old', { relation: 'FRIEND' })
    await linkHandle(bob.id, 'codeforces', 'lynx_dev', { relation: 'FRIEND' })
    await userInfo(
      'lynx_dev;lynx_old;nobody_here',
      false,
      resultsFixture('codeforces', 'user-info-batch-missing.json'),
      400,
    )
    await userInfo(
      'lynx_dev;nobody_here',
      false,
      resultsFixture('codeforces', 'user-info-missing.json'),
      400,
    )
    await userInfo('lynx_dev', false, resultsFixture('codeforces', 'user-info-renamed.json'))

    const { run } = walk()
    expect(await run).toMatchObject({ asked: 3, gone: 1, requests: 5 })
    expect(await handlesOf(ada.id)).toMatchObject([{ handle: 'nobody_here', state: 'PROVEN' }])
    expect(await handlesOf(bob.id)).toMatchObject([{ handle: 'lynx_dev', relation: 'FRIEND' }])
  })

  it('asks nothing while the judge’s pace has no token, and keeps where it was', async () => {
    const ada = await recipient({ name: 'Ada' })
    await linkHandle(ada.id, 'codeforces', 'lynx_old')
    await env.KV.put(renameCursorKey('codeforces'), 'a')
    const deps = resultsDeps(env, [])
    const now = Date.now()
    const run = await followRenames(
      {
        db: deps.db,
        kv: env.KV,
        renames: codeforcesResults.renames!,
        request: deps.request('codeforces', now),
        pace: async () => ({ allowed: false, retryAt: now + 60_000 }),
      },
      'codeforces',
      now,
    )
    expect(run).toEqual({ asked: 0, renamed: 0, gone: 0, requests: 0 })
    expect(await standIn.requests(`${BASE}/user.info`)).toEqual([])
    expect(await env.KV.get(renameCursorKey('codeforces'))).toBe('a')
    expect(await handlesOf(ada.id)).toMatchObject([{ handle: 'lynx_old' }])
  })

  it('runs in the daily cron', async () => {
    const ada = await recipient({ name: 'Ada' })
    await linkHandle(ada.id, 'codeforces', 'lynx_old')
    await userInfo(
      'lynx_old',
      false,
      resultsFixture('codeforces', 'user-info-batch-missing.json'),
      400,
    )
    await runDailyCleanup()
    expect(await handlesOf(ada.id)).toMatchObject([{ handle: 'lynx_dev', state: 'PROVEN' }])
  })
})
