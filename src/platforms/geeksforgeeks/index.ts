// GeeksforGeeks: the upcoming contests of its practice events API (every page next_upcoming points
// to) and the next GfG Weekly round of its recurring-event page, turned into contests.
import { z } from 'zod'
import { DAY_MS } from '../../lib/time.ts'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson, shiftJsonValue } from '../fixture-time.ts'
import { elementById, parseHtml, rawTextOf } from '../html.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, fetchOk, readEnvelope, UpstreamError } from '../upstream.ts'

const ID = 'geeksforgeeks'
const PRACTICE = 'https://practice.geeksforgeeks.org'
const API_HOST = 'practiceapi.geeksforgeeks.org'
const SITE = 'https://www.geeksforgeeks.org'

const eventsPath = (page: number) => `/api/vr/events/?type=contest&sub_type=all&page_number=${page}`

/**
 * The list holds a handful of upcoming contests a page; next_upcoming says whether more follow.
 * Five pages are months of contests; the bound only stops a next_upcoming that never turns false
 * (or points back) from making a sync walk the whole list, as DMOJ's and Code360's bounds do.
 */
export const GEEKSFORGEEKS_MAX_PAGES = 5

/** The recurring-event page of the weekly series, a Next.js page with its props in the HTML. */
export const WEEKLY_PAGE_PATH = '/events/rec/gfg-weekly-coding-contest'

/**
 * "GfG Weekly" is the one regular series (Sundays, 19:00 India time); school tournaments, hiring
 * challenges and one-off events come and go, so they share OTHER.
 */
export const GEEKSFORGEEKS_TYPES = ['WEEKLY', 'OTHER'] as const
type GeeksforgeeksType = (typeof GEEKSFORGEEKS_TYPES)[number]
type GeeksforgeeksContest = SourceContest<typeof ID, GeeksforgeeksType>

/**
 * The list also holds months-long programmes ("GfG 160", 160 days of problems) and events with a
 * far-off placeholder end: solving at leisure, not a contest with a time to be there.
 */
const MAX_CONTEST_MS = 30 * DAY_MS

/** India Standard Time, which the API's times are written in without saying so. */
const IST_OFFSET = '+05:30'
const NAIVE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/
const TIME_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/

// next_upcoming's form is not confirmed (true, a page number or a link carrying page_number are
// all read); it may sit beside results or in it, and anything else means "no further page".
const nextUpcoming = z.union([z.boolean(), z.number(), z.string(), z.null()]).optional()

// results.upcoming is required: an answer without it must not pass for "nothing upcoming".
const envelopeSchema = z.object({
  results: z.object({ upcoming: z.array(z.unknown()), next_upcoming: nextUpcoming }),
  next_upcoming: nextUpcoming,
})

interface EventsPage {
  upcoming: unknown[]
  /** The page next_upcoming points to: the following one, one it names, or none. */
  next?: 'following' | number
}

const istTime = z
  .string()
  .regex(NAIVE_TIME, 'expected a time without offset, "YYYY-MM-DDThh:mm:ss"')
  .transform((text) => Date.parse(`${text}${IST_OFFSET}`))

const eventSchema = z
  .object({
    slug: z.string().regex(/^[A-Za-z0-9][\w-]*$/),
    name: z.string().trim().min(1),
    start_time: istTime,
    end_time: istTime,
  })
  .refine((event) => event.end_time > event.start_time, {
    message: 'not after start_time',
    path: ['end_time'],
  })
type GeeksforgeeksEvent = z.infer<typeof eventSchema>

// The weekly page's start_time is read like the API's (naive, India time); one tracker reads it
// as UTC, so a time that carries Z or an offset is taken as it says.
const weeklyTime = z
  .string()
  .refine((text) => NAIVE_TIME.test(text) || TIME_WITH_OFFSET.test(text), {
    message: 'expected "YYYY-MM-DDThh:mm:ss", with or without an offset',
  })
  .transform((text) => Date.parse(NAIVE_TIME.test(text) ? `${text}${IST_OFFSET}` : text))

// total_time is the round's length in minutes (90), a number or a string of digits.
const minutes = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().positive()),
])

const weeklyEntrySchema = z.object({
  name: z.string().trim().min(1),
  start_time: weeklyTime,
  total_time: minutes,
  event_entity_url: z.string(),
})

/** WEEKLY for the "GfG Weekly" rounds (by name, or by slug for clist's renamed entries). */
export function geeksforgeeksType(name: string, slug = ''): GeeksforgeeksType {
  return /\bgfg\s+weekly\b/i.test(name) || /^gfg-weekly-/.test(slug) ? 'WEEKLY' : 'OTHER'
}

const isTimedContest = (startTime: number, endTime: number) => endTime - startTime <= MAX_CONTEST_MS

/** A contest's page, on practice.geeksforgeeks.org or www.geeksforgeeks.org. */
const CONTEST_PAGE =
  /^https?:\/\/(?:practice|www)\.geeksforgeeks\.org\/contest\/([A-Za-z0-9][\w-]*)\/?(?:[?#].*)?$/

/** Turns one page of the events answer into contests; an answer without results.upcoming throws. */
export function parseGeeksforgeeks(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<GeeksforgeeksContest> {
  const out = new ResultCollector<GeeksforgeeksContest>(now, options)
  collectEvents(out, [readPage(payload)])
  return out.result()
}

/** The weekly page's upcoming round(s) as contests; a page without its Next.js props throws. */
export function parseGeeksforgeeksWeekly(
  html: string,
  now: number,
  options: ParseOptions = {},
): AdapterResult<GeeksforgeeksContest> {
  const out = new ResultCollector<GeeksforgeeksContest>(now, options)
  collectWeekly(out, readWeeklyPage(html))
  return out.result()
}

/**
 * One fetch's answers as one result: the events pages in order, then the weekly page, a contest
 * listed twice kept once (the API's copy, which carries its end). A broken events page throws; a
 * weekly page that is missing or unreadable (`weekly` is then the error) leaves the API's
 * contests standing and marks the result incomplete, so the sync holds it degraded.
 */
export function parseGeeksforgeeksAnswers(
  pages: readonly unknown[],
  weekly: string | UpstreamError,
  now: number,
  options: ParseOptions = {},
): AdapterResult<GeeksforgeeksContest> {
  const out = new ResultCollector<GeeksforgeeksContest>(now, options)
  collectEvents(out, pages.map(readPage))
  let problem = typeof weekly === 'string' ? undefined : weekly
  if (typeof weekly === 'string') {
    try {
      collectWeekly(out, readWeeklyPage(weekly))
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error
      problem = error
    }
  }
  const result = out.result()
  if (!problem) return result
  const message = problem.message.replace(`${ID}: `, '')
  return { ...result, incomplete: `${ID}: weekly page ${WEEKLY_PAGE_PATH}: ${message}` }
}

function readPage(payload: unknown): EventsPage {
  const envelope = readEnvelope(
    ID,
    envelopeSchema,
    payload,
    'events answer has no results.upcoming list',
  )
  return {
    upcoming: envelope.results.upcoming,
    next: nextPage(envelope.next_upcoming ?? envelope.results.next_upcoming),
  }
}

/** The page next_upcoming points to: true is the following one, a link names it in page_number. */
function nextPage(value: z.infer<typeof nextUpcoming>): EventsPage['next'] {
  if (value === true) return 'following'
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
  if (typeof value === 'string') {
    const number = /(?:^|[?&])page_number=(\d+)/.exec(value)?.[1] ?? /^\d+$/.exec(value)?.[0]
    if (number && Number(number) > 0) return Number(number)
  }
  return undefined
}

function collectEvents(out: ResultCollector<GeeksforgeeksContest>, pages: readonly EventsPage[]) {
  pages.forEach((page, pageIndex) =>
    page.upcoming.forEach((item, index) => {
      const where = pageIndex > 0 ? ` of page ${pageIndex + 1}` : ''
      const ref = `geeksforgeeks contest ${stringField(item, 'slug') ?? `#${index}${where}`}`
      const parsed = eventSchema.safeParse(item)
      if (!parsed.success) return out.skipInvalid(ref, parsed.error)
      const event = parsed.data
      if (!isTimedContest(event.start_time, event.end_time)) return out.markUnsupported()
      // The list can lag behind the clock and still hold a contest that ended.
      out.keepUnlessEnded(toContest(event))
    }),
  )
}

/**
 * The weekly page's upcoming round(s): props.pageProps.upcomingEvent.event_entity_details, one
 * round or a list. A page without __NEXT_DATA__, or whose pageProps has neither upcomingEvent nor
 * pastEvents, is not the page we know and throws; upcomingEvent null is "no round announced".
 */
function readWeeklyPage(html: string): unknown[] {
  const script = elementById(parseHtml(html), '__NEXT_DATA__')
  if (!script) throw malformed('has no __NEXT_DATA__ script')
  let data: unknown
  try {
    data = JSON.parse(rawTextOf(script))
  } catch {
    throw malformed('__NEXT_DATA__ is not JSON')
  }
  const props = (data as { props?: { pageProps?: unknown } } | null)?.props?.pageProps
  if (!props || typeof props !== 'object' || !('upcomingEvent' in props || 'pastEvents' in props)) {
    throw malformed('__NEXT_DATA__ has no props.pageProps.upcomingEvent or pastEvents')
  }
  const upcoming = (props as { upcomingEvent?: unknown }).upcomingEvent
  if (upcoming === undefined || upcoming === null) return []
  const details = (upcoming as { event_entity_details?: unknown }).event_entity_details
  if (Array.isArray(details)) return details
  if (details && typeof details === 'object') return [details]
  throw malformed('upcomingEvent has no event_entity_details')
}

const malformed = (problem: string) => new UpstreamError(ID, 'malformed', `weekly page ${problem}`)

function collectWeekly(out: ResultCollector<GeeksforgeeksContest>, entries: readonly unknown[]) {
  entries.forEach((item, index) => {
    const url = stringField(item, 'event_entity_url')
    const ref = `geeksforgeeks weekly round ${url ?? `#${index}`}`
    const parsed = weeklyEntrySchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const entry = parsed.data
    const slug = CONTEST_PAGE.exec(entry.event_entity_url)?.[1]
    if (!slug) return out.skip(ref, 'event_entity_url: not a contest page')
    const startTime = entry.start_time
    const endTime = startTime + entry.total_time * 60_000
    out.keepUnlessEnded({
      platform: ID,
      platformId: slug,
      name: entry.name,
      type: geeksforgeeksType(entry.name, slug),
      startTime,
      endTime,
      websiteUrl: `${PRACTICE}/contest/${slug}`,
      platformMetadata: { rated: /\brated\b/i.test(entry.name) },
    })
  })
}

function toContest(event: GeeksforgeeksEvent): GeeksforgeeksContest {
  return {
    platform: ID,
    platformId: event.slug,
    name: event.name,
    type: geeksforgeeksType(event.name, event.slug),
    startTime: event.start_time,
    endTime: event.end_time,
    websiteUrl: `${PRACTICE}/contest/${event.slug}`,
    platformMetadata: { rated: /\brated\b/i.test(event.name) },
  }
}

/**
 * Where the weekly page is asked: the API answers on practiceapi.geeksforgeeks.org and the page
 * sits on www.geeksforgeeks.org; any other base (a stand-in, a proxy) serves both under itself.
 */
export function weeklyPageBase(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname === API_HOST ? SITE : baseUrl
  } catch {
    return baseUrl
  }
}

/**
 * GET {GEEKSFORGEEKS_API_URL}/api/vr/events/?type=contest&sub_type=all&page_number=1, 2, ... as
 * long as next_upcoming says so (at most GEEKSFORGEEKS_MAX_PAGES), one after the other; beside
 * them the weekly page. A failed events page fails the fetch (a partial list would look like
 * cancellations); a failed weekly page only makes the result incomplete.
 */
export async function fetchGeeksforgeeks(
  request: SourceRequest,
): Promise<AdapterResult<GeeksforgeeksContest>> {
  const [pages, weekly] = await Promise.all([fetchEventPages(request), fetchWeeklyPage(request)])
  return parseGeeksforgeeksAnswers(pages, weekly, request.now, request)
}

async function fetchEventPages(request: SourceRequest): Promise<unknown[]> {
  const pages: unknown[] = []
  let number = 1
  while (pages.length < GEEKSFORGEEKS_MAX_PAGES) {
    const payload = await fetchJson(ID, request, eventsPath(number))
    pages.push(payload)
    const next = readPage(payload).next
    if (next === undefined) break
    // A named page must lie ahead, or the list would loop.
    const following = next === 'following' ? number + 1 : next
    if (following <= number) break
    number = following
  }
  return pages
}

async function fetchWeeklyPage(request: SourceRequest): Promise<string | UpstreamError> {
  try {
    return await fetchOk(
      ID,
      { ...request, baseUrl: weeklyPageBase(request.baseUrl) },
      WEEKLY_PAGE_PATH,
      {
        headers: { Accept: 'text/html' },
      },
    )
  } catch (error) {
    if (error instanceof UpstreamError) return error
    throw error
  }
}

const NAIVE_KEYS = ['start_time', 'end_time']
const NEXT_DATA = /(<script id="__NEXT_DATA__" type="application\/json">)([\s\S]*?)(<\/script>)/

/** The weekly page with the naive times of its Next.js props moved forward. */
function shiftWeeklyPage(html: string, shiftMs: number): string {
  return html.replace(NEXT_DATA, (_, open: string, json: string, close: string) => {
    const shifted = shiftJsonValue(JSON.parse(json), shiftMs, { naive: NAIVE_KEYS })
    return `${open}${JSON.stringify(shifted)}${close}`
  })
}

export const geeksforgeeks = definePlatform({
  id: ID,
  name: 'GeeksforGeeks',
  homeUrl: SITE,
  contestsUrl: `${PRACTICE}/events`,
  types: GEEKSFORGEEKS_TYPES,
  typeNames: { WEEKLY: 'Weekly', OTHER: 'Other' },
  source: {
    setting: 'GEEKSFORGEEKS_API_URL',
    defaultUrl: `https://${API_HOST}`,
    fetch: fetchGeeksforgeeks,
    fixtures: [
      ...[1, 2].map((number) => ({
        method: 'GET' as const,
        path: `/api/vr/events/?page_number=${number}`,
        file: `fixtures/events-contest-page-${number}.json`,
        contentType: 'application/json',
        shift: shiftJson({ naive: NAIVE_KEYS }),
      })),
      {
        method: 'GET',
        path: WEEKLY_PAGE_PATH,
        file: 'fixtures/events-rec-gfg-weekly-coding-contest.html',
        contentType: 'text/html; charset=utf-8',
        shift: shiftWeeklyPage,
      },
    ],
  },
  clist: {
    resource: 'geeksforgeeks.org',
    contest(entry) {
      const slug = CONTEST_PAGE.exec(entry.href)?.[1]
      if (!slug || !isTimedContest(entry.startTime, entry.endTime)) return undefined
      return { platformId: slug, type: geeksforgeeksType(entry.event, slug) }
    },
  },
})
