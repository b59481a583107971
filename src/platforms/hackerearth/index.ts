// HackerEarth: the challenge feed of its Chrome extension turned into contests.
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftIso } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

const ID = 'hackerearth'
const SITE = 'https://www.hackerearth.com'
const EVENTS_PATH = '/chrome-extension/events/'

/** Circuits, Easy and the algorithm contests are all competitive programming rounds: one type. */
export const HACKEREARTH_TYPES = ['COMPETITIVE'] as const
type HackerEarthType = (typeof HACKEREARTH_TYPES)[number]
type HackerEarthContest = SourceContest<typeof ID, HackerEarthType>

// Hackathons run for weeks and are judged, hiring challenges are tests for a job: neither is a
// contest to be alerted about. The words are both challenge types and URL categories.
const NON_CONTEST_TYPES = ['hackathon', 'hiring']

/** "2026-11-20 15:30:00+00:00": a space between date and time, and always an offset. */
const FEED_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(Z|[+-]\d\d:\d\d)$/

/** A challenge's own page: /challenges/<category>/<slug>/ on www.hackerearth.com. */
const CHALLENGE_PAGE =
  /^https?:\/\/(?:www\.)?hackerearth\.com\/challenges\/([a-z-]+)\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/

const envelopeSchema = z.object({ response: z.array(z.unknown()) })

const feedTime = z
  .string()
  .regex(FEED_TIME, 'expected "YYYY-MM-DD hh:mm:ss+hh:mm"')
  .transform((text) => {
    const [, date, time, offset] = FEED_TIME.exec(text)!
    return Date.parse(`${date}T${time}${offset}`)
  })

// start_utc_tz is required on purpose: HackerEarth renamed start_timestamp to it once, and a
// second rename must show up as skipped items, not as contests at the wrong time.
const eventSchema = z.object({
  title: z.string().trim().min(1),
  url: z.string().min(1),
  challenge_type: z.string().min(1),
  start_utc_tz: feedTime,
  end_utc_tz: feedTime,
})
type HackerEarthEvent = z.infer<typeof eventSchema>

/** The category and slug of a challenge page's URL, or undefined for any other URL. */
export function hackerearthChallenge(url: string): { category: string; slug: string } | undefined {
  const match = CHALLENGE_PAGE.exec(url)
  return match ? { category: match[1], slug: match[2] } : undefined
}

function isContest(event: HackerEarthEvent): boolean {
  return (
    !event.url.includes('/hiring/') &&
    !NON_CONTEST_TYPES.includes(event.challenge_type.toLowerCase())
  )
}

/** Turns the feed into contests; an answer without its `response` list throws. */
export function parseHackerearth(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<HackerEarthContest> {
  const { response } = readEnvelope(
    ID,
    envelopeSchema,
    payload,
    'events answer has no response list',
  )

  const out = new ResultCollector<HackerEarthContest>(now, options)
  response.forEach((item, index) => {
    const ref = `hackerearth event ${stringField(item, 'url') ?? `#${index}`}`
    const parsed = eventSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const event = parsed.data
    if (!isContest(event)) return out.markUnsupported()
    const page = hackerearthChallenge(event.url)
    if (!page) return out.skip(ref, 'url: not a challenge page')
    if (event.end_utc_tz <= event.start_utc_tz) {
      return out.skip(ref, 'end_utc_tz: not after start_utc_tz')
    }
    out.keepUnlessEnded(toContest(event, page))
  })
  return out.result()
}

function toContest(
  event: HackerEarthEvent,
  page: { category: string; slug: string },
): HackerEarthContest {
  return {
    platform: ID,
    platformId: page.slug,
    name: event.title,
    type: 'COMPETITIVE',
    startTime: event.start_utc_tz,
    endTime: event.end_utc_tz,
    // Built from the slug so that it is https and the same as clist.by's link.
    websiteUrl: `${SITE}/challenges/${page.category}/${page.slug}/`,
    platformMetadata: { challengeType: event.challenge_type },
  }
}

/** GET {HACKEREARTH_URL}/chrome-extension/events/ */
export async function fetchHackerearth(
  request: SourceRequest,
): Promise<AdapterResult<HackerEarthContest>> {
  const answer = await fetchJson(ID, request, EVENTS_PATH)
  return parseHackerearth(answer, request.now, request)
}

// The feed's times carry an offset but a space instead of the "T" that shiftJson recognises.
const TIME_KEYS = ['start_utc_tz', 'end_utc_tz', 'start_tz', 'end_tz', 'start_timestamp']

function shiftEvents(text: string, shiftMs: number): string {
  const page = JSON.parse(text) as { response: Record<string, unknown>[] }
  const response = page.response.map((event) =>
    Object.fromEntries(
      Object.entries(event).map(([key, value]) => [
        key,
        TIME_KEYS.includes(key) && typeof value === 'string' && FEED_TIME.test(value)
          ? shiftIso(value.replace(' ', 'T'), shiftMs).replace('T', ' ')
          : value,
      ]),
    ),
  )
  return JSON.stringify({ ...page, response })
}

export const hackerearth = definePlatform({
  id: ID,
  name: 'HackerEarth',
  homeUrl: SITE,
  contestsUrl: `${SITE}/challenges/`,
  types: HACKEREARTH_TYPES,
  typeNames: { COMPETITIVE: 'Competitive' },
  source: {
    setting: 'HACKEREARTH_URL',
    defaultUrl: SITE,
    fetch: fetchHackerearth,
    fixtures: [
      {
        method: 'GET',
        path: EVENTS_PATH,
        file: 'fixtures/events.json',
        contentType: 'application/json',
        shift: shiftEvents,
      },
    ],
  },
  clist: {
    resource: 'hackerearth.com',
    contest(entry) {
      const page = hackerearthChallenge(entry.href)
      if (!page || NON_CONTEST_TYPES.includes(page.category)) return undefined
      return { platformId: page.slug, type: 'COMPETITIVE' }
    },
  },
})
