// clist.by API v4, the second source: the contests that have not ended of one resource or several
// (one request for them all), page by page, as ClistContest entries (times read as UTC) for the
// platforms' clist mappings.
import { z } from 'zod'
import type { ClistContest } from '../define.ts'
import { describeIssues, idField, type FetchFn } from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

/** What the shared budget answers: one request taken, or when (epoch ms) one may be. */
export type BudgetTake = { allowed: true } | { allowed: false; retryAt: number }

/** Where and how clist.by is asked: its base, the key, and the shared budget. */
export interface ClistAccess {
  /** CLIST_API_URL ("https://clist.by/api/v4"). */
  baseUrl: string
  /** CLIST_API_KEY: "username:key", sent as `Authorization: ApiKey username:key`. */
  apiKey: string
  now: number
  fetchFn: FetchFn
  timeoutMs?: number
  userAgent?: string
  /**
   * Takes one request from a budget shared by every sync, which keeps them all inside clist's
   * 10 requests a minute; a refusal means nothing is asked (ClistBudgetSpent).
   */
  takeRequest?: () => Promise<BudgetTake>
}

export interface ClistRequest extends ClistAccess {
  /** clist's resource name of the platform ("codeforces.com"). */
  resource: string
}

export interface ClistManyRequest extends ClistAccess {
  /** clist's resource names of several platforms, asked for in one request. */
  resources: readonly string[]
}

export interface ClistResult {
  entries: ClistContest[]
  /** Items that failed validation; each has a line in `errors`. */
  skipped: number
  /** Why items were skipped, and a line when the page bound cut the list short. */
  errors: string[]
}

/**
 * The RateLimiter key of clist's budget: one fixed window a minute, counted by every clist
 * request of the service (the contest source's at CLIST_REQUESTS_PER_MINUTE, results' at a share
 * below it, so results never take what the contest fallback needs).
 */
export const CLIST_BUDGET_KEY = 'upstream:clist'

/** The shared budget refused a request: nothing was asked; it allows one again at `retryAt`. */
export class ClistBudgetSpent extends Error {
  override readonly name = 'ClistBudgetSpent'

  constructor(readonly retryAt: number) {
    super('waiting for the clist budget')
  }
}

/** The most clist answers in one page. */
export const CLIST_PAGE_LIMIT = 1000
/** 5000 contests of one resource not yet ended is far beyond any real platform. */
export const CLIST_MAX_PAGES = 5

const envelopeSchema = z.object({
  meta: z.object({ limit: z.number().int().positive(), offset: z.number().int().nonnegative() }),
  objects: z.array(z.unknown()),
})

// "2026-11-25T14:35:00": clist writes UTC without saying so. An explicit offset, should clist
// ever add one, is read as written rather than turning every item invalid.
const CLIST_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/

const clistTime = z
  .string()
  .regex(CLIST_TIME, 'not a clist time')
  .transform((text) => Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`))

const contestSchema = z
  .object({
    id: z.number().int().positive(),
    resource: z.string().min(1),
    event: z.string().trim().min(1),
    href: z.url(),
    start: clistTime,
    end: clistTime,
  })
  .refine((c) => c.end > c.start, { message: 'ends at or before it starts', path: ['end'] })

/** An entry with the resource clist lists it under. */
export type ClistEntry = ClistContest & { resource: string }

/** An item that failed validation, with the asked resource it names, if any. */
interface Skip {
  resource?: string
  line: string
}

/**
 * A page of clist's /contest/ answer: its valid entries (of `resources`, when given), the rest
 * skipped with the reason.
 */
export function parseClistPage(payload: unknown, resources?: string | readonly string[]) {
  const asked = typeof resources === 'string' ? [resources] : resources
  const problem = 'contest answer has no meta/objects'
  const { meta, objects } = readEnvelope('clist', envelopeSchema, payload, problem)
  const entries: ClistEntry[] = []
  const skips: Skip[] = []
  objects.forEach((item, index) => {
    const ref = `clist contest ${idField(item, 'id') ?? `#${meta.offset + index}`}`
    const named = idField(item, 'resource')
    const skip = (reason: string) =>
      skips.push({
        ...(named !== undefined && (!asked || asked.includes(named)) && { resource: named }),
        line: `${ref}: ${reason}`,
      })
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return skip(describeIssues(parsed.error))
    const c = parsed.data
    // The filter asked for these resources; an item of another would be mapped by the wrong module.
    if (asked && !asked.includes(c.resource)) {
      return skip(`listed under ${c.resource}, not ${asked.join(' or ')}`)
    }
    entries.push({
      id: c.id,
      resource: c.resource,
      event: c.event,
      href: c.href,
      startTime: c.start,
      endTime: c.end,
    })
  })
  return { entries, skips, limit: meta.limit, count: objects.length }
}

/**
 * GET {CLIST_API_URL}/contest/?resource=...&end__gt=...&order_by=start&limit=1000&offset=...
 *
 * `end__gt` at our own `now` rather than `upcoming=true`: both ask for running and upcoming
 * contests (clist reads upcoming as "ends after now"), but upcoming uses clist's clock, and the
 * caller then drops what has ended by `now`; one instant for both keeps the two in step (and a
 * stand-in serving recorded contests answers as at the moment they were recorded).
 */
export async function fetchClistContests(request: ClistRequest): Promise<ClistResult> {
  const { resource, ...access } = request
  const answer = await fetchClistResources({ ...access, resources: [resource] })
  const result = answer.byResource.get(resource)!
  // With one resource asked, an item naming no resource (or another) is that resource's too.
  result.skipped += answer.unattributed.length
  result.errors.push(...answer.unattributed)
  return result
}

/**
 * The contests of several resources in one request (and its pages): `resource=a,b,c`, the one
 * filter clist's contest list takes for several resources (it splits the value on commas; a
 * `resource__in` is refused, `resource` allows only an exact lookup). Each resource gets its
 * entries and its skipped items; `unattributed` holds the lines of items that name none asked.
 */
export async function fetchClistResources(request: ClistManyRequest): Promise<{
  byResource: Map<string, ClistResult>
  unattributed: string[]
}> {
  const byResource = new Map<string, ClistResult>(
    request.resources.map((r) => [r, { entries: [], skipped: 0, errors: [] }]),
  )
  const unattributed: string[] = []
  let offset = 0
  for (let page = 1; page <= CLIST_MAX_PAGES; page++) {
    const answer = parseClistPage(await fetchPage(request, offset), request.resources)
    for (const { resource, ...entry } of answer.entries)
      byResource.get(resource)!.entries.push(entry)
    for (const skip of answer.skips) {
      const result = skip.resource === undefined ? undefined : byResource.get(skip.resource)
      if (!result) {
        unattributed.push(skip.line)
        continue
      }
      result.skipped++
      result.errors.push(skip.line)
    }
    // meta.next is set on every page that has items, so a short page is the only sign of the
    // end; meta.limit is the size clist used, which may be less than the size asked for.
    if (answer.count < answer.limit) return { byResource, unattributed }
    offset += answer.limit
  }
  const bound = `stopped after ${CLIST_MAX_PAGES} pages; clist may list more contests`
  for (const result of byResource.values()) result.errors.push(bound)
  return { byResource, unattributed }
}

async function fetchPage(request: ClistManyRequest, offset: number): Promise<unknown> {
  if (request.takeRequest) {
    const take = await request.takeRequest()
    if (!take.allowed) throw new ClistBudgetSpent(take.retryAt)
  }
  const query = new URLSearchParams({
    resource: request.resources.join(','),
    end__gt: naiveUtc(request.now),
    order_by: 'start',
    limit: String(CLIST_PAGE_LIMIT),
    offset: String(offset),
  })
  return fetchJson('clist', request, `/contest/?${query}`, {
    headers: { Authorization: `ApiKey ${request.apiKey}` },
  })
}

/** An instant as clist writes it: UTC without an offset ("2026-11-22T12:00:00"). */
export function naiveUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19)
}
