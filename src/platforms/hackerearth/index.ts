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

/** A challenge's own page: /challenges/<category>/<slug>/ on www.hackerearth.com. */
const CHALLENGE_PAGE =
  /^https?:\/\/(?:www\.)?hackerearth\.com\/challenges\/([a-z-]+)\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/

const envelopeSchema = z.object({ response: z.array(z.unknown()) })

// The times are read apart (readTime below), from whichever of their fields an item carries.
const eventSchema = z.object({
  title: z.string().trim().min(1),
  url: z.string().min(1),
  challenge_type: z.string().min(1),
})
type HackerEarthEvent = z.infer<typeof eventSchema>

/**
 * An ISO 8601 time to the minute or finer, extended ("2026-11-20 15:30:00+00:00",
 * "2026-11-20T15:30:00.000Z") or basic ("20261120T153000Z"): "T", "t" or (as RFC 3339 allows) a
 * space between date and time, a fraction after "." or ",", and Z or an offset written "+05:30",
 * "+0530" or "+05". The feed writes what Python's str() makes of an aware datetime (a space, no
 * fraction, "+00:00"), but nobody confirmed that it always will.
 */
const EXTENDED =
  /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?([Zz]|[+-]\d\d(?::?\d\d)?)?$/
const BASIC =
  /^(\d{4})(\d\d)(\d\d)[Tt](\d\d)(\d\d)(?:(\d\d)(?:[.,](\d+))?)?([Zz]|[+-]\d\d(?:\d\d)?)?$/

/**
 * Epoch milliseconds of an ISO 8601 time, or undefined. A time without Z or an offset is read
 * only where the field names its zone (`naiveAsUtc`: the *_utc_tz fields).
 */
export function hackerearthTime(text: string, naiveAsUtc = false): number | undefined {
  const match = EXTENDED.exec(text) ?? BASIC.exec(text)
  if (!match) return undefined
  const [, year, month, day, hour, minute, second = '0', fraction = '', offset] = match
  if (!offset && !naiveAsUtc) return undefined
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number)
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined
  const ms = Math.round(Number(`0.${fraction || '0'}`) * 1000)
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms)
  // Date.UTC rolls 31 November over into December: a day the month lacks is no time.
  if (new Date(utc).getUTCDate() !== d) return undefined
  return utc - offsetMinutes(offset) * 60_000
}

function offsetMinutes(offset: string | undefined): number {
  if (!offset || offset === 'Z' || offset === 'z') return 0
  const digits = offset.slice(1).replace(':', '')
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')
  return offset[0] === '-' ? -minutes : minutes
}

// Epoch seconds stay below 1e11 until the year 5138; milliseconds passed it in 1973.
const SECONDS_UNTIL = 1e11

/**
 * start_timestamp's form is not confirmed: an ISO string like its neighbours', or epoch seconds
 * or milliseconds (a number, or a string of digits); all are read.
 */
function timestampTime(value: unknown): number | undefined {
  const epoch =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? +value
        : 0
  if (Number.isFinite(epoch) && epoch > 0) {
    return epoch < SECONDS_UNTIL ? epoch * 1000 : epoch
  }
  return typeof value === 'string' ? hackerearthTime(value) : undefined
}

/**
 * The fields that tell a challenge's start, in the order they are trusted (its end likewise).
 * start_utc_tz and start_timestamp both exist in today's feed, and start_tz is the same instant in
 * India time: a change to one of them must not lose the challenge while another still reads.
 */
const START_FIELDS = ['start_utc_tz', 'start_timestamp', 'start_tz'] as const
const END_FIELDS = ['end_utc_tz', 'end_timestamp', 'end_tz'] as const

function readField(item: Record<string, unknown>, key: string): number | undefined {
  const value = item[key]
  if (key.endsWith('_timestamp')) return timestampTime(value)
  return typeof value === 'string' ? hackerearthTime(value, key.endsWith('_utc_tz')) : undefined
}

type TimeRead = { key: string; time: number } | { problem: string }

/** The first of `keys` holding a readable time, or why none does. */
function readTime(item: Record<string, unknown>, keys: readonly string[]): TimeRead {
  for (const key of keys) {
    const time = readField(item, key)
    if (time !== undefined) return { key, time }
  }
  const present = keys.filter((key) => item[key] !== undefined && item[key] !== null)
  if (present.length === 0) return { problem: `${keys.join(', ')}: none of them given` }
  const values = present.map((key) => `${key} ${JSON.stringify(item[key])}`).join(', ')
  return { problem: `${present[0]}: not an ISO 8601 time with an offset (${values})` }
}

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
    const fields = item as Record<string, unknown>
    const start = readTime(fields, START_FIELDS)
    if ('problem' in start) return out.skip(ref, start.problem)
    const end = readTime(fields, END_FIELDS)
    if ('problem' in end) return out.skip(ref, end.problem)
    if (end.time <= start.time) return out.skip(ref, `${end.key}: not after ${start.key}`)
    out.keepUnlessEnded(toContest(event, page, start.time, end.time))
  })
  return out.result()
}

function toContest(
  event: HackerEarthEvent,
  page: { category: string; slug: string },
  startTime: number,
  endTime: number,
): HackerEarthContest {
  return {
    platform: ID,
    platformId: page.slug,
    name: event.title,
    type: 'COMPETITIVE',
    startTime,
    endTime,
    // Built from the slug so that it is https and the same as clist.by's link.
    websiteUrl: `${SITE}/challenges/${page.category}/${page.slug}/`,
    platformMetadata: { challengeType: event.challenge_type },
  }
}

/**
 * GET {HACKEREARTH_URL}/chrome-extension/events/. clist.by reads this feed through a proxy, so
 * datacenter addresses may get a 403: that is an UpstreamError with `blocked` set, which the sync
 * turns into the blocked state, its backoff and the clist.by fallback.
 */
export async function fetchHackerearth(
  request: SourceRequest,
): Promise<AdapterResult<HackerEarthContest>> {
  const answer = await fetchJson(ID, request, EVENTS_PATH)
  return parseHackerearth(answer, request.now, request)
}

// The feed's times carry an offset but a space instead of the "T" that shiftJson recognises.
const TIME_KEYS = [...START_FIELDS, ...END_FIELDS] as readonly string[]
const SPACED = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(Z|[+-]\d\d:?\d\d)$/

function shiftTime(value: unknown, shiftMs: number): unknown {
  if (typeof value === 'number') return value + (value < SECONDS_UNTIL ? shiftMs / 1000 : shiftMs)
  if (typeof value !== 'string' || !SPACED.test(value)) return value
  const separator = value[10]
  return shiftIso(value.replace(' ', 'T'), shiftMs).replace('T', separator)
}

function shiftEvents(text: string, shiftMs: number): string {
  const page = JSON.parse(text) as { response: Record<string, unknown>[] }
  const response = page.response.map((event) =>
    Object.fromEntries(
      Object.entries(event).map(([key, value]) => [
        key,
        TIME_KEYS.includes(key) ? shiftTime(value, shiftMs) : value,
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
