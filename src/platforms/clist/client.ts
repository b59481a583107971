// clist.by API v4, the second source: the contests of one resource that have not ended, page by
// page, as ClistContest entries (times read as UTC) for the platforms' clist mappings.
import { z } from 'zod'
import type { ClistContest } from '../define.ts'
import { describeIssues, idField, type FetchFn } from '../source.ts'
import { fetchJson, readEnvelope, UpstreamError } from '../upstream.ts'

export interface ClistRequest {
  /** CLIST_API_URL ("https://clist.by/api/v4"). */
  baseUrl: string
  /** CLIST_API_KEY: "username:key", sent as `Authorization: ApiKey username:key`. */
  apiKey: string
  /** clist's resource name of the platform ("codeforces.com"). */
  resource: string
  now: number
  fetchFn: FetchFn
  timeoutMs?: number
  userAgent?: string
  /**
   * Takes one request from a budget shared by every sync, which keeps them all inside clist's
   * 10 requests a minute; false means the budget is spent and nothing is asked.
   */
  takeRequest?: () => Promise<boolean>
}

export interface ClistResult {
  entries: ClistContest[]
  /** Items that failed validation; each has a line in `errors`. */
  skipped: number
  /** Why items were skipped, and a line when the page bound cut the list short. */
  errors: string[]
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

/** A page of clist's /contest/ answer: its valid entries, the rest skipped with the reason. */
export function parseClistPage(payload: unknown, resource?: string) {
  const problem = 'contest answer has no meta/objects'
  const { meta, objects } = readEnvelope('clist', envelopeSchema, payload, problem)
  const result: ClistResult & { limit: number; count: number } = {
    entries: [],
    skipped: 0,
    errors: [],
    limit: meta.limit,
    count: objects.length,
  }
  objects.forEach((item, index) => {
    const ref = `clist contest ${idField(item, 'id') ?? `#${meta.offset + index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return skip(result, ref, describeIssues(parsed.error))
    const c = parsed.data
    // The filter asked for one resource; an item of another would be mapped by the wrong module.
    if (resource && c.resource !== resource) {
      return skip(result, ref, `listed under ${c.resource}, not ${resource}`)
    }
    result.entries.push({
      id: c.id,
      event: c.event,
      href: c.href,
      startTime: c.start,
      endTime: c.end,
    })
  })
  return result
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
  const out: ClistResult = { entries: [], skipped: 0, errors: [] }
  let offset = 0
  for (let page = 1; page <= CLIST_MAX_PAGES; page++) {
    const answer = parseClistPage(await fetchPage(request, offset), request.resource)
    out.entries.push(...answer.entries)
    out.skipped += answer.skipped
    out.errors.push(...answer.errors)
    // meta.next is set on every page that has items, so a short page is the only sign of the
    // end; meta.limit is the size clist used, which may be less than the size asked for.
    if (answer.count < answer.limit) return out
    offset += answer.limit
  }
  out.errors.push(`stopped after ${CLIST_MAX_PAGES} pages; clist may list more contests`)
  return out
}

async function fetchPage(request: ClistRequest, offset: number): Promise<unknown> {
  if (request.takeRequest && !(await request.takeRequest())) {
    throw new UpstreamError('clist', 'status', 'clist request budget spent for this minute', 429)
  }
  const query = new URLSearchParams({
    resource: request.resource,
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

function skip(result: ClistResult, ref: string, reason: string): void {
  result.skipped++
  result.errors.push(`${ref}: ${reason}`)
}
