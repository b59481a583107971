// The home page's query: strict about the values of the filters it knows, silent about other keys.
import { MAX_DURATION_MINUTES } from '../platforms/contest.ts'
import {
  CONTEST_TYPES,
  MAX_SEARCH_LENGTH,
  PLATFORMS,
  SEARCH_TOO_LONG,
  type ContestType,
  type Platform,
} from '../contests/schemas.ts'

// The API's bound (GET /contests/search), so the box, the page and the API agree; the words
// then go through the same builder (contests/queries.ts toFtsQuery).
export { MAX_SEARCH_LENGTH }

export interface HomeQuery {
  /** Empty: every platform. In the order of PLATFORMS, whatever the order of the query. */
  platforms: Platform[]
  type?: ContestType
  q?: string
  /** Minutes, as the feeds take them (GET /contests/calendar.ics). */
  minDuration?: number
  maxDuration?: number
}

const DURATION_KEYS = ['minDuration', 'maxDuration'] as const

export type HomeQueryResult = { ok: true; query: HomeQuery } | { ok: false; errors: string[] }

const isPlatform = (value: string): value is Platform =>
  (PLATFORMS as readonly string[]).includes(value)
const isType = (value: string): value is ContestType =>
  (CONTEST_TYPES as readonly string[]).includes(value)

// An empty value is what a form sends for "no choice" (the type select's first option).
const valuesOf = (params: URLSearchParams, key: string) =>
  params.getAll(key).filter((v) => v !== '')

/**
 * Unknown keys (campaign tags, a stray `_`) are ignored, since people share and bookmark pages;
 * an unknown or repeated value of a known filter is an error, since quietly showing every contest
 * would look like a filter that works.
 */
export function readHomeQuery(params: URLSearchParams): HomeQueryResult {
  const errors: string[] = []
  const platforms = valuesOf(params, 'platform')
  if (!platforms.every(isPlatform)) {
    errors.push(`platform must be one of: ${PLATFORMS.join(', ')}`)
  }
  const types = valuesOf(params, 'type')
  if (types.length > 1) errors.push('type may be given once')
  if (!types.every(isType)) errors.push(`type must be one of: ${CONTEST_TYPES.join(', ')}`)
  const texts = params.getAll('q')
  if (texts.length > 1) errors.push('q may be given once')
  const q = texts[0]?.trim()
  if (q !== undefined && q.length > MAX_SEARCH_LENGTH) errors.push(SEARCH_TOO_LONG)
  const durations = readDurations(params, errors)
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    query: {
      platforms: PLATFORMS.filter((p) => platforms.includes(p)),
      type: types[0] as ContestType | undefined,
      q: q || undefined,
      ...durations,
    },
  }
}

/** minDuration and maxDuration, each a whole number of minutes given at most once, min <= max. */
function readDurations(params: URLSearchParams, errors: string[]) {
  const read: { minDuration?: number; maxDuration?: number } = {}
  for (const key of DURATION_KEYS) {
    const values = valuesOf(params, key)
    if (values.length > 1) errors.push(`${key} may be given once`)
    if (values.length === 0) continue
    const minutes = Number(values[0])
    if (!/^\d+$/.test(values[0]!) || minutes < 1 || minutes > MAX_DURATION_MINUTES) {
      errors.push(`${key} must be a whole number of minutes between 1 and ${MAX_DURATION_MINUTES}`)
    } else read[key] = minutes
  }
  if (read.minDuration !== undefined && read.maxDuration !== undefined) {
    if (read.minDuration > read.maxDuration) errors.push('minDuration must not exceed maxDuration')
  }
  return read
}
