// Bounded input on the public routes: the repeated-word search that stalled the database (security
// review, finding 1) is refused or reduced to a few terms, and every other unbounded field has one.
import { PLATFORMS } from '../src/platforms/registry.ts'
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SEARCH_CANDIDATES, searchTerms, toFtsQuery } from '../src/contests/queries.ts'
import { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS } from '../src/contests/schemas.ts'
import { MAX_DATE_LENGTH, MAX_OFFSET } from '../src/lib/validation.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { call, getJson } from './helpers/worker.ts'

beforeEach(clearContests)

const names = (list: { name: string }[]) => list.map((c) => c.name)
const TOO_LONG = `q must be at most ${MAX_SEARCH_LENGTH} characters`
const badRequest = (message: string) => ({
  statusCode: 400,
  message: [message],
  error: 'Bad Request',
})

/**
 * A D1 binding that records every statement it prepares with the values bound to it, so a test
 * can read the FTS5 query a search hands to SQLite.
 */
function recordingD1(d1: D1Database) {
  const statements: { sql: string; params: unknown[] }[] = []
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => {
          const entry = { sql, params: [] as unknown[] }
          statements.push(entry)
          const statement = target.prepare(sql)
          return new Proxy(statement, {
            get(s, p) {
              if (p === 'bind') {
                return (...params: unknown[]) => {
                  entry.params = params
                  return s.bind(...params)
                }
              }
              const value = Reflect.get(s, p)
              return typeof value === 'function' ? value.bind(s) : value
            },
          })
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  /** The MATCH values of the statements that searched the full-text index. */
  const matches = () =>
    statements
      .filter((s) => s.sql.includes('contests_fts MATCH'))
      .map((s) => s.params.find((p) => typeof p === 'string' && p.includes('"')))
  return { db, statements, matches }
}

const url = (path: string, q: string) => `${path}?q=${encodeURIComponent(q)}`

/** A name in a script the in-memory search leaves to FTS5, so a search goes to SQL. */
const THAI = 'การแข่งขัน'

describe('the finding: GET /contests/search with one word repeated', () => {
  it('refuses 1,000 repeated words (2,000 characters) with a 400 and runs no SQL', async () => {
    await addContests([contest(1, { name: 'Atcoder Beginner Contest 380' })])
    for (const words of [1_000, 3_000, 7_000]) {
      const { db, statements } = recordingD1(env.DB)
      const res = await call(url('/contests/search', 'a '.repeat(words)), {}, { DB: db })
      expect(res.status, `${words} words`).toBe(400)
      expect(await res.json()).toEqual(badRequest(TOO_LONG))
      expect(statements).toHaveLength(0)
    }
  })

  it('searches the most repeats that fit in the bound for the word once', async () => {
    await addContests([
      contest(1, { name: 'Atcoder Beginner Contest 380' }),
      contest(2, { name: 'Codeforces Round 999' }),
    ])
    const q = Array.from({ length: MAX_SEARCH_LENGTH / 2 }, () => 'a').join(' ')
    expect(q.length).toBe(MAX_SEARCH_LENGTH - 1)
    // From memory (search-memory.ts), then from FTS5, whose statement shows the terms it got.
    expect(names((await getJson(url('/contests/search', q))).body)).toEqual([
      'Atcoder Beginner Contest 380',
    ])
    await addContests([contest(3, { name: THAI })])
    const { db, matches } = recordingD1(env.DB)
    const res = await call(url('/contests/search', q), {}, { DB: db })
    expect(res.status).toBe(200)
    expect(names(await res.json())).toEqual(['Atcoder Beginner Contest 380'])
    expect(matches()).toEqual(['"a"*'])
  })

  it('takes the first 10 distinct words of a query at the bound', async () => {
    await addContests([contest(1, { name: 'Grand Round' }), contest(2, { name: THAI })])
    // 25 distinct words in 99 characters.
    const words = Array.from({ length: 25 }, (_, i) => `w${String(i).padStart(2, '0')}`)
    const q = words.join(' ')
    expect(q.length).toBeLessThanOrEqual(MAX_SEARCH_LENGTH)
    const { db, matches } = recordingD1(env.DB)
    const res = await call(url('/contests/search', q), {}, { DB: db })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([])
    expect(matches()).toEqual([
      words
        .slice(0, MAX_SEARCH_TERMS)
        .map((w) => `"${w}"*`)
        .join(' '),
    ])
  })
})

describe('GET /contests/search bounds', () => {
  it(`ranks the ${SEARCH_CANDIDATES} most recently added matches when more match`, async () => {
    // The best match by rank, added first: once more than the cap match, it is left out.
    const [oldest] = await addContests([contest(1, { name: 'Starters Starters Starters' })])
    const many = Array.from({ length: SEARCH_CANDIDATES }, (_, i) =>
      contest(2, { name: `Starters ${i}` }),
    )
    for (let i = 0; i < many.length; i += 250) await addContests(many.slice(i, i + 250))
    const { body } = await getJson('/contests/search?q=starters')
    expect(body).toHaveLength(20)
    expect(names(body)).not.toContain(oldest.name)
    // With fewer matches than the cap it ranks first, as bm25 has it.
    await clearContests()
    await addContests([
      contest(1, { name: 'Starters Starters Starters' }),
      contest(2, { name: 'Starters 1' }),
    ])
    expect(names((await getJson('/contests/search?q=starters')).body)).toEqual([
      oldest.name,
      'Starters 1',
    ])
  })

  it(`accepts ${MAX_SEARCH_LENGTH} characters, and more only as surrounding whitespace`, async () => {
    await addContests([contest(1, { name: 'Educational Round 170' })])
    const exact = `educ ${'x'.repeat(MAX_SEARCH_LENGTH - 5)}`
    expect((await getJson(url('/contests/search', exact))).status).toBe(200)
    const padded = `   educational   `
    expect(names((await getJson(url('/contests/search', padded))).body)).toEqual([
      'Educational Round 170',
    ])
    const spaced = `${' '.repeat(50)}${'y'.repeat(MAX_SEARCH_LENGTH)}${' '.repeat(50)}`
    expect((await getJson(url('/contests/search', spaced))).status).toBe(200)
  })

  it(`answers 400 in the error shape beyond ${MAX_SEARCH_LENGTH} characters`, async () => {
    for (const q of ['x'.repeat(MAX_SEARCH_LENGTH + 1), `a ${'b'.repeat(14_000)}`]) {
      const { status, body } = await getJson(url('/contests/search', q))
      expect(status).toBe(400)
      expect(body).toEqual(badRequest(TOO_LONG))
    }
  })

  it('keeps the spec’s message for a missing or blank q', async () => {
    for (const path of ['/contests/search', '/contests/search?q=%20%20']) {
      expect((await getJson(path)).body).toEqual(
        badRequest('Search query parameter "q" is required'),
      )
    }
  })

  it('still matches each word as a prefix, whatever its case or the punctuation', async () => {
    await addContests([
      contest(1, { name: 'Educational Codeforces Round 170' }),
      contest(2, { name: 'Educational Round 171', isActive: false }),
      contest(3, { name: 'Global Round 28' }),
    ])
    const { body } = await getJson(url('/contests/search', 'EDUC, educ! Educ... code'))
    expect(names(body)).toEqual(['Educational Codeforces Round 170'])
  })

  it('says its bounds in the OpenAPI document', async () => {
    const { body } = await getJson('/openapi.json')
    const param = (path: string, name: string) =>
      body.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema
    expect(param('/contests/search', 'q').maxLength).toBe(MAX_SEARCH_LENGTH)
    expect(param('/contests', 'offset').maximum).toBe(MAX_OFFSET)
    expect(param('/contests', 'startDate').maxLength).toBe(MAX_DATE_LENGTH)
    expect(param('/contests/{id}', 'id').maxLength).toBe(24)
    expect(param('/contests/calendar.ics', 'platform').maxLength).toBe(PLATFORMS.join(',').length)
    expect(param('/calendar/{file}', 'file').maxLength).toBe(47)
    expect(param('/subscriptions/mute', 'token').maxLength).toBe(93)
    expect(param('/unsubscribe', 'token').maxLength).toBe(68)
    const keys = body.components.schemas.PushSubscriptionInput.properties.keys.properties
    expect([keys.p256dh.maxLength, keys.auth.maxLength]).toEqual([88, 24])
  })
})

describe('toFtsQuery and searchTerms', () => {
  it('keeps each word once, lowercased, in the order first seen', () => {
    expect(searchTerms('Round round ROUND, div. 2 Div 2')).toEqual(['round', 'div', '2'])
    expect(toFtsQuery('a a a a a a a a a a a a')).toBe('"a"*')
  })

  it('keeps only the longest of words that begin one another, in the place of the first', () => {
    expect(searchTerms('c co con contest')).toEqual(['contest'])
    expect(searchTerms('contest c co with w problems p')).toEqual(['contest', 'with', 'problems'])
    expect(searchTerms('div round d 2 division r 20')).toEqual(['division', 'round', '20'])
    expect(toFtsQuery('educ educational round r')).toBe('"educational"* "round"*')
  })

  it(`keeps at most ${MAX_SEARCH_TERMS} terms however many words it is given`, () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `w${i}`)
    const terms = searchTerms(words.join(' '))
    expect(terms).toEqual(words.slice(0, MAX_SEARCH_TERMS))
    expect(toFtsQuery([...words, ...words].join(' '))?.split(' ')).toHaveLength(MAX_SEARCH_TERMS)
    // Repeats before the tenth distinct word take no place among the ten.
    expect(searchTerms(`${'x '.repeat(1_000)}${words.join(' ')}`)).toEqual([
      'x',
      ...words.slice(0, MAX_SEARCH_TERMS - 1),
    ])
  })

  it('drops empty terms: punctuation alone is no search', () => {
    expect(searchTerms('  ,;  "" -*( ')).toEqual([])
    expect(toFtsQuery('%$#')).toBeUndefined()
    expect(toFtsQuery('"educ" OR -x*')).toBe('"educ"* "or"* "x"*')
  })
})

describe('the home page search', () => {
  it('has the API’s bound and builds the same query', async () => {
    await addContests([contest(1, { name: 'Atcoder Beginner Contest 380' })])
    const refused = await call(url('/', 'a '.repeat(1_000)))
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain(TOO_LONG)

    const q = Array.from({ length: MAX_SEARCH_LENGTH / 2 }, () => 'A').join(' ')
    const { db, matches } = recordingD1(env.DB)
    const res = await call(url('/', q), {}, { DB: db })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Atcoder Beginner Contest 380')
    expect(matches()).toEqual(['"a"*'])
  })
})

describe('other public query and path fields', () => {
  it(`refuses an offset beyond ${MAX_OFFSET}`, async () => {
    expect((await getJson(`/contests?offset=${MAX_OFFSET}&limit=100`)).status).toBe(200)
    const { status, body } = await getJson(`/contests?offset=${MAX_OFFSET + 1}`)
    expect(status).toBe(400)
    expect(body).toEqual(badRequest(`offset must not be greater than ${MAX_OFFSET}`))
  })

  it(`refuses a date longer than ${MAX_DATE_LENGTH} characters with the date message once`, async () => {
    const longest = '2026-11-22T14:35:00.123456789+05:30'
    expect((await getJson(`/contests?startDate=${encodeURIComponent(longest)}`)).status).toBe(200)
    const long = `2026-11-22T14:35:00.${'1'.repeat(5_000)}Z`
    const { status, body } = await getJson(`/contests?startDate=${long}`)
    expect(status).toBe(400)
    expect(body).toEqual(badRequest('startDate must be a valid ISO 8601 date string'))
  })

  it('answers a long id with the id message', async () => {
    for (const path of [`/contests/${'a'.repeat(10_000)}`, `/contests/${'a'.repeat(25)}`]) {
      const { status, body } = await getJson(path)
      expect(status, path.slice(0, 40)).toBe(400)
      expect(body).toEqual(badRequest('Invalid contest ID format'))
    }
  })

  it('refuses a feed filter longer than the list of every value once', async () => {
    const all = PLATFORMS.join(',')
    expect((await call(`/contests/calendar.ics?platform=${all}`)).status).toBe(200)
    expect((await call(`/contests/calendar.ics?platform=atcoder,atcoder`)).status).toBe(200)
    const { status, body } = await getJson(
      `/contests/calendar.ics?platform=${'codeforces,'.repeat(1_000)}codeforces`,
    )
    expect(status).toBe(400)
    expect(body).toEqual(badRequest(`platform must be at most ${all.length} characters`))
  })

  it('answers a signed link with a token longer than its fixed length with the bad-link page', async () => {
    for (const path of ['/subscriptions/mute', '/unsubscribe']) {
      const res = await call(`${path}?token=${'a'.repeat(24)}.${'A'.repeat(10_000)}`)
      expect(res.status, path).toBe(400)
      expect(await res.text()).toContain('This link is not valid')
    }
  })

  it('answers a long private feed file with a 404', async () => {
    const res = await call(`/calendar/${'A'.repeat(10_000)}.ics`)
    expect(res.status).toBe(404)
  })
})
