// Code360 (Naukri, formerly Coding Ninjas Studio): its own contests from the public contest list,
// the v4 list of upcoming ones or, when that does not answer usably, v3's list of every event.
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform, type FixtureRoute } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope, UpstreamError } from '../upstream.ts'

const ID = 'code360'
const SITE = 'https://www.naukri.com/code360'

/**
 * The two lists. v4, which the site's own contests page asks (the trackers that copy its request
 * send `app_context=publicsection&naukri_request=true`), selects Code360's own contests on the
 * server with `category[]=code_360` and lists only what is to come. v3, which clist still reads,
 * lists every event, newest first, each with its `contest_type`.
 */
const V4_PATH = '/api/v4/public_section/contest_list'
const V3_PATH = '/api/v3/public_section/contest_list'
const V4_QUERY = 'status=upcoming&category[]=code_360'
/** The page size the trackers ask v4 for; a bigger one is not known to be honoured. */
export const CODE360_V4_PAGE_SIZE = 10

/**
 * Weekly and biweekly contests are Code360's two regular series; sprints, monthly challenges and
 * sponsored rounds come and go, so they share OTHER.
 */
export const CODE360_TYPES = ['WEEKLY', 'BIWEEKLY', 'OTHER'] as const
type Code360Type = (typeof CODE360_TYPES)[number]
type Code360Contest = SourceContest<typeof ID, Code360Type>

/**
 * v3 runs newest first, so upcoming and running events sit on the first pages and the rest is
 * history we drop anyway. Ten pages hold months of events; the bound keeps a sync to ten requests
 * however far total_pages grows (or if it is wrong), and bounds v4 likewise.
 */
export const CODE360_MAX_PAGES = 10

/** Which list a page is of: the v4 list of upcoming Code 360 contests, or v3's every event. */
export type Code360List = 'upcoming' | 'all'

// events is required: an answer without it must not pass for "no contests". v3 says how many
// pages it has; v4's count is not known, so it is read when there.
const v4PageSchema = z.object({
  // 200 in the answers trackers read; another value is a refusal.
  status: z.number().optional(),
  data: z.object({
    events: z.array(z.unknown()),
    total_pages: z.number().int().nonnegative().optional(),
  }),
})

const v3PageSchema = z.object({
  data: z.object({
    events: z.array(z.unknown()),
    total_pages: z.number().int().nonnegative(),
  }),
})

const SLUG = /^[A-Za-z0-9][\w-]*$/

const eventSchema = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string().trim().min(1),
    slug: z.string().regex(SLUG),
    event_start_time: z.number().int().positive(),
    event_end_time: z.number().int().positive(),
    // "Code 360" for Code360's own contests; webinars and others' events carry another or none.
    contest_type: z.string().nullish(),
  })
  .refine((event) => event.event_end_time > event.event_start_time, {
    message: 'event_end_time is not after event_start_time',
    path: ['event_end_time'],
  })

type Code360Event = z.infer<typeof eventSchema>

/** Weekly or biweekly from the name ("Weekly Contest 159", "Biweekly Contest 79"), else OTHER. */
export function code360Type(name: string): Code360Type {
  if (/\bbi-?weekly\s+contest\b/i.test(name)) return 'BIWEEKLY'
  if (/\bweekly\s+contest\b/i.test(name)) return 'WEEKLY'
  return 'OTHER'
}

/** "Code 360", however spaced or cased. */
const isCode360 = (contestType: string) =>
  contestType.replace(/\s+/g, '').toLowerCase() === 'code360'

/**
 * Whether an event is one of Code360's own contests, selected as clist selects the contests it
 * reads standings of (`contest_type == "Code 360"`). In the v4 list the server has selected them
 * already, so an event without the field is one; one naming another type is not (the filter was
 * ignored). In v3 the field is what tells them from webinars and others' events, so it must say so.
 */
function isCode360Contest(event: Code360Event, list: Code360List): boolean {
  if (typeof event.contest_type === 'string') return isCode360(event.contest_type)
  return list === 'upcoming'
}

/** Turns one page of a list into contests; a page without its list throws. */
export function parseCode360(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
  list: Code360List = 'all',
): AdapterResult<Code360Contest> {
  return parseCode360Pages([payload], now, options, list)
}

/**
 * The pages of one fetch, in order, as one result: a contest seen on two pages (the list moved
 * between the requests) is kept once. A list whose events are all something else than a Code 360
 * contest throws malformed: the selection no longer matches the answer (a renamed field or
 * value), and an empty result would pass for "no contests" with no error at all.
 */
export function parseCode360Pages(
  pages: readonly unknown[],
  now: number,
  options: ParseOptions = {},
  list: Code360List = 'all',
): AdapterResult<Code360Contest> {
  const out = new ResultCollector<Code360Contest>(now, options)
  let contests = 0
  pages.forEach((page, pageIndex) => {
    readPage(page, list).events.forEach((item, index) => {
      const ref = `code360 event ${stringField(item, 'slug') ?? `#${index} of page ${pageIndex + 1}`}`
      const parsed = eventSchema.safeParse(item)
      if (!parsed.success) return out.skipInvalid(ref, parsed.error)
      const event = parsed.data
      if (!isCode360Contest(event, list)) return out.markUnsupported()
      contests++
      out.keepUnlessEnded(toContest(event))
    })
  })
  const result = out.result()
  if (contests === 0 && result.unsupported > 0) {
    throw new UpstreamError(
      ID,
      'malformed',
      `none of the ${result.unsupported + result.skipped} events is a Code 360 contest (contest_type)`,
    )
  }
  return result
}

function readPage(payload: unknown, list: Code360List) {
  return list === 'upcoming' ? readUpcomingPage(payload) : readAllPage(payload)
}

function readUpcomingPage(payload: unknown) {
  const { status, data } = readEnvelope(
    ID,
    v4PageSchema,
    payload,
    'v4 contest_list answer has no data.events',
  )
  if (status !== undefined && status !== 200) {
    throw new UpstreamError(ID, 'api', `v4 contest_list answered status ${status}`)
  }
  return { events: data.events, totalPages: data.total_pages }
}

function readAllPage(payload: unknown) {
  const { data } = readEnvelope(
    ID,
    v3PageSchema,
    payload,
    'contest_list answer has no data.events/total_pages',
  )
  return { events: data.events, totalPages: data.total_pages }
}

function toContest(event: Code360Event): Code360Contest {
  return {
    platform: ID,
    // The slug, not the numeric id: it is what the contest's page and clist's href carry.
    platformId: event.slug,
    name: event.name,
    type: code360Type(event.name),
    startTime: event.event_start_time * 1000,
    endTime: event.event_end_time * 1000,
    websiteUrl: `${SITE}/contests/${event.slug}`,
    ...(event.id !== undefined && { platformMetadata: { eventId: event.id } }),
  }
}

const v4Page = (page: number) =>
  `${V4_PATH}?${V4_QUERY}&page_size=${CODE360_V4_PAGE_SIZE}&page=${page}`
const v3Page = (page: number) => `${V3_PATH}?page=${page}`

/**
 * GET {CODE360_API_URL}/api/v4/public_section/contest_list?status=upcoming&category[]=code_360,
 * page by page. The count of pages is read when the answer has it; without it a full page is
 * followed by the next, until one is not full or brings nothing new.
 */
async function fetchUpcoming(request: SourceRequest): Promise<AdapterResult<Code360Contest>> {
  const pages: unknown[] = []
  const slugs = new Set<string>()
  for (let page = 1; page <= CODE360_MAX_PAGES; page++) {
    const payload = await fetchJson(ID, request, v4Page(page))
    pages.push(payload)
    const { events, totalPages } = readUpcomingPage(payload)
    const before = slugs.size
    for (const event of events) {
      const slug = stringField(event, 'slug')
      if (slug !== undefined) slugs.add(slug)
    }
    const more =
      totalPages !== undefined
        ? page < totalPages
        : events.length >= CODE360_V4_PAGE_SIZE && slugs.size > before
    if (!more) break
  }
  return parseCode360Pages(pages, request.now, request, 'upcoming')
}

/** GET {CODE360_API_URL}/api/v3/public_section/contest_list?page=N, pages 1 to the last. */
async function fetchAll(request: SourceRequest): Promise<AdapterResult<Code360Contest>> {
  const pages: unknown[] = []
  let lastPage = 1
  // One page after the other: each answer says how many there are.
  for (let page = 1; page <= lastPage; page++) {
    const payload = await fetchJson(ID, request, v3Page(page))
    pages.push(payload)
    lastPage = Math.min(readAllPage(payload).totalPages, CODE360_MAX_PAGES)
  }
  return parseCode360Pages(pages, request.now, request, 'all')
}

/**
 * The v4 list, or v3's when v4 answers but not with a usable list (a status other than 403 and
 * 429, a broken or refused answer, or no Code 360 contest in it): v3 is the list clist reads, so
 * it is the likeliest to be there when v4 changes. A block or no answer at all is not asked past:
 * the same site would answer v3 the same way.
 */
export async function fetchCode360(request: SourceRequest): Promise<AdapterResult<Code360Contest>> {
  try {
    return await fetchUpcoming(request)
  } catch (error) {
    if (!(error instanceof UpstreamError) || !fallsBack(error)) throw error
    try {
      return await fetchAll(request)
    } catch (second) {
      if (!(second instanceof UpstreamError)) throw second
      throw bothFailed(error, second)
    }
  }
}

function fallsBack(error: UpstreamError): boolean {
  if (error.kind === 'status') return !error.blocked
  return error.kind === 'malformed' || error.kind === 'api'
}

/** v3's failure (its kind and status decide the platform's state), naming v4's too. */
function bothFailed(v4: UpstreamError, v3: UpstreamError): UpstreamError {
  const reason = (e: UpstreamError) => e.message.replace(`${ID}: `, '')
  const error = new UpstreamError(ID, v3.kind, `v4 ${reason(v4)}; v3 ${reason(v3)}`, v3.status)
  if (v3.retryAfter !== undefined) error.retryAfter = v3.retryAfter
  return error
}

const SHIFT = shiftJson({ seconds: ['event_start_time', 'event_end_time'] })

function fixture(path: string, file: string): FixtureRoute {
  return { method: 'GET', path, file, contentType: 'application/json', shift: SHIFT }
}

// clist links the contest's page, on naukri.com now and on codingninjas.com for older entries.
const CLIST_HREF =
  /^https?:\/\/(?:www\.)?(?:naukri\.com\/code360|codingninjas\.com\/(?:studio|codestudio))\/contests\/([A-Za-z0-9][\w-]*)(?:[/?#]|$)/

export const code360 = definePlatform({
  id: ID,
  name: 'Code360',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contests`,
  types: CODE360_TYPES,
  typeNames: { WEEKLY: 'Weekly', BIWEEKLY: 'Biweekly', OTHER: 'Other' },
  source: {
    setting: 'CODE360_API_URL',
    // The site moved under naukri.com, and the trackers asking v4 like the site does ask it there.
    defaultUrl: SITE,
    fetch: fetchCode360,
    fixtures: [
      fixture(v4Page(1), 'fixtures/contest-list-v4-upcoming.json'),
      fixture(v3Page(1), 'fixtures/contest-list-page-1.json'),
      fixture(v3Page(2), 'fixtures/contest-list-page-2.json'),
    ],
  },
  clist: {
    resource: 'naukri.com/code360',
    contest(entry) {
      const slug = CLIST_HREF.exec(entry.href)?.[1]
      return slug ? { platformId: slug, type: code360Type(entry.event) } : undefined
    },
  },
})
