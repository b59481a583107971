// Search from memory: each isolate keeps the catalogue's full-text index and rows (search-index.ts)
// for the current catalogue version, read from D1 in one statement and kept no longer than a
// search answer may be cached, so an uncached search costs no D1 call and no Cache API call.
import type { Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import { CONTEST_SELECT, contestRowOf, SEARCH_LIMIT, searchTerms } from './queries.ts'
import { buildSearchIndex, indexTerms, searchIndex, type SearchIndex } from './search-index.ts'

/**
 * The most an isolate holds: contests, and characters of their names and descriptions (an isolate
 * has 128 MB for everything). A larger catalogue is searched in D1.
 */
export const MEMORY_MAX_CONTESTS = 30_000
const MEMORY_MAX_TEXT = 4_000_000

const LOAD_SQL = `SELECT ${CONTEST_SELECT} FROM contests c
  ORDER BY c.rowid LIMIT ${MEMORY_MAX_CONTESTS + 1}`

interface Held {
  version: string
  loadedAt: number
  index: Promise<SearchIndex | undefined>
}

// Per D1 binding, which the runtime keeps for the isolate's life (and a test may replace).
const held = new WeakMap<D1Database, Held>()

async function load(db: Db): Promise<SearchIndex | undefined> {
  const { results } = await db.$client.prepare(LOAD_SQL).all<Record<string, unknown>>()
  if (results.length > MEMORY_MAX_CONTESTS) return undefined
  const contests = results.map(contestRowOf)
  let text = 0
  for (const row of contests) text += row.name.length + (row.description?.length ?? 0)
  return text > MEMORY_MAX_TEXT ? undefined : buildSearchIndex(contests)
}

/** The index for this version, read at most `maxAgeMs` ago; concurrent searches share one read. */
function indexFor(db: Db, version: string, maxAgeMs: number, now: number) {
  const known = held.get(db.$client)
  if (known && known.version === version && now - known.loadedAt <= maxAgeMs) return known.index
  const index = load(db)
  const entry = { version, loadedAt: now, index }
  held.set(db.$client, entry)
  // A failed read is not kept: the next search reads again.
  index.catch(() => held.get(db.$client) === entry && held.delete(db.$client))
  return index
}

/**
 * The answer of a search from memory, the same as searchContests gives, or undefined when memory
 * cannot give it (a character the tokenizer does not cover, or too large a catalogue).
 */
export async function searchInMemory(
  db: Db,
  text: string,
  version: string,
  maxAgeMs: number,
  now: number,
): Promise<ContestRow[] | undefined> {
  const terms = indexTerms(searchTerms(text))
  if (!terms) return undefined
  const index = await indexFor(db, version, maxAgeMs, now)
  return index && searchIndex(index, terms, SEARCH_LIMIT)
}
