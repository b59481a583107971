// CodeChef's /api/list/contests/all: parsed from the recorded answer and fetched from the stand-in.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  byId,
  clistEntry,
  CLOSED_PORT,
  expectSent,
  expectWellFormed,
  idAndType,
  ids,
  scriptOk,
  standInRequest,
  upstreamFailure,
} from '../../../test/helpers/platform-sources.ts'
import { standIn } from '../../../test/helpers/stand-in.ts'
import { RECORDED_AT } from '../fixture-time.ts'
import type { SourceRequest } from '../source.ts'
import codechefAll from './fixtures/codechef-contests-all.json'
import {
  codechef,
  codechefChildCodes,
  codechefDivisions,
  codechefRoundCode,
  codechefType,
  fetchCodechef,
  parseCodechefContests,
} from './index.ts'

const NOW = RECORDED_AT
const request = (fields: Partial<SourceRequest> = {}) => standInRequest('/codechef-api', fields)

beforeEach(() => standIn.reset())

describe('CodeChef adapter', () => {
  const parsed = () => parseCodechefContests(codechefAll, NOW)

  it('turns present, future and past contests into contests with IST times in UTC', () => {
    const result = parsed()
    expectWellFormed(codechef, result.contests)
    expect(result.contests).toHaveLength(20)
    expect(byId(result, 'START265')).toEqual({
      platform: 'codechef',
      platformId: 'START265',
      name: 'Starters 265',
      type: 'STARTERS',
      startTime: Date.parse('2026-11-25T14:30:00Z'),
      endTime: Date.parse('2026-11-25T16:30:00Z'),
      websiteUrl: 'https://www.codechef.com/START265',
      registrationUrl: 'https://www.codechef.com/START265',
    })
  })

  it('keys a round listed under a division child code (START265B) by its own code', () => {
    const result = parsed()
    expect(ids(result).filter((id) => id.startsWith('START265'))).toEqual(['START265'])
    // The page CodeChef's own banner links to for the round.
    expect(byId(result, 'START265').websiteUrl).toBe(codechefAll.banners[0].link)
  })

  it('gives a round the same id while it is to come and once it is over', () => {
    const upcoming = codechefAll.future_contests.find((c) => c.contest_code === 'START265B')!
    const over = {
      ...upcoming,
      contest_code: 'START265',
      contest_name: 'Starters 265 (Rated till 6-Star)',
      distinct_users: 21034,
    }
    const before = parseCodechefContests(codechefAll, NOW)
    const after = parseCodechefContests(
      { present_contests: [], future_contests: [], past_contests: [over] },
      NOW + 7 * 86_400_000,
    )
    expect(ids(after)).toEqual(['START265'])
    expect(idAndType(byId(after, 'START265'))).toEqual(idAndType(byId(before, 'START265')))
  })

  it('stores no division and no difficulty for a round its name leaves open to all', () => {
    const result = parsed()
    // Listed as START265B (the Division 2 child), but its name names no division.
    for (const id of ['START265', 'START266', 'START264']) {
      expect(byId(result, id)).not.toHaveProperty('difficulty')
      expect(byId(result, id)).not.toHaveProperty('platformMetadata')
    }
  })

  it('takes the divisions a round is for from its name, and a difficulty only for one', () => {
    const result = parsed()
    expect(byId(result, 'LTIME124')).toMatchObject({
      difficulty: 'EXPERT',
      platformMetadata: { division: 'div1' },
    })
    expect(byId(result, 'LTIME125').platformMetadata).toEqual({ division: 'div2+div3+div4' })
    expect(byId(result, 'COOK160').platformMetadata).toEqual({ division: 'div1+div2' })
    expect(byId(result, 'DEC261').platformMetadata).toEqual({ division: 'div3+div4' })
    for (const id of ['LTIME125', 'COOK160', 'DEC261']) {
      expect(byId(result, id)).not.toHaveProperty('difficulty')
    }
  })

  it('reads a single-division child entry by its name, keyed by the round', () => {
    const child = {
      ...codechefAll.future_contests[0],
      contest_code: 'START265D',
      contest_name: 'Starters 265 (Div. 4)',
    }
    const payload = { present_contests: [], future_contests: [child] }
    expect(parseCodechefContests(payload, NOW).contests).toEqual([
      expect.objectContaining({
        platformId: 'START265',
        difficulty: 'BEGINNER',
        platformMetadata: { division: 'div4' },
        websiteUrl: 'https://www.codechef.com/START265',
      }),
    ])
  })

  it('keeps one entry for a round listed under its own code and a child code', () => {
    const own = { ...codechefAll.future_contests[0], contest_code: 'START265' }
    const payload = { present_contests: [], future_contests: [codechefAll.future_contests[0], own] }
    expect(ids(parseCodechefContests(payload, NOW))).toEqual(['START265'])
  })

  it('maps Starters, Cook-Off, Lunchtime and Long contests to their types', () => {
    const result = parsed()
    expect(byId(result, 'START264').type).toBe('STARTERS')
    expect(byId(result, 'COOK160').type).toBe('COOK_OFF')
    expect(byId(result, 'LTIME125').type).toBe('LUNCH_TIME')
    expect(byId(result, 'DEC261').type).toBe('LONG')
    expect(byId(result, 'OCT261').type).toBe('LONG')
  })

  it('counts contests of no known series as unsupported', () => {
    const result = parsed()
    expect(result.unsupported).toBe(3)
    for (const code of ['TCUP2026', 'SNCK2026Q', 'CMAT26']) expect(ids(result)).not.toContain(code)
  })

  it('skips and counts an item with an unreadable start and one without a code', () => {
    const result = parsed()
    expect(result.skipped).toBe(2)
    expect(result.errors[0]).toMatch(/^codechef contest START267: contest_start_date_iso/)
    expect(result.errors[1]).toMatch(/^codechef contest #\d+: contest_code/)
    expect(ids(result)).not.toContain('START267')
  })

  it('takes distinct_users as the participant count once anyone has taken part', () => {
    const result = parsed()
    expect(byId(result, 'START264').participantCount).toBe(24871)
    expect(byId(result, 'START265')).not.toHaveProperty('participantCount')
  })

  it('reads divisions from names, round codes and child codes from codes', () => {
    expect(codechefDivisions('Starters 265')).toEqual([])
    expect(codechefDivisions('Starters 133 (Rated till 6-Star)')).toEqual([])
    expect(codechefDivisions('Starters 115 (Rated for All)')).toEqual([])
    expect(codechefDivisions('Starters 265 (Div. 3)')).toEqual(['div3'])
    expect(codechefDivisions('Lunchtime (Rated for Division 1)')).toEqual(['div1'])
    expect(codechefDivisions('Starters 54 (Rated for Div 2, 3 & 4)')).toEqual([
      'div2',
      'div3',
      'div4',
    ])
    expect(codechefDivisions('Cook-Off (Rated for Div 2 & 1)')).toEqual(['div1', 'div2'])
    expect(codechefRoundCode('START134B')).toBe('START134')
    expect(codechefRoundCode('COOK127A')).toBe('COOK127')
    expect(codechefRoundCode('SEPT18A')).toBe('SEPT18')
    expect(codechefRoundCode('START134')).toBe('START134')
    expect(codechefRoundCode('DEC261')).toBe('DEC261')
    expect(codechefRoundCode('TCUP2026')).toBe('TCUP2026')
    expect(codechefChildCodes('START134')).toEqual([
      'START134A',
      'START134B',
      'START134C',
      'START134D',
    ])
    expect(codechefChildCodes('START134B')).toEqual([])
    expect(codechefChildCodes('CMAT26')).toEqual([])
    expect(codechefType('JUNE21', 'June Challenge 2021')).toBe('LONG')
    expect(codechefType('XYZ', 'Starters 1')).toBe('STARTERS')
    expect(codechefType('CMAT26', 'Code Mates 26')).toBeUndefined()
  })

  it('leaves out contests that finished before the retention window', () => {
    const result = parsed()
    expect(ids(result)).toContain('START252')
    expect(ids(result)).not.toContain('START251')
  })

  it('takes the end from contest_duration when the ISO end is blank', () => {
    const entry = { ...codechefAll.future_contests[0], contest_end_date_iso: '' }
    const payload = { present_contests: [], future_contests: [entry] }
    const [contest] = parseCodechefContests(payload, NOW).contests
    expect(contest.endTime - contest.startTime).toBe(120 * 60_000)
  })

  it('keeps one entry for a contest listed both as present and as future', () => {
    const entry = codechefAll.future_contests[0]
    const payload = { present_contests: [entry], future_contests: [entry], past_contests: [] }
    expect(ids(parseCodechefContests(payload, NOW))).toEqual(['START265'])
  })

  it('throws a malformed error when the future list is missing, even if the past is there', async () => {
    const { future_contests: _future, ...onlyPast } = codechefAll
    await upstreamFailure(() => parseCodechefContests(onlyPast, NOW), 'malformed')
  })

  it('fetches /api/list/contests/all from the base URL, naming the service', async () => {
    await scriptOk('GET', '/codechef-api/api/list/contests/all', [codechefAll])
    const result = await fetchCodechef(request())
    expect(result).toEqual(parsed())
    const [sent] = await standIn.requests('/codechef-api/')
    expectSent(sent, '/codechef-api/api/list/contests/all')
  })

  it('reports an HTTP 500, a truncated body and a refused connection by kind', async () => {
    await standIn.script({
      pathPrefix: '/codechef-api/api/list/contests/all',
      responses: [
        { status: 500, body: { status: 'error', message: 'Internal Server Error' } },
        { status: 200, body: JSON.stringify(codechefAll).slice(0, 1000) },
      ],
    })
    const status = await upstreamFailure(fetchCodechef(request()), 'status')
    expect(status.status).toBe(500)
    await upstreamFailure(fetchCodechef(request()), 'malformed')
    await upstreamFailure(fetchCodechef(request({ baseUrl: CLOSED_PORT })), 'network')
  })
})

describe('the codechef descriptor', () => {
  it('fetches from its CODECHEF_API_URL stand-in and gives well-formed contests', async () => {
    await scriptOk('GET', '/codechef-api/api/list/contests/all', [codechefAll])
    expect(codechef.source!.setting).toBe('CODECHEF_API_URL')
    expectWellFormed(codechef, (await codechef.source!.fetch(request())).contests)
  })

  it('maps a clist.by entry to the code and type the own source stores', () => {
    const entry = clistEntry('https://www.codechef.com/START265', 'Starters 265')
    const own = byId(parseCodechefContests(codechefAll, NOW), 'START265')
    expect(codechef.clist!.contest(entry)).toEqual(idAndType(own))
    // A child's link, should clist.by carry one, is the same round.
    const child = { ...entry, href: 'https://www.codechef.com/START265B' }
    expect(codechef.clist!.contest(child)).toEqual(idAndType(own))
    expect(
      codechef.clist!.contest({
        ...entry,
        event: 'Code Mates 26',
        href: 'https://www.codechef.com/CMAT26',
      }),
    ).toBeUndefined()
  })

  it('names the child codes an earlier parser stored a round under, for the sync to take over', () => {
    expect(codechef.formerIds!('START265')).toContain('START265B')
  })
})
