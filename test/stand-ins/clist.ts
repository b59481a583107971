// clist.by API v4 for the loopback stand-in: GET /clist/contest/ answers from the recorded
// contests with the real filters, ordering, pages and meta, behind ApiKey authentication and a
// per-user limit of requests a minute (429 with Retry-After beyond it), as clist's tastypie does;
// GET /clist/account/ and /clist/statistics/ answer from the recorded accounts and statistics the
// same way (with any rows a test adds), with the filters their resources allow.
import accountsDataset from '../../src/platforms/clist/fixtures/accounts.json'
import dataset from '../../src/platforms/clist/fixtures/contests.json'
import statisticsDataset from '../../src/platforms/clist/fixtures/statistics.json'

interface Response {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

interface ClistObject {
  id: number
  resource: string
  resource_id: number
  start: string
  end: string
  [field: string]: unknown
}

/** What tests may change through POST /__control/clist. */
export interface ClistSettings {
  /** Requests a user may make in any 60 s (clist's default is 10). */
  limitPerMinute?: number
  /** The only key accepted ("user:key"); unset, any `ApiKey name:key` is. */
  apiKey?: string | null
  /** The stand-in's clock in epoch ms, for the rate window and `upcoming`; null: the real one. */
  now?: number | null
  /**
   * Accounts and statistics served after the recorded ones until a reset, in their shape (a test's
   * generated crowd of linked handles: 250 friends need 250 accounts).
   */
  accounts?: Record<string, unknown>[]
  statistics?: Record<string, unknown>[]
  /** Back to the defaults, with every user's request count forgotten. */
  reset?: boolean
}

const BASE = '/clist'
const DEFAULT_LIMIT_PER_MINUTE = 10
const WINDOW_MS = 60_000
/** tastypie's page size when none is asked for, and its most. */
const DEFAULT_PAGE = 100
const MAX_PAGE = 1000
const ORDERINGS = ['id', 'event', 'start', 'end', 'resource_id', 'duration', 'parsed_at']
/**
 * The lookups clist's contest list allows on each field (its ContestResource's Meta.filtering);
 * tastypie refuses any other with a 400. Several resources are `resource=a,b` (clist splits the
 * value on commas) or `resource_id__in=1,2`; `resource__in` is refused.
 */
const FILTERING: Record<string, readonly string[]> = {
  id: ['exact', 'in'],
  resource_id: ['exact', 'in'],
  resource: ['exact'],
  host: ['exact', 'iregex', 'regex'],
  event: ['exact', 'iregex', 'regex'],
  start: ['exact', 'gt', 'lt', 'gte', 'lte', 'week_day'],
  end: ['exact', 'gt', 'lt', 'gte', 'lte', 'week_day'],
  parsed_at: ['exact', 'gt', 'lt', 'gte', 'lte'],
  duration: ['exact', 'gt', 'lt', 'gte', 'lte'],
}

type Row = Record<string, unknown>

/**
 * The statistics' filters (clist's StatisticsResource, api/v2.py, which v3 and v4 reuse); its
 * other fields refuse any, and one of contest_id, account_id or coder_id is required.
 */
const STATISTICS_FILTERING: Record<string, readonly string[]> = {
  contest_id: ['exact', 'in'],
  account_id: ['exact', 'in'],
  coder_id: ['exact'],
  place: ['exact', 'isnull'],
  new_rating: ['isnull'],
  rating_change: ['isnull'],
}
const STATISTICS_FIELDS = ['account_id', 'handle', 'contest_id', 'event', 'date', 'place', 'score']
const STATISTICS_ORDERINGS = ['id', 'score', 'place', 'new_rating', 'rating_change', 'date']
/** The accounts' filters (api/v4.py AccountResource), those the stand-in applies. */
const ACCOUNT_FILTERING: Record<string, readonly string[]> = {
  id: ['exact', 'in'],
  resource_id: ['exact', 'in'],
  resource: ['exact', 'regex', 'iregex', 'in'],
  handle: ['exact', 'in', 'startswith'],
}

export function createClistStandIn() {
  const objects = dataset.objects as ClistObject[]
  let limitPerMinute = DEFAULT_LIMIT_PER_MINUTE
  let apiKey: string | null = null
  let fixedNow: number | null = null
  let extraAccounts: Row[] = []
  let extraStatistics: Row[] = []
  /** Times of the answered requests of each user, oldest first. */
  let seen = new Map<string, number[]>()
  const now = () => fixedNow ?? Date.now()

  function configure(settings: ClistSettings): void {
    if (settings.reset) {
      limitPerMinute = DEFAULT_LIMIT_PER_MINUTE
      apiKey = null
      fixedNow = null
      extraAccounts = []
      extraStatistics = []
      seen = new Map()
    }
    if (settings.accounts) extraAccounts = [...extraAccounts, ...settings.accounts]
    if (settings.statistics) extraStatistics = [...extraStatistics, ...settings.statistics]
    if (settings.limitPerMinute !== undefined) limitPerMinute = settings.limitPerMinute
    if (settings.apiKey !== undefined) apiKey = settings.apiKey
    if (settings.now !== undefined) fixedNow = settings.now
  }

  /** The user an Authorization header names, when it is a key this stand-in accepts. */
  function userOf(authorization: string | undefined): string | undefined {
    const match = /^ApiKey ([^:\s]+):(\S+)$/.exec(authorization ?? '')
    if (!match || (apiKey !== null && `${match[1]}:${match[2]}` !== apiKey)) return undefined
    return match[1]
  }

  /** Seconds until the user may ask again, or undefined when this request is allowed. */
  function throttled(user: string): number | undefined {
    const at = now()
    const recent = (seen.get(user) ?? []).filter((t) => t > at - WINDOW_MS)
    seen.set(user, recent)
    if (recent.length >= limitPerMinute) {
      const oldest = recent[recent.length - limitPerMinute]
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - at) / 1000))
    }
    recent.push(at)
    return undefined
  }

  /** The answer to a request under /clist/. */
  function respond(method: string, url: URL, headers: Record<string, string>): Response {
    const resource = /^\/clist\/(contest|account|statistics)\/$/.exec(url.pathname)?.[1]
    if (method !== 'GET' || !resource) {
      return { status: 404, body: { error_message: 'Not found' } }
    }
    // Authentication first, then the throttle; neither a refused nor a throttled request counts.
    const user = userOf(headers.authorization)
    if (!user) return { status: 401 }
    const retryAfter = throttled(user)
    if (retryAfter !== undefined) {
      return { status: 429, headers: { 'retry-after': String(retryAfter) } }
    }
    if (resource === 'account') return listPage('account', url.searchParams, filterAccounts)
    if (resource === 'statistics') return listPage('statistics', url.searchParams, filterStatistics)
    return listPage('contest', url.searchParams, filterContests)
  }

  function listPage(
    resource: string,
    query: URLSearchParams,
    filter: (query: URLSearchParams) => Row[] | string,
  ): Response {
    const limit = pageSize(query.get('limit'))
    const offset = Number(query.get('offset') ?? 0)
    if (limit === undefined || !Number.isInteger(offset) || offset < 0) {
      return badRequest('Invalid limit or offset provided. Please provide a positive integer.')
    }
    const filtered = filter(query)
    if (typeof filtered === 'string') return badRequest(filtered)
    const page = filtered.slice(offset, offset + limit)
    const meta = {
      estimated_count: filtered.length,
      limit,
      // Set whenever the page has items, whatever lies after it (clist's paginator never counts).
      next: page.length ? pageUri(resource, query, limit, offset + limit) : null,
      offset,
      previous: offset > 0 ? pageUri(resource, query, limit, Math.max(0, offset - limit)) : null,
      total_count: query.get('total_count') === 'true' ? filtered.length : null,
    }
    return {
      status: 200,
      body: { meta, objects: page },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    }
  }

  /** The contests the query's filters keep, ordered as asked; or why the query is refused. */
  function filterContests(query: URLSearchParams): ClistObject[] | string {
    for (const key of query.keys()) {
      const [field, lookup = 'exact'] = key.split('__')
      const allowed = FILTERING[field]
      if (allowed && !allowed.includes(lookup)) {
        return `'${lookup}' is not an allowed filter on the '${field}' field.`
      }
    }
    let list = objects
    const idList = query.get('id__in') ?? query.get('id')
    if (idList) list = list.filter((c) => idList.split(',').map(Number).includes(c.id))
    const resources = query.getAll('resource').flatMap((r) => r.split(','))
    if (resources.length) list = list.filter((c) => resources.includes(c.resource))
    const ids = query.get('resource_id__in') ?? query.get('resource_id')
    if (ids) list = list.filter((c) => ids.split(',').map(Number).includes(c.resource_id))
    for (const [field, compare] of [
      ['start__gt', (t: number, v: number) => t > v],
      ['start__gte', (t: number, v: number) => t >= v],
      ['start__lt', (t: number, v: number) => t < v],
      ['end__gt', (t: number, v: number) => t > v],
      ['end__gte', (t: number, v: number) => t >= v],
      ['end__lt', (t: number, v: number) => t < v],
    ] as const) {
      const text = query.get(field)
      if (text === null) continue
      const value = clistTime(text)
      if (Number.isNaN(value)) return `'${text}' is not a valid date for ${field}.`
      const key = field.startsWith('start') ? 'start' : 'end'
      list = list.filter((c) => compare(clistTime(c[key]), value))
    }
    const upcoming = query.get('upcoming')
    if (upcoming !== null) {
      const wanted = ['true', '1', 'yes'].includes(upcoming.toLowerCase())
      list = list.filter((c) => clistTime(c.end) > now() === wanted)
    }
    const orderBy = query.get('order_by')
    if (orderBy) {
      const field = orderBy.replace(/^-/, '')
      if (!ORDERINGS.includes(field)) return `No matching '${field}' field for ordering on.`
      const sign = orderBy.startsWith('-') ? -1 : 1
      list = [...list].sort((a, b) => sign * compareValues(a[field], b[field]))
    }
    return list
  }

  /** The recorded accounts the query's filters keep; or why the query is refused. */
  function filterAccounts(query: URLSearchParams): Row[] | string {
    const refused = refusedFilter(query, ACCOUNT_FILTERING, [])
    if (refused) return refused
    let list = [...(accountsDataset.objects as Row[]), ...extraAccounts]
    const resources = query.get('resource__in') ?? query.get('resource')
    if (resources) list = list.filter((a) => resources.split(',').includes(a.resource as string))
    const handles = query.get('handle__in') ?? query.get('handle')
    if (handles) list = list.filter((a) => handles.split(',').includes(a.handle as string))
    const ids = query.get('id__in') ?? query.get('id')
    if (ids)
      list = list.filter((a) =>
        ids
          .split(',')
          .map(Number)
          .includes(a.id as number),
      )
    return list
  }

  /** The recorded statistics the query's filters keep; or why the query is refused. */
  function filterStatistics(query: URLSearchParams): Row[] | string {
    const refused = refusedFilter(query, STATISTICS_FILTERING, STATISTICS_FIELDS)
    if (refused) return refused
    const contests = query.get('contest_id__in') ?? query.get('contest_id')
    const accounts = query.get('account_id__in') ?? query.get('account_id')
    if (!contests && !accounts && !query.get('coder_id')) {
      const oneOf = ['contest_id', 'contest_id', 'account_id', 'account_id', 'coder_id']
      return `One of ['${oneOf.join("', '")}'] is required`
    }
    let list = [...(statisticsDataset.objects as Row[]), ...extraStatistics]
    if (contests)
      list = list.filter((s) =>
        contests
          .split(',')
          .map(Number)
          .includes(s.contest_id as number),
      )
    if (accounts)
      list = list.filter((s) =>
        accounts
          .split(',')
          .map(Number)
          .includes(s.account_id as number),
      )
    for (const field of ['new_rating', 'rating_change', 'place']) {
      const isnull = query.get(`${field}__isnull`)
      if (isnull === null) continue
      const wanted = ['true', '1', 'yes'].includes(isnull.toLowerCase())
      list = list.filter((s) => (s[field] === null) === wanted)
    }
    const orderBy = query.get('order_by')
    if (orderBy) {
      const field = orderBy.replace(/^-/, '')
      if (!STATISTICS_ORDERINGS.includes(field))
        return `No matching '${field}' field for ordering on.`
      const sign = orderBy.startsWith('-') ? -1 : 1
      list = [...list].sort((a, b) => sign * compareValues(a[field], b[field]))
    }
    return list
  }

  return { respond, configure, reset: () => configure({ reset: true }) }
}

/** tastypie's refusal of a filter the resource does not allow, if the query has one. */
function refusedFilter(
  query: URLSearchParams,
  filtering: Record<string, readonly string[]>,
  unfilterable: readonly string[],
): string | undefined {
  for (const key of query.keys()) {
    const [field, lookup = 'exact'] = key.split('__')
    const allowed = filtering[field]
    if (allowed && !allowed.includes(lookup)) {
      return `'${lookup}' is not an allowed filter on the '${field}' field.`
    }
    if (!allowed && unfilterable.includes(field)) {
      return `The '${field}' field does not allow filtering.`
    }
  }
  return undefined
}

/** tastypie's page size: the default when unset, its most when 0 or more than its most. */
function pageSize(text: string | null): number | undefined {
  if (text === null) return DEFAULT_PAGE
  const limit = Number(text)
  if (!Number.isInteger(limit) || limit < 0) return undefined
  return limit === 0 || limit > MAX_PAGE ? MAX_PAGE : limit
}

/** A page's address as clist writes it in meta: a path with the query it was asked with. */
function pageUri(resource: string, query: URLSearchParams, limit: number, offset: number) {
  const params = new URLSearchParams(query)
  params.set('limit', String(limit))
  params.set('offset', String(offset))
  return `${BASE}/${resource}/?${params}`
}

/** A filter's or an item's time: naive ones are UTC, as clist writes and reads them. */
function clistTime(text: string): number {
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`)
}

function compareValues(a: unknown, b: unknown): number {
  // Nulls last, as clist orders them.
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1
  if (b === null || b === undefined) return -1
  return a < b ? -1 : a > b ? 1 : 0
}

function badRequest(message: string): Response {
  return { status: 400, body: { error: message } }
}
