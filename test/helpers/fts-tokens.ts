// The check that the search tokenizer agrees with SQLite's FTS5, shared by the Workers test (D1)
// and the Deno test (node:sqlite): each covered character between two letters, as one document.
import { tokensOf } from '../../src/contests/search-tokens.ts'

// Documents per INSERT, bound as one JSON array, so no single D1 call grows with the whole plane.
const CHUNK = 5_000

/**
 * Tokenizes every covered code point of the Basic Multilingual Plane here and in `d1`'s FTS5
 * (a scratch table with the catalogue's tokenizer), and answers how many were covered and the
 * first few whose tokens differ, with both.
 */
export async function tokenizerDifferences(d1: D1Database) {
  await d1.batch([
    d1.prepare(
      `CREATE VIRTUAL TABLE scratch USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')`,
    ),
    d1.prepare(`CREATE VIRTUAL TABLE scratch_words USING fts5vocab(scratch, 'instance')`),
  ])
  const expected = new Map<number, string[]>()
  for (let code = 1; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue
    const tokens = tokensOf(`a${String.fromCodePoint(code)}b`)
    if (tokens) expected.set(code, tokens)
  }
  const documents = [...expected.keys()].map((code) => [code, `a${String.fromCodePoint(code)}b`])
  for (let i = 0; i < documents.length; i += CHUNK) {
    await d1
      .prepare('INSERT INTO scratch (rowid, x) SELECT value ->> 0, value ->> 1 FROM json_each(?1)')
      .bind(JSON.stringify(documents.slice(i, i + CHUNK)))
      .run()
  }
  const { results } = await d1
    .prepare('SELECT doc, term FROM scratch_words ORDER BY doc, "offset"')
    .all<{ doc: number; term: string }>()
  const actual = new Map<number, string[]>()
  for (const { doc, term } of results) actual.set(doc, [...(actual.get(doc) ?? []), term])
  const differing = [...expected].filter(
    ([code, tokens]) => JSON.stringify(actual.get(code)) !== JSON.stringify(tokens),
  )
  return { covered: expected.size, differing: differing.slice(0, 5) }
}
