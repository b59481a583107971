// GeeksforGeeks: the upcoming contests of its practice events API turned into contests.
import { z } from 'zod'
import { DAY_MS } from '../../lib/time.ts'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

const ID = 'geeksforgeeks'
const PRACTICE = 'https://practice.geeksforgeeks.org'
// page_number pages the list; the few upcoming contests sit on page 1 (other trackers of this API
// read that page alone too), and later pages add past ones, which are not read.
const EVENTS_PATH = '/api/vr/events/?type=contest&sub_type=all&page_number=1'

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

// results.upcoming is required: an answer without it must not pass for "nothing upcoming".
const envelopeSchema = z.object({
  results: z.object({ upcoming: z.array(z.unknown()) }),
})

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

/** WEEKLY for the "GfG Weekly" rounds (by name, or by slug for clist's renamed entries). */
export function geeksforgeeksType(name: string, slug = ''): GeeksforgeeksType {
  return /\bgfg\s+weekly\b/i.test(name) || /^gfg-weekly-/.test(slug) ? 'WEEKLY' : 'OTHER'
}

const isTimedContest = (startTime: number, endTime: number) => endTime - startTime <= MAX_CONTEST_MS

/** Turns an events answer into contests; an answer without results.upcoming throws. */
export function parseGeeksforgeeks(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<GeeksforgeeksContest> {
  const { results } = readEnvelope(
    ID,
    envelopeSchema,
    payload,
    'events answer has no results.upcoming list',
  )

  const out = new ResultCollector<GeeksforgeeksContest>(now, options)
  results.upcoming.forEach((item, index) => {
    const ref = `geeksforgeeks contest ${stringField(item, 'slug') ?? `#${index}`}`
    const parsed = eventSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const event = parsed.data
    if (!isTimedContest(event.start_time, event.end_time)) return out.markUnsupported()
    // The list can lag behind the clock and still hold a contest that ended.
    out.keepUnlessEnded(toContest(event))
  })
  return out.result()
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

/** GET {GEEKSFORGEEKS_API_URL}/api/vr/events/?type=contest&sub_type=all&page_number=1 */
export async function fetchGeeksforgeeks(
  request: SourceRequest,
): Promise<AdapterResult<GeeksforgeeksContest>> {
  const answer = await fetchJson(ID, request, EVENTS_PATH)
  return parseGeeksforgeeks(answer, request.now, request)
}

/** A contest's page, on practice.geeksforgeeks.org or www.geeksforgeeks.org. */
const CONTEST_PAGE =
  /^https?:\/\/(?:practice|www)\.geeksforgeeks\.org\/contest\/([A-Za-z0-9][\w-]*)\/?(?:[?#].*)?$/

export const geeksforgeeks = definePlatform({
  id: ID,
  name: 'GeeksforGeeks',
  homeUrl: 'https://www.geeksforgeeks.org',
  contestsUrl: `${PRACTICE}/events`,
  types: GEEKSFORGEEKS_TYPES,
  typeNames: { WEEKLY: 'Weekly', OTHER: 'Other' },
  source: {
    setting: 'GEEKSFORGEEKS_API_URL',
    defaultUrl: 'https://practiceapi.geeksforgeeks.org',
    fetch: fetchGeeksforgeeks,
    fixtures: [
      {
        method: 'GET',
        path: '/api/vr/events/?page_number=1',
        file: 'fixtures/events-contest-page-1.json',
        contentType: 'application/json',
        shift: shiftJson({ naive: ['start_time', 'end_time'] }),
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
