// Code360 (Naukri, formerly Coding Ninjas Studio): the paged public contest list turned into contests.
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
import { fetchJson, readEnvelope } from '../upstream.ts'

const ID = 'code360'
const SITE = 'https://www.naukri.com/code360'
const LIST_PATH = '/api/v3/public_section/contest_list'

/**
 * Weekly and biweekly contests are Code360's two regular series; sprints, monthly challenges and
 * sponsored rounds come and go, so they share OTHER.
 */
export const CODE360_TYPES = ['WEEKLY', 'BIWEEKLY', 'OTHER'] as const
type Code360Type = (typeof CODE360_TYPES)[number]
type Code360Contest = SourceContest<typeof ID, Code360Type>

/**
 * The list runs newest first, so upcoming and running events sit on the first pages and the
 * rest is history we drop anyway. Ten pages hold months of events; the bound keeps a sync to ten
 * requests however far total_pages grows (or if it is wrong).
 */
export const CODE360_MAX_PAGES = 10

// events and total_pages are required: an answer without them must not pass for "no contests".
const pageSchema = z.object({
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
    // CONTEST, or WEBINAR and the like, which share the list.
    event_category: z.string().min(1),
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

/** Turns one page of the contest list into contests; a page without its list throws. */
export function parseCode360(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<Code360Contest> {
  return parseCode360Pages([payload], now, options)
}

/**
 * The pages of one fetch, in order, as one result: a contest seen on two pages (the list moved
 * between the requests) is kept once.
 */
export function parseCode360Pages(
  pages: readonly unknown[],
  now: number,
  options: ParseOptions = {},
): AdapterResult<Code360Contest> {
  const out = new ResultCollector<Code360Contest>(now, options)
  pages.forEach((page, pageIndex) => {
    readPage(page).events.forEach((item, index) => {
      const ref = `code360 event ${stringField(item, 'slug') ?? `#${index} of page ${pageIndex + 1}`}`
      const parsed = eventSchema.safeParse(item)
      if (!parsed.success) return out.skipInvalid(ref, parsed.error)
      const event = parsed.data
      if (event.event_category.toUpperCase() !== 'CONTEST') return out.markUnsupported()
      out.keepUnlessEnded(toContest(event))
    })
  })
  return out.result()
}

function readPage(payload: unknown) {
  const { data } = readEnvelope(
    ID,
    pageSchema,
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

/** GET {CODE360_API_URL}/api/v3/public_section/contest_list?page=N, pages 1 to the last. */
export async function fetchCode360(request: SourceRequest): Promise<AdapterResult<Code360Contest>> {
  const pages: unknown[] = []
  let lastPage = 1
  // One page after the other: each answer says how many there are.
  for (let page = 1; page <= lastPage; page++) {
    const payload = await fetchJson(ID, request, `${LIST_PATH}?page=${page}`)
    pages.push(payload)
    lastPage = Math.min(readPage(payload).totalPages, CODE360_MAX_PAGES)
  }
  return parseCode360Pages(pages, request.now, request)
}

function fixturePage(page: number): FixtureRoute {
  return {
    method: 'GET',
    path: `${LIST_PATH}?page=${page}`,
    file: `fixtures/contest-list-page-${page}.json`,
    contentType: 'application/json',
    shift: shiftJson({ seconds: ['event_start_time', 'event_end_time'] }),
  }
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
    defaultUrl: 'https://api.codingninjas.com',
    fetch: fetchCode360,
    fixtures: [fixturePage(1), fixturePage(2)],
  },
  clist: {
    resource: 'naukri.com/code360',
    contest(entry) {
      const slug = CLIST_HREF.exec(entry.href)?.[1]
      return slug ? { platformId: slug, type: code360Type(entry.event) } : undefined
    },
  },
})
