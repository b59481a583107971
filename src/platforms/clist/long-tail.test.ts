// The seven platforms that come from clist.by alone: their declarations, and how each maps the
// recorded clist contests (and a few hand-made links) to its contests.
import { describe, expect, it } from 'vitest'
import { codingame } from '../codingame/index.ts'
import type { ClistContest, PlatformModule } from '../define.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import { icpc } from '../icpc/index.ts'
import { kaggle } from '../kaggle/index.ts'
import { kattis } from '../kattis/index.ts'
import { metaHackerCup } from '../meta-hacker-cup/index.ts'
import { topcoder } from '../topcoder/index.ts'
import { toph } from '../toph/index.ts'
import { parseClistPage } from './client.ts'
import { clistContests } from './contests.ts'
import recorded from './fixtures/contests.json'

const LONG_TAIL: PlatformModule[] = [topcoder, kattis, toph, codingame, kaggle, metaHackerCup, icpc]

/** The recorded clist contests of a module's resource, mapped into its contests at RECORDED_AT. */
function recordedContests(module: PlatformModule) {
  const { entries } = parseClistPage(recorded, module.clist!.resource)
  return clistContests(module, entries, RECORDED_AT)
}

const entry = (href: string, id = 64000000): ClistContest => ({
  id,
  event: 'A contest',
  href,
  startTime: RECORDED_AT + 3_600_000,
  endTime: RECORDED_AT + 7_200_000,
})

describe('the long-tail platforms', () => {
  it.each(LONG_TAIL.map((m) => [m.id, m] as const))(
    '%s comes from clist alone, with the one OTHER type and https links',
    (_, module) => {
      expect(module.source).toBeUndefined()
      expect(module.types).toEqual(['OTHER'])
      expect(module.homeUrl).toMatch(/^https:\/\//)
      expect(module.contestsUrl).toMatch(/^https:\/\//)
      expect(recordedContests(module).contests.length).toBeGreaterThan(0)
    },
  )
})

describe('TopCoder', () => {
  it("takes a challenge's UUID, and clist's id for rounds linked to the events page", () => {
    expect(recordedContests(topcoder).contests.map((c) => c.platformId)).toEqual([
      '3f2a8c1e-5b7d-4e9a-8c21-6d0f4b9e7a12',
      'clist-63650116',
    ])
  })
})

describe('Kattis', () => {
  it("takes the contest's key from its open.kattis.com page", () => {
    expect(recordedContests(kattis).contests).toEqual([
      {
        platform: 'kattis',
        platformId: 'q8k2vd',
        name: 'Kattis Autumn Cup 2026 Round 3',
        type: 'OTHER',
        startTime: Date.UTC(2026, 10, 28, 9),
        endTime: Date.UTC(2026, 10, 28, 14),
        websiteUrl: 'https://open.kattis.com/contests/q8k2vd',
        platformMetadata: { source: 'clist', clistId: 63641877 },
      },
    ])
  })

  it("keeps clist's id for a contest hosted on another Kattis site", () => {
    expect(kattis.clist?.contest(entry('https://nwerc.kattis.com/contests/nwerc2026'))).toEqual({
      platformId: 'clist-64000000',
      type: 'OTHER',
    })
  })
})

describe('Toph', () => {
  it('takes the contest slug, keeping the running round and the upcoming one', () => {
    expect(recordedContests(toph).contests.map((c) => c.platformId)).toEqual([
      'criterion-2026-round-6',
      'criterion-2026-round-7',
    ])
  })
})

describe('CodinGame', () => {
  it("takes the challenge's public id", () => {
    expect(recordedContests(codingame).contests.map((c) => c.platformId)).toEqual([
      'fall-challenge-2026',
      'winter-challenge-2026',
    ])
  })
})

describe('Kaggle', () => {
  it('takes the competition slug and drops the years-long Getting Started ones', () => {
    const result = recordedContests(kaggle)
    expect(result.contests.map((c) => c.platformId)).toEqual([
      'playground-series-s6e11',
      'santa-2026',
    ])
    expect(result.unsupported).toBe(1)
  })

  it('reads the older /c/ links as the same competition', () => {
    expect(kaggle.clist?.contest(entry('https://www.kaggle.com/c/santa-2026'))?.platformId).toBe(
      'santa-2026',
    )
  })
})

describe('Meta Hacker Cup', () => {
  it('takes the season and the round from the link', () => {
    const [final] = recordedContests(metaHackerCup).contests
    expect(final).toMatchObject({ platformId: '2026-final-round', name: 'Final Round 2026' })
  })
})

describe('ICPC', () => {
  it("takes clist's id, the link being a schedule page shared across seasons", () => {
    expect(recordedContests(icpc).contests.map((c) => c.platformId)).toEqual(['clist-63655502'])
  })
})
