// A contest stored under an id its platform's parser no longer gives (CodeChef's division child
// code, START265B, for the round now keyed START265): the next sync takes the row over, keeping
// its id, instead of cancelling it and storing the round a second time.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { insertContests } from '../src/contests/writes.ts'
import type { ContestInput } from '../src/contests/contest-input.ts'
import { createDb } from '../src/db/client.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'
import { clearSyncState, RECORDED_AT, servePlatform } from './helpers/platforms.ts'

const db = createDb(env.DB)
const deps = () => syncDeps(env)
const DAY = 86_400_000

beforeEach(async () => {
  await clearSyncState()
})

// Starters 265 as the parser before this one stored it from the same recorded answer: under the
// child code it was listed by, as Division 2.
const storedAsChild: ContestInput = {
  platform: 'codechef',
  platformId: 'START265B',
  name: 'Starters 265',
  type: 'STARTERS',
  startTime: Date.parse('2026-11-25T14:30:00Z'),
  endTime: Date.parse('2026-11-25T16:30:00Z'),
  websiteUrl: 'https://www.codechef.com/START265B',
  registrationUrl: 'https://www.codechef.com/START265B',
  difficulty: 'MEDIUM',
  platformMetadata: { division: 'div2' },
}

const rowsOf = (prefix: string) =>
  env.DB.prepare(
    `SELECT id, platform_id, is_active, difficulty, platform_metadata, website_url
       FROM contests WHERE platform = 'codechef' AND platform_id LIKE ? ORDER BY platform_id`,
  )
    .bind(`${prefix}%`)
    .all<Record<string, unknown>>()
    .then((r) => r.results)

const cancellations = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM contest_cancellations').first<{ n: number }>())
    ?.n ?? 0

describe('a contest stored under a former id', () => {
  it('is taken over by the contest the source now lists, keeping its row', async () => {
    const [before] = await insertContests(db, [storedAsChild], RECORDED_AT - DAY)
    await servePlatform('codechef')
    const { reports } = await runSync(deps(), ['codechef'], RECORDED_AT)

    expect(reports[0]).toMatchObject({ state: 'ok', cancelled: 0 })
    expect(await rowsOf('START265')).toEqual([
      {
        id: before.id,
        platform_id: 'START265',
        is_active: 1,
        difficulty: null,
        platform_metadata: null,
        website_url: 'https://www.codechef.com/START265',
      },
    ])
    expect(await cancellations()).toBe(0)
  })

  it('is then unchanged by the next sync of the same answer', async () => {
    await insertContests(db, [storedAsChild], RECORDED_AT - DAY)
    await servePlatform('codechef')
    await runSync(deps(), ['codechef'], RECORDED_AT)
    const { reports } = await runSync(deps(), ['codechef'], RECORDED_AT + 60_000)
    expect(reports[0]).toMatchObject({ created: 0, updated: 0, cancelled: 0 })
  })

  it('is left alone, not cancelled, when the contest has a row of its own as well', async () => {
    const [child, own] = await insertContests(
      db,
      [storedAsChild, { ...storedAsChild, platformId: 'START265', difficulty: undefined }],
      RECORDED_AT - DAY,
    )
    await servePlatform('codechef')
    const { reports } = await runSync(deps(), ['codechef'], RECORDED_AT)

    expect(reports[0].cancelled).toBe(0)
    expect(await rowsOf('START265')).toEqual([
      expect.objectContaining({ id: own.id, platform_id: 'START265', is_active: 1 }),
      expect.objectContaining({ id: child.id, platform_id: 'START265B', is_active: 1 }),
    ])
    expect(await cancellations()).toBe(0)
  })
})
