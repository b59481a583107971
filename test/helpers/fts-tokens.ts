// The check that the search tokenizer agrees with SQLite's FTS5, shared by the Workers test (D1)
// and the Deno test (node:sqlite): each covered character between two letters, as one document.
import { tokensOf } from '../../src/contests/search-tokens.ts'

/** A scratch FTS5 table with the catalogue's tokenizer, and a view of every token it made. */
export const SCRATCH_FTS_SQL = [
  `CREATE VIRTUAL TABLE scratch USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')`,
  `CREATE VIRTUAL TABLE scratch_words USING fts5vocab(scratch, 'instance')`,
]
export const SCRATCH_INSERT_SQL = `INSERT INTO scratch (rowid, x)
  SELECT value ->> 0, value ->> 1 FROM json_each(?1)`
export const SCRATCH_WORDS_SQL = 'SELECT doc, term FROM scratch_words ORDER BY doc, "offset"'

/** Every covered code point of the Basic Multilingual Plane with the tokens made here of it. */
export function coveredCharacters(): Map<number, string[]> {
  const expected = new Map<number, string[]>()
  for (let code = 1; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue
    const tokens = tokensOf(`a${String.fromCodePoint(code)}b`)
    if (tokens) expected.set(code, tokens)
  }
  return expected
}

/** The documents to insert, as [rowid, text] pairs. */
export const scratchDocuments = (expected: Map<number, string[]>) =>
  [...expected.keys()].map((code) => [code, `a${String.fromCodePoint(code)}b`])

/** The code points whose tokens SQLite made differently, with both. */
export function differing(expected: Map<number, string[]>, words: { doc: number; term: string }[]) {
  const actual = new Map<number, string[]>()
  for (const { doc, term } of words) actual.set(doc, [...(actual.get(doc) ?? []), term])
  return [...expected].filter(
    ([code, tokens]) => JSON.stringify(actual.get(code)) !== JSON.stringify(tokens),
  )
}
