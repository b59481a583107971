// The public contest endpoints: lists, search, lookup, filters, statistics and their errors.
import { PLATFORMS } from '../src/platforms/registry.ts'
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { findContest, searchContests } from '../src/contests/queries.ts'
import { createDb } from '../src/db/client.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { call, countingD1, getJson } from './helpers/worker.ts'

beforeEach(clearContests)

const names = (list: { name: string }[]) => list.map((c) => c.name)
const PLATFORM_VALUES = `platform must be one of the following values: ${PLATFORMS.join(', ')}`

describe('GET /contests/health', () => {
  it('answers ok with the current time and runs no database query', async () => {
    const { d1, counter } = countingD1(env.DB)
    const before = Date.now()
    const res = await call('/contests/health', {}, { DB: d1 })
    const body = await res.json<{ status: string; timestamp: string }>()
    expect(res.status).toBe(200)
    expect(body.status).toBe('ok')
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000)
    expect(counter.statements).toBe(0)
  })
})

describe('GET /contests/upcoming', () => {
  it('lists only active contests that have not started, soonest first', async () => {
    await addContests([
      contest(5, { name: 'Later' }),
      contest(1, { name: 'Soon' }),
      contest(-1, { name: 'Running' }),
      contest(-10, { name: 'Finished' }),
      contest(2, { name: 'Hidden', isActive: false }),
    ])
    const { status, body } = await getJson('/contests/upcoming')
    expect(status).toBe(200)
    expect(names(body)).toEqual(['Soon', 'Later'])
    expect(body[0].phase).toBe('BEFORE')
  })

  it('returns at most 50 contests', async () => {
    await addContests(Array.from({ length: 55 }, (_, i) => contest(i + 1)))
    const { body } = await getJson('/contests/upcoming')
    expect(body).toHaveLength(50)
  })

  it('filters by platform', async () => {
    await addContests([
      contest(1, { name: 'CF' }),
      contest(2, { name: 'LC', platform: 'leetcode', type: 'WEEKLY' }),
    ])
    const { body } = await getJson('/contests/upcoming?platform=leetcode')
    expect(names(body)).toEqual(['LC'])
  })

  it('rejects an unknown platform with a 400 naming the allowed values', async () => {
    const { status, body } = await getJson('/contests/upcoming?platform=nosuchjudge')
    expect(status).toBe(400)
    expect(body).toEqual({ statusCode: 400, message: [PLATFORM_VALUES], error: 'Bad Request' })
  })

  it('renders optional fields only when set, with ISO times', async () => {
    await addContests([
      contest(1, { name: 'Bare' }),
      contest(2, {
        name: 'Full',
        difficulty: 'HARD',
        participantCount: 12000,
        websiteUrl: 'https://codeforces.com/contest/1',
        platformMetadata: { frozen: false, relativeTimeSeconds: -7200 },
      }),
    ])
    const { body } = await getJson('/contests/upcoming')
    expect(body[0]).not.toHaveProperty('difficulty')
    expect(body[0]).not.toHaveProperty('description')
    expect(body[1]).toMatchObject({
      difficulty: 'HARD',
      participantCount: 12000,
      websiteUrl: 'https://codeforces.com/contest/1',
      platformMetadata: { frozen: false, relativeTimeSeconds: -7200 },
      durationMinutes: 120,
      isActive: true,
      isNotified: false,
    })
    expect(body[1].startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(body[1].id).toMatch(/^[0-9a-f]{24}$/)
  })
})

describe('GET /contests/running', () => {
  it('lists active contests under way, by start time', async () => {
    await addContests([
      contest(-1.5, { name: 'Started later' }),
      contest(-1.9, { name: 'Started first' }),
      contest(1, { name: 'Upcoming' }),
      contest(-3, { name: 'Over' }),
    ])
    const { body } = await getJson('/contests/running')
    expect(names(body)).toEqual(['Started first', 'Started later'])
    expect(body[0].phase).toBe('CODING')
  })
})

describe('GET /contests/finished', () => {
  it('lists ended contests, most recently ended first, at most 50', async () => {
    await addContests([
      contest(-100, { name: 'Old' }),
      contest(-5, { name: 'Recent' }),
      contest(-1, { name: 'Running' }),
      ...Array.from({ length: 50 }, (_, i) => contest(-200 - i)),
    ])
    const { body } = await getJson('/contests/finished')
    expect(body).toHaveLength(50)
    expect(names(body).slice(0, 2)).toEqual(['Recent', 'Old'])
    expect(body[0].phase).toBe('FINISHED')
  })
})

describe('GET /contests/search', () => {
  it('matches names and descriptions case-insensitively, names ranked first', async () => {
    await addContests([
      contest(1, { name: 'Weekly Contest 420', description: 'Graph problems' }),
      contest(2, { name: 'Graph Theory Cup', description: 'All about trees' }),
      contest(3, { name: 'Unrelated Round' }),
    ])
    const { status, body } = await getJson('/contests/search?q=GRAPH')
    expect(status).toBe(200)
    expect(names(body)).toEqual(['Graph Theory Cup', 'Weekly Contest 420'])
  })

  it('answers with whole rows, as a lookup by id reads them, in one D1 statement', async () => {
    const [row] = await addContests([
      contest(1, {
        name: 'Metadata Cup',
        description: 'With everything set',
        websiteUrl: 'https://codeforces.com/contest/1',
        difficulty: 'HARD',
        participantCount: 1200,
        problemCount: 7,
        platformMetadata: { division: 'Div. 2', rated: true },
      }),
    ])
    const db = createDb(env.DB)
    expect(await searchContests(db, 'metadata')).toEqual([await findContest(db, row.id)])
    const { d1, counter } = countingD1(env.DB)
    const res = await call('/contests/search?q=metadata%20cup', {}, { DB: d1 })
    const body = await res.json<{ id: string; platformMetadata: unknown }[]>()
    expect(body.map((c) => c.id)).toEqual([row.id])
    expect(body[0].platformMetadata).toEqual({ division: 'Div. 2', rated: true })
    expect(counter.statements).toBe(1)
  })

  it('ignores special characters and FTS operators in the query', async () => {
    await addContests([contest(1, { name: 'Educational Round 170' })])
    expect(names((await getJson('/contests/search?q=educational%22%20-*(%3A%5E')).body)).toEqual([
      'Educational Round 170',
    ])
    expect((await getJson('/contests/search?q=%25%24%23')).body).toEqual([])
  })

  it('leaves out inactive contests and returns at most 20', async () => {
    await addContests([
      contest(1, { name: 'Starters hidden', isActive: false }),
      ...Array.from({ length: 25 }, (_, i) => contest(i + 2, { name: `Starters ${i}` })),
    ])
    const { body } = await getJson('/contests/search?q=starters')
    expect(body).toHaveLength(20)
    expect(names(body)).not.toContain('Starters hidden')
  })

  it('finds a contest after its name changes', async () => {
    const [row] = await addContests([contest(1, { name: 'Old Name' })])
    await env.DB.prepare('UPDATE contests SET name = ? WHERE id = ?')
      .bind('Fresh Title', row.id)
      .run()
    await clearCacheVersion()
    expect((await getJson('/contests/search?q=old')).body).toEqual([])
    expect(names((await getJson('/contests/search?q=fresh')).body)).toEqual(['Fresh Title'])
  })

  for (const [label, query] of [
    ['missing', ''],
    ['empty', '?q='],
    ['only whitespace', '?q=%20%20%09'],
  ]) {
    it(`answers 400 when q is ${label}`, async () => {
      const { status, body } = await getJson(`/contests/search${query}`)
      expect(status).toBe(400)
      expect(body).toEqual({
        statusCode: 400,
        message: ['Search query parameter "q" is required'],
        error: 'Bad Request',
      })
    })
  }
})

async function clearCacheVersion() {
  const { bumpCatalogueVersion } = await import('../src/contests/catalogue-version.ts')
  await bumpCatalogueVersion(env.KV)
}

describe('GET /contests/:id', () => {
  it('returns the contest with its time-derived fields', async () => {
    const [row] = await addContests([contest(2, { name: 'Detail' })])
    const before = Date.now()
    const { status, body } = await getJson(`/contests/${row.id}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ id: row.id, name: 'Detail', isUpcoming: true, isRunning: false })
    expect(body.isFinished).toBe(false)
    expect(body.timeUntilStart).toBeGreaterThan(2 * HOUR_MS - (Date.now() - before) - 1000)
    expect(body.timeUntilStart).toBeLessThanOrEqual(2 * HOUR_MS)
    expect(body.timeUntilEnd).toBe(body.timeUntilStart + 2 * HOUR_MS)
  })

  it('reports a finished contest with zero times left', async () => {
    const [row] = await addContests([contest(-5)])
    const { body } = await getJson(`/contests/${row.id}`)
    expect(body).toMatchObject({
      isUpcoming: false,
      isRunning: false,
      isFinished: true,
      timeUntilStart: 0,
      timeUntilEnd: 0,
      phase: 'FINISHED',
    })
  })

  it('still returns an inactive contest', async () => {
    const [row] = await addContests([contest(1, { isActive: false })])
    const { status, body } = await getJson(`/contests/${row.id}`)
    expect(status).toBe(200)
    expect(body.isActive).toBe(false)
  })

  it('answers 400 for an id that is not 24 hex characters', async () => {
    for (const id of ['123', 'zzzzzzzzzzzzzzzzzzzzzzzz', '6745A1F03C9E4B2A1D0E7F11x']) {
      const { status, body } = await getJson(`/contests/${id}`)
      expect(status).toBe(400)
      expect(body).toEqual({
        statusCode: 400,
        message: ['Invalid contest ID format'],
        error: 'Bad Request',
      })
    }
  })

  it('answers 404 naming the id when no contest has it', async () => {
    const id = '6745a1f03c9e4b2a1d0e7f11'
    const { status, body } = await getJson(`/contests/${id}`)
    expect(status).toBe(404)
    expect(body).toEqual({
      statusCode: 404,
      message: `Contest with ID ${id} not found`,
      error: 'Not Found',
    })
  })
})

describe('GET /contests/platform/:platform', () => {
  beforeEach(async () => {
    await addContests([
      contest(3, { name: 'CF upcoming', difficulty: 'EASY' }),
      contest(-1, { name: 'CF running', type: 'ICPC' }),
      contest(-9, { name: 'CF finished', difficulty: 'EASY' }),
      contest(1, { name: 'LC', platform: 'leetcode', type: 'BIWEEKLY' }),
    ])
  })

  it('lists the platform by start time, all phases', async () => {
    const { body } = await getJson('/contests/platform/codeforces')
    expect(names(body)).toEqual(['CF finished', 'CF running', 'CF upcoming'])
  })

  it('filters by phase, type and difficulty', async () => {
    expect(names((await getJson('/contests/platform/codeforces?phase=CODING')).body)).toEqual([
      'CF running',
    ])
    expect(names((await getJson('/contests/platform/codeforces?type=ICPC')).body)).toEqual([
      'CF running',
    ])
    expect(
      names((await getJson('/contests/platform/codeforces?difficulty=EASY&phase=BEFORE')).body),
    ).toEqual(['CF upcoming'])
  })

  it('honours limit and defaults to 50', async () => {
    await addContests(Array.from({ length: 60 }, (_, i) => contest(10 + i)))
    expect((await getJson('/contests/platform/codeforces?limit=2')).body).toHaveLength(2)
    expect((await getJson('/contests/platform/codeforces')).body).toHaveLength(50)
  })

  it('rejects values outside their enumerations and limits out of range', async () => {
    const cases: [string, string][] = [
      ['/contests/platform/nosuchjudge', PLATFORM_VALUES],
      [
        '/contests/platform/codeforces?phase=UPCOMING',
        'phase must be one of the following values: BEFORE, CODING, FINISHED',
      ],
      ['/contests/platform/codeforces?limit=101', 'limit must not be greater than 100'],
      ['/contests/platform/codeforces?limit=0', 'limit must not be less than 1'],
      ['/contests/platform/codeforces?limit=abc', 'limit must be an integer number'],
    ]
    for (const [path, message] of cases) {
      const { status, body } = await getJson(path)
      expect(status, path).toBe(400)
      expect(body.message, path).toContain(message)
    }
  })
})

describe('GET /contests/difficulty/:level and /contests/type/:type', () => {
  it('lists active contests of a difficulty by start time', async () => {
    await addContests([
      contest(5, { name: 'Hard later', difficulty: 'HARD' }),
      contest(-30, { name: 'Hard past', difficulty: 'HARD' }),
      contest(1, { name: 'Easy', difficulty: 'EASY' }),
      contest(2, { name: 'Hard hidden', difficulty: 'HARD', isActive: false }),
    ])
    expect(names((await getJson('/contests/difficulty/HARD')).body)).toEqual([
      'Hard past',
      'Hard later',
    ])
  })

  it('lists active contests of a type by start time, at most 50', async () => {
    await addContests([
      ...Array.from({ length: 52 }, (_, i) => contest(i + 1, { platform: 'atcoder', type: 'ABC' })),
      contest(1, { name: 'ARC', platform: 'atcoder', type: 'ARC' }),
    ])
    const { body } = await getJson('/contests/type/ABC')
    expect(body).toHaveLength(50)
    expect(body.every((c: { type: string }) => c.type === 'ABC')).toBe(true)
  })

  it('rejects unknown levels and types with the allowed values', async () => {
    const level = await getJson('/contests/difficulty/INSANE')
    expect(level.status).toBe(400)
    expect(level.body.message).toEqual([
      'level must be one of the following values: BEGINNER, EASY, MEDIUM, HARD, EXPERT',
    ])
    const type = await getJson('/contests/type/DIV2')
    expect(type.status).toBe(400)
    expect(type.body.message[0]).toMatch(
      /^type must be one of the following values: CF, IOI, ICPC, WEEKLY/,
    )
  })
})

describe('GET /contests/stats', () => {
  it('counts active contests by phase, platform, type and difficulty', async () => {
    await addContests([
      contest(1, { difficulty: 'EASY' }),
      contest(2, { platform: 'leetcode', type: 'WEEKLY' }),
      contest(-1, { platform: 'atcoder', type: 'ABC', difficulty: 'EASY' }),
      contest(-10),
      contest(3, { isActive: false, platform: 'codechef', type: 'STARTERS' }),
    ])
    const { status, body } = await getJson('/contests/stats')
    expect(status).toBe(200)
    expect(body).toEqual({
      totalContests: 4,
      upcomingContests: 2,
      runningContests: 1,
      finishedContests: 1,
      platformBreakdown: { codeforces: 2, leetcode: 1, atcoder: 1 },
      typeBreakdown: { CF: 2, WEEKLY: 1, ABC: 1 },
      difficultyBreakdown: { EASY: 2 },
    })
  })

  it('answers zeros for an empty catalogue', async () => {
    const { body } = await getJson('/contests/stats')
    expect(body).toMatchObject({ totalContests: 0, upcomingContests: 0, platformBreakdown: {} })
  })
})

describe('GET /contests/stats/:platform', () => {
  it('reports counts and averages of one platform, with no sync time before any sync', async () => {
    await addContests([
      contest(1, { participantCount: 100 }),
      contest(-30, { participantCount: 300, endTime: Date.now() - 29 * HOUR_MS }),
      contest(2),
      contest(1, { platform: 'leetcode', type: 'WEEKLY', participantCount: 9999 }),
    ])
    const { body } = await getJson('/contests/stats/codeforces')
    expect(body).toEqual({
      platform: 'codeforces',
      totalContests: 3,
      upcomingContests: 2,
      runningContests: 0,
      finishedContests: 1,
      averageDuration: 100,
      averageParticipants: 200,
      lastSyncTime: null,
    })
  })

  it('rejects an unknown platform', async () => {
    const { status, body } = await getJson('/contests/stats/nosuchjudge')
    expect(status).toBe(400)
    expect(body.message).toEqual([PLATFORM_VALUES])
  })
})

describe('GET /contests', () => {
  beforeEach(async () => {
    await addContests([
      contest(1, { name: 'A', participantCount: 10 }),
      contest(2, { name: 'B', platform: 'leetcode', type: 'WEEKLY', participantCount: 30 }),
      contest(3, { name: 'C', difficulty: 'MEDIUM', participantCount: 20 }),
      contest(-1, { name: 'D' }),
      contest(4, { name: 'E', isActive: false }),
    ])
  })

  it('pages through active contests with the pagination block', async () => {
    const first = await getJson('/contests?limit=2')
    expect(first.status).toBe(200)
    expect(names(first.body.data)).toEqual(['D', 'A'])
    expect(first.body.pagination).toEqual({
      total: 4,
      limit: 2,
      offset: 0,
      hasNext: true,
      hasPrev: false,
    })
    const last = await getJson('/contests?limit=2&offset=2')
    expect(names(last.body.data)).toEqual(['B', 'C'])
    expect(last.body.pagination).toMatchObject({ hasNext: false, hasPrev: true })
  })

  it('filters by platform, phase, difficulty and start date range', async () => {
    expect(names((await getJson('/contests?platform=leetcode')).body.data)).toEqual(['B'])
    expect(names((await getJson('/contests?phase=CODING')).body.data)).toEqual(['D'])
    expect(names((await getJson('/contests?difficulty=MEDIUM')).body.data)).toEqual(['C'])
    const from = new Date(Date.now() + 1.5 * HOUR_MS).toISOString()
    const to = new Date(Date.now() + 2.5 * HOUR_MS).toISOString()
    const ranged = await getJson(`/contests?startDate=${from}&endDate=${to}`)
    expect(names(ranged.body.data)).toEqual(['B'])
    expect(ranged.body.pagination.total).toBe(1)
  })

  it('sorts by the chosen field and order', async () => {
    const byParticipants = await getJson('/contests?sortBy=participantCount&sortOrder=desc')
    expect(names(byParticipants.body.data)).toEqual(['B', 'C', 'A', 'D'])
    expect(names((await getJson('/contests?sortBy=name&sortOrder=desc')).body.data)).toEqual([
      'D',
      'C',
      'B',
      'A',
    ])
  })

  it('rejects pagination out of range with the spec messages', async () => {
    const tooMany = await getJson('/contests?limit=500')
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toEqual(['limit must not be greater than 100'])
    const negative = await getJson('/contests?offset=-1')
    expect(negative.body.message).toEqual(['offset must not be less than 0'])
    const sort = await getJson('/contests?sortBy=rating')
    expect(sort.body.message).toEqual([
      'sortBy must be one of the following values: startTime, endTime, name, participantCount, createdAt',
    ])
    const dates = await getJson('/contests?startDate=yesterday')
    expect(dates.body.message).toEqual(['startDate must be a valid ISO 8601 date string'])
  })
})
