// An in-memory copy of the contests' full-text index that ranks a search exactly as the SQL does
// (queries.ts SEARCH_SQL): the same prefix matches, FTS5's bm25 with the same weights and
// statistics, the same cap on candidates and the same order, with no database call.
import type { ContestRow } from '../db/schema.ts'
import { SEARCH_CANDIDATES } from './queries.ts'
import { tokensOf } from './search-tokens.ts'

/** A contest as the index holds it: its rowid (FTS5's document id) and its row for the answer. */
export interface IndexedContest {
  rowid: number
  row: ContestRow
}

/** bm25's weight of a word found in a column: the name counts ten times the description. */
const NAME_WEIGHT = 10
const DESCRIPTION_WEIGHT = 1
// FTS5's constants (fts5_aux.c).
const K1 = 1.2
const B = 0.75

interface Postings {
  /** Positions of the contests holding the word, ascending. */
  docs: number[]
  /** For each, the weighted count of the word: ten a time in the name, one in the description. */
  weights: number[]
}

export interface SearchIndex {
  contests: IndexedContest[]
  /** Tokens in each contest's name and description together (FTS5's document length). */
  lengths: Uint32Array
  words: Map<string, Postings>
  /** Every word once, sorted, so the words that begin with a prefix are one run. */
  sorted: string[]
  averageLength: number
}

/**
 * Indexes contests given in ascending rowid (every contest, active or not, as FTS5 holds them),
 * or answers undefined when a text has a character the tokenizer does not cover.
 */
export function buildSearchIndex(contests: IndexedContest[]): SearchIndex | undefined {
  const lengths = new Uint32Array(contests.length)
  const words = new Map<string, Postings>()
  let total = 0
  for (let doc = 0; doc < contests.length; doc++) {
    const { row } = contests[doc]
    const name = tokensOf(row.name)
    const description = row.description === null ? [] : tokensOf(row.description)
    if (!name || !description) return undefined
    const counts = new Map<string, number>()
    for (const word of name) counts.set(word, (counts.get(word) ?? 0) + NAME_WEIGHT)
    for (const word of description) counts.set(word, (counts.get(word) ?? 0) + DESCRIPTION_WEIGHT)
    for (const [word, weight] of counts) {
      let postings = words.get(word)
      if (!postings) words.set(word, (postings = { docs: [], weights: [] }))
      postings.docs.push(doc)
      postings.weights.push(weight)
    }
    lengths[doc] = name.length + description.length
    total += lengths[doc]
  }
  const sorted = [...words.keys()].sort()
  return { contests, lengths, words, sorted, averageLength: total / contests.length }
}

/** The first index in `sorted` of a word not less than `prefix`. */
function lowerBound(sorted: string[], prefix: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sorted[middle] < prefix) low = middle + 1
    else high = middle
  }
  return low
}

/** Each contest holding a word that begins with `prefix`, with the weighted count of such words. */
function prefixHits(index: SearchIndex, prefix: string): Map<number, number> {
  const hits = new Map<number, number>()
  for (let i = lowerBound(index.sorted, prefix); i < index.sorted.length; i++) {
    const word = index.sorted[i]
    if (!word.startsWith(prefix)) break
    const { docs, weights } = index.words.get(word)!
    for (let j = 0; j < docs.length; j++) hits.set(docs[j], (hits.get(docs[j]) ?? 0) + weights[j])
  }
  return hits
}

/**
 * The search's terms as FTS5 reads the quoted words of the MATCH query (one token each), or
 * undefined when a term is not one token here and only SQLite can tell.
 */
export function indexTerms(terms: string[]): string[] | undefined {
  const folded: string[] = []
  for (const term of terms) {
    const tokens = tokensOf(term)
    if (tokens?.length !== 1) return undefined
    folded.push(tokens[0])
  }
  return folded
}

/**
 * The best `limit` active contests holding every term as a prefix, as SEARCH_SQL ranks them: of
 * the SEARCH_CANDIDATES highest rowids that match, by bm25, then start time. Equal keys keep the
 * candidates' order (highest rowid first), as SQLite's sorter does.
 */
export function searchIndex(index: SearchIndex, terms: string[], limit: number): ContestRow[] {
  if (terms.length === 0 || index.contests.length === 0) return []
  const hits = terms.map((term) => prefixHits(index, term))
  const fewest = hits.reduce((a, b) => (b.size < a.size ? b : a))
  const matches = [...fewest.keys()].filter((doc) => hits.every((h) => h.has(doc)))
  matches.sort((a, b) => b - a)
  const candidates = matches.slice(0, SEARCH_CANDIDATES)

  // bm25 as FTS5 computes it, operation for operation, so equal ranks stay equal.
  const rows = index.contests.length
  const idf = hits.map((h) => {
    const value = Math.log((rows - h.size + 0.5) / (h.size + 0.5))
    return value <= 0 ? 1e-6 : value
  })
  const ranked: { doc: number; score: number; order: number }[] = []
  for (let order = 0; order < candidates.length; order++) {
    const doc = candidates[order]
    if (!index.contests[doc].row.isActive) continue
    const length = index.lengths[doc]
    let score = 0
    for (let t = 0; t < terms.length; t++) {
      const frequency = hits[t].get(doc)!
      score +=
        idf[t] *
        ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / index.averageLength)))
    }
    ranked.push({ doc, score: -1.0 * score, order })
  }
  const startOf = (doc: number) => index.contests[doc].row.startTime
  ranked.sort((a, b) => a.score - b.score || startOf(a.doc) - startOf(b.doc) || a.order - b.order)
  return ranked.slice(0, limit).map(({ doc }) => index.contests[doc].row)
}
