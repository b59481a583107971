// Search from memory: the same tokens as D1's FTS5 for every character it covers, the same answers
// and order as the SQL search, SQL where memory cannot tell, and one read of the catalogue a version.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { bumpCatalogueVersion, catalogueVersion } from '../src/contests/catalogue-version.ts'
import { SEARCH_CANDIDATES, searchContests } from '../src/contests/queries.ts'
import { searchInMemory } from '../src/contests/search-memory.ts'
import { tokensOf } from '../src/contests/search-tokens.ts'
import { createDb } from '../src/db/client.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { tokenizerDifferences } from './helpers/fts-tokens.ts'
import { call, countingD1 } from './helpers/worker.ts'

beforeEach(clearContests)

const MAX_AGE_MS = 300_000

describe('the tokenizer', () => {
  it('makes the tokens D1’s FTS5 makes of every character it covers', async () => {
    const { covered, differing } = await tokenizerDifferences(env.DB)
    expect(covered).toBeGreaterThan(30_000)
    expect(differing).toEqual([])
    // Some of what is covered, by name: case, diacritics of Latin letters only (not Greek), variant
    // forms.
    expect(tokensOf('École ÜBER naïve Straße İstanbul')).toEqual([
      'ecole',
      'uber',
      'naive',
      'straße',
      'istanbul',
    ])
    expect(tokensOf('Ёлка µ ΣΟΦΌΣ プログラミング 程序设计')).toEqual([
      'ёлка',
      'μ',
      'σοφόσ',
      'プログラミング',
      '程序设计',
    ])
    // The fullwidth punctuation of Chinese judges' titles (Luogu, Nowcoder) separates words.
    expect(tokensOf('洛谷月赛（Div.2）：决赛 ＡＢＣ１２')).toEqual([
      '洛谷月赛',
      'div',
      '2',
      '决赛',
      'ａｂｃ１２',
    ])
  })

  it('covers no character where SQLite’s tables differ from the runtime’s', () => {
    // Dotless ı (SQLite keeps it), a combining mark, Thai, an emoji newer than SQLite's tables.
    for (const text of ['ı', 'e\u0301', 'การแข่งขัน', 'contest 🤖']) {
      expect(tokensOf(text), text).toBeUndefined()
    }
  })
})

/** A small seeded generator, so the catalogue is the same on every run. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const WORDS = [
  'Educational',
  'Round',
  'Codeforces',
  'Div.',
  'Global',
  'AtCoder',
  'Beginner',
  'Contest',
  'Starters',
  'Weekly',
  'Cup',
  'École',
  'über',
  'naïve',
  'Straße',
  'Олимпиада',
  '程序设计',
  'コンテスト',
]

/** More contests than the search ranks, with repeated names, shared start times and inactive ones. */
function catalogue(count: number) {
  const next = random(26)
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]
  const words = (n: number) => Array.from({ length: n }, pick).join(' ')
  return Array.from({ length: count }, (_, i) =>
    contest(1 + Math.floor(next() * 40), {
      name:
        next() < 0.1
          ? 'Educational Round'
          : `${next() < 0.7 ? 'Round ' : ''}${words(Math.floor(next() * 4))} ${i % 30}`,
      description: next() < 0.3 ? undefined : words(Math.floor(next() * 12)),
      isActive: next() >= 0.1,
    }),
  )
}

const QUERIES = [
  'educational',
  'round',
  'educational round',
  'e',
  'co',
  'ROUND 1',
  '2',
  'div',
  'ecole',
  'École',
  'uber naive',
  'strasse',
  'straße',
  'олимпиада',
  '程序',
  'コンテスト 3',
  'weekly cup starters',
  'nothing matches this',
]

describe('searching from memory', () => {
  it('gives the SQL search’s answers in its order, over more matches than it ranks', async () => {
    const contests = catalogue(SEARCH_CANDIDATES + 400)
    for (let i = 0; i < contests.length; i += 250) await addContests(contests.slice(i, i + 250))
    const db = createDb(env.DB)
    const version = await catalogueVersion(env.KV)
    for (const q of QUERIES) {
      const fromMemory = await searchInMemory(db, q, version, MAX_AGE_MS, Date.now())
      expect(fromMemory, q).toEqual(await searchContests(db, q))
    }
    // The cap is reached: more contests match "round" than are ranked.
    const { results } = await env.DB.prepare(
      `SELECT count(*) AS n FROM contests_fts WHERE contests_fts MATCH '"round"*'`,
    ).all<{ n: number }>()
    expect(results[0].n).toBeGreaterThan(SEARCH_CANDIDATES)
  })

  it('leaves to SQL a search or a catalogue with a character it does not cover', async () => {
    await addContests([contest(1, { name: 'Round One' }), contest(2, { name: 'การแข่งขัน Round' })])
    const db = createDb(env.DB)
    const version = await catalogueVersion(env.KV)
    expect(await searchInMemory(db, 'round', version, MAX_AGE_MS, Date.now())).toBeUndefined()
    const res = await call('/contests/search?q=round')
    expect((await res.json<{ name: string }[]>()).map((c) => c.name).sort()).toEqual([
      'Round One',
      'การแข่งขัน Round',
    ])
    await clearContests()
    await addContests([contest(1, { name: 'Round One' })])
    const now = await catalogueVersion(env.KV)
    expect(await searchInMemory(db, 'การ', now, MAX_AGE_MS, Date.now())).toBeUndefined()
    expect(await searchInMemory(db, 'round', now, MAX_AGE_MS, Date.now())).toHaveLength(1)
  })

  it('searches from memory a catalogue holding a Chinese judge’s title', async () => {
    await addContests([
      contest(1, { name: 'Round One' }),
      contest(2, { platform: 'luogu', name: '【LGR-200】洛谷 11 月月赛（Div.2）：Round' }),
    ])
    const db = createDb(env.DB)
    const version = await catalogueVersion(env.KV)
    const found = await searchInMemory(db, '洛谷 round', version, MAX_AGE_MS, Date.now())
    expect(found?.map((c) => c.platform)).toEqual(['luogu'])
  })

  it('reads the catalogue once a version, again after a write or once too old', async () => {
    await addContests([contest(1, { name: 'First Round' })])
    const { d1, counter } = countingD1(env.DB)
    const headers = { 'CF-Connecting-IP': '10.9.0.1' }
    const names = async (q: string) =>
      (
        await (
          await call(`/contests/search?q=${q}`, { headers }, { DB: d1 })
        ).json<{ name: string }[]>()
      ).map((c) => c.name)

    expect(await names('round')).toEqual(['First Round'])
    expect(await names('first')).toEqual(['First Round'])
    expect(counter.statements).toBe(1)

    await addContests([contest(2, { name: 'Second Round' })])
    expect(await names('round')).toEqual(['First Round', 'Second Round'])
    expect(counter.statements).toBe(2)

    const db = createDb(d1)
    const version = await bumpCatalogueVersion(env.KV)
    const later = Date.now() + 10_000
    expect(await searchInMemory(db, 'second', version, MAX_AGE_MS, later)).toHaveLength(1)
    expect(counter.statements).toBe(3)
    await searchInMemory(db, 'second', version, MAX_AGE_MS, later + MAX_AGE_MS)
    expect(counter.statements).toBe(3)
    await searchInMemory(db, 'second', version, MAX_AGE_MS, later + MAX_AGE_MS + 1)
    expect(counter.statements).toBe(4)
  })

  it('answers with the cache headers and ETag, and 304 to a client that has the answer', async () => {
    await addContests([contest(1, { name: 'Cached Round' })])
    const first = await call('/contests/search?q=cached')
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=300, s-maxage=300')
    const etag = first.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    const again = await call('/contests/search?q=cached', { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
  })
})
