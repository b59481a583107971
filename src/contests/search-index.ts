// An in-memory copy of the contests' full-text index that ranks a search exactly as the SQL does
// (queries.ts SEARCH_SQL): the same prefix matches, FTS5's bm25 with the same weights and
// statistics, the same cap on candidates and the same order, with no database call.
import type { ContestRow } from '../db/schema.ts'
import { SEARCH_CANDIDATES, SEARCH_WEIGHTS } from './queries.ts'
import { tokensOf } from './search-tokens.ts'

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
  /** Every contest, active or not, as FTS5 holds them, in ascending rowid (its document id). */
  contests: ContestRow[]
  /** Tokens in each contest's name and description together (FTS5's document length). */
  lengths: Uint32Array
  /** Every word once, sorted, so the words that begin with a prefix are one run. */
  words: string[]
  /** The postings of words[i] are docs and weights from starts[i] to starts[i + 1]. */
  starts: Uint32Array
  docs: Uint32Array
  weights: Uint32Array
  averageLength: number
}

/**
 * Indexes contests given in ascending rowid (every contest, active or not, as FTS5 holds them),
 * or answers undefined when a text has a character the tokenizer does not cover.
 */
export function buildSearchIndex(contests: ContestRow[]): SearchIndex | undefined {
  const lengths = new Uint32Array(contests.length)
  const postings = new Map<string, Postings>()
  let total = 0
  let count = 0
  for (let doc = 0; doc < contests.length; doc++) {
    const row = contests[doc]
    const name = tokensOf(row.name)
    const description = row.description === null ? [] : tokensOf(row.description)
    if (!name || !description) return undefined
    const counts = new Map<string, number>()
    for (const word of name) counts.set(word, (counts.get(word) ?? 0) + SEARCH_WEIGHTS.name)
    for (const word of description)
      counts.set(word, (counts.get(word) ?? 0) + SEARCH_WEIGHTS.description)
    for (const [word, weight] of counts) {
      let list = postings.get(word)
      if (!list) postings.set(word, (list = { docs: [], weights: [] }))
      list.docs.push(doc)
      list.weights.push(weight)
    }
    count += counts.size
    lengths[doc] = name.length + description.length
    total += lengths[doc]
  }
  // Packed into typed arrays: a third of the memory of an array pair per word.
  const words = [...postings.keys()].sort()
  const starts = new Uint32Array(words.length + 1)
  const docs = new Uint32Array(count)
  const weights = new Uint32Array(count)
  let at = 0
  words.forEach((word, i) => {
    const list = postings.get(word)!
    starts[i] = at
    docs.set(list.docs, at)
    weights.set(list.weights, at)
    at += list.docs.length
  })
  starts[words.length] = at
  return { contests, lengths, words, starts, docs, weights, averageLength: total / contests.length }
}

/** The first index in `words` of a word not less than `prefix`. */
function lowerBound(words: string[], prefix: string): number {
  let low = 0
  let high = words.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (words[middle] < prefix) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * For each contest, the weighted count of its words that begin with `prefix` (0 for none), and
 * how many contests have one: a phrase's hits as FTS5's bm25 counts them.
 */
function prefixHits(index: SearchIndex, prefix: string) {
  const frequencies = new Float64Array(index.contests.length)
  let contests = 0
  for (let i = lowerBound(index.words, prefix); i < index.words.length; i++) {
    if (!index.words[i].startsWith(prefix)) break
    for (let at = index.starts[i]; at < index.starts[i + 1]; at++) {
      const doc = index.docs[at]
      if (frequencies[doc] === 0) contests++
      frequencies[doc] += index.weights[at]
    }
  }
  return { frequencies, contests }
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
  // The highest rowids first, as FTS5 yields its matches, inactive ones included.
  const candidates: number[] = []
  for (let doc = index.contests.length - 1; doc >= 0; doc--) {
    if (!hits.every((h) => h.frequencies[doc] > 0)) continue
    if (candidates.push(doc) === SEARCH_CANDIDATES) break
  }

  // bm25 as FTS5 computes it, operation for operation, so equal ranks stay equal.
  const rows = index.contests.length
  const idf = hits.map((h) => {
    const value = Math.log((rows - h.contests + 0.5) / (h.contests + 0.5))
    return value <= 0 ? 1e-6 : value
  })
  const ranked: { doc: number; score: number }[] = []
  for (const doc of candidates) {
    if (!index.contests[doc].isActive) continue
    const length = index.lengths[doc]
    let score = 0
    for (let t = 0; t < terms.length; t++) {
      const frequency = hits[t].frequencies[doc]
      score +=
        idf[t] *
        ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / index.averageLength)))
    }
    ranked.push({ doc, score: -1.0 * score })
  }
  const startOf = (doc: number) => index.contests[doc].startTime
  ranked.sort((a, b) => a.score - b.score || startOf(a.doc) - startOf(b.doc) || b.doc - a.doc)
  return ranked.slice(0, limit).map(({ doc }) => index.contests[doc])
}
