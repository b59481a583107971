// HackerRank: the public contests of its four lists (upcoming and college contests, HackerRank
// Engage events, competitions) turned into contests, each once.
import { z } from 'zod'
import { DAY_MS } from '../../lib/time.ts'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  idField,
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope, UpstreamError } from '../upstream.ts'

const ID = 'hackerrank'
const SITE = 'https://www.hackerrank.com'
const LIST_PATH = '/rest/contests/upcoming'
// Contests hosted for universities, in the same format; clist.by reads it since 2020.
const COLLEGE_PATH = '/rest/contests/college'
// HackerRank Engage: hiring events with a page of their own (the list newer trackers read).
const EVENTS_PATH = '/community/engage/events'
// Competitions (JSON:API), clist.by's third list: hackathons and sponsored rounds.
const COMPETITIONS_PATH = '/api/hrw/resources/competitions'
const PUBLISHED = 'filter[status]=published'
/** Competitions pages followed through links.next at most; clist.by follows them all. */
export const COMPETITION_PAGES = 3

/**
 * HackerRank's contests have no series worth a type of their own: CodeSprints, HourRanks, Week of
 * Code and sponsored rounds come, pause for years and change format, so every one is OTHER.
 */
export const HACKERRANK_TYPES = ['OTHER'] as const
type HackerrankType = (typeof HACKERRANK_TYPES)[number]
type HackerrankContest = SourceContest<typeof ID, HackerrankType>

/**
 * Longer than this, a "contest" is a practice board: ProjectEuler+ is listed as a contest that
 * started in 2014 and whose end is pushed years ahead. Nobody wants an alert for it.
 */
const PRACTICE_BOARD_MS = 365 * DAY_MS

// models is required: an answer without it must not pass for "no contests".
const listSchema = z.object({ models: z.array(z.unknown()) })

const SLUG = /^[A-Za-z0-9][\w-]*$/

const modelSchema = z
  .object({
    id: z.number().int().positive(),
    slug: z.string().regex(SLUG),
    name: z.string().trim().min(1),
    epoch_starttime: z.number().int().positive(),
    // null for a board that never closes.
    epoch_endtime: z.number().int().positive().nullable(),
    rated: z.boolean().optional(),
  })
  .refine((m) => m.epoch_endtime === null || m.epoch_endtime > m.epoch_starttime, {
    message: 'epoch_endtime is not after epoch_starttime',
    path: ['epoch_endtime'],
  })

type HackerrankModel = z.infer<typeof modelSchema>

/** ISO 8601 with Z or an offset: a time without one names no moment. */
const isoTime = z
  .string()
  .regex(
    /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/,
    'not ISO 8601 with a zone',
  )
  .transform((text) => Date.parse(text))
  .refine((ms) => Number.isFinite(ms), 'not a date')

// ongoing_events is required (it holds the upcoming ones too); past_events is not read.
const eventsSchema = z.object({
  data: z.object({ events: z.object({ ongoing_events: z.array(z.unknown()) }) }),
})

const eventSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]),
  attributes: z.object({
    name: z.string().trim().min(1),
    start_time: isoTime,
    end_time: isoTime,
    microsite_url: z.string().url(),
  }),
})

const competitionsSchema = z.object({
  data: z.array(z.unknown()),
  links: z.object({ next: z.string().nullish() }).nullish(),
})

const competitionSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]),
  attributes: z.object({
    name: z.string().trim().min(1),
    slug: z.string().regex(SLUG),
    starts_at: isoTime,
    // null for one that never closes.
    ends_at: isoTime.nullable(),
  }),
})

/** Every list's answer, as fetchHackerrank got them. */
export interface HackerrankAnswers {
  upcoming: unknown
  college: unknown
  events: unknown
  /** The competitions pages, in order. */
  competitions: readonly unknown[]
}

function isPracticeBoard(startTime: number, endTime: number): boolean {
  return endTime - startTime > PRACTICE_BOARD_MS
}

/**
 * Turns a contests/upcoming (or contests/college) answer into contests. The started/ended flags
 * are left alone: the times say the same, and stay right when a recorded answer is replayed later.
 */
export function parseHackerrank(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<HackerrankContest> {
  const out = new ResultCollector<HackerrankContest>(now, options)
  readModels(out, payload, 'contests/upcoming')
  return out.result()
}

/**
 * Turns the four lists' answers into contests, each once: a contest listed twice keeps the copy
 * of the first list (upcoming, college, competitions, events). A list without its envelope throws
 * malformed, naming the list.
 */
export function parseHackerrankAnswers(
  answers: HackerrankAnswers,
  now: number,
  options: ParseOptions = {},
): AdapterResult<HackerrankContest> {
  const out = new ResultCollector<HackerrankContest>(now, options)
  readModels(out, answers.upcoming, 'contests/upcoming')
  readModels(out, answers.college, 'contests/college')
  for (const page of answers.competitions) readCompetitions(out, page)
  readEvents(out, answers.events)
  return out.result()
}

type Collector = ResultCollector<HackerrankContest>

function readModels(out: Collector, payload: unknown, list: string) {
  const models = readEnvelope(ID, listSchema, payload, `${list} answer has no models`).models
  models.forEach((item, index) => {
    const ref = `hackerrank contest ${stringField(item, 'slug') ?? `#${index}`}`
    const parsed = modelSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const model = parsed.data
    const startTime = model.epoch_starttime * 1000
    const endTime = model.epoch_endtime === null ? null : model.epoch_endtime * 1000
    // A board that never closes, or stays open for years, is practice rather than a contest.
    if (endTime === null || isPracticeBoard(startTime, endTime)) return out.markUnsupported()
    out.keepUnlessEnded(toContest(model, startTime, endTime))
  })
}

function readCompetitions(out: Collector, payload: unknown) {
  const page = readEnvelope(ID, competitionsSchema, payload, 'competitions answer has no data')
  page.data.forEach((item, index) => {
    const slug = stringField((item as { attributes?: unknown } | null)?.attributes, 'slug')
    const parsed = competitionSchema.safeParse(item)
    if (!parsed.success) {
      return out.skipInvalid(`hackerrank competition ${slug ?? `#${index}`}`, parsed.error)
    }
    const { attributes: a, id } = parsed.data
    if (a.ends_at === null || isPracticeBoard(a.starts_at, a.ends_at)) return out.markUnsupported()
    if (a.ends_at <= a.starts_at) {
      return out.skip(`hackerrank competition ${a.slug}`, 'ends_at is not after starts_at')
    }
    out.keepUnlessEnded({
      platform: ID,
      // Apart from the contests' slugs, as clist.by keys them ("competitions/<id>") apart too.
      platformId: `competitions/${a.slug}`,
      name: a.name,
      type: 'OTHER',
      startTime: a.starts_at,
      endTime: a.ends_at,
      websiteUrl: `${SITE}/competitions/${a.slug}`,
      platformMetadata: { competitionId: String(id) },
    })
  })
}

function readEvents(out: Collector, payload: unknown) {
  const events = readEnvelope(ID, eventsSchema, payload, 'engage events answer has no events')
  events.data.events.ongoing_events.forEach((item, index) => {
    const ref = `hackerrank event ${idField(item, 'id') ?? `#${index}`}`
    const parsed = eventSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const { attributes: a, id } = parsed.data
    if (a.end_time <= a.start_time) return out.skip(ref, 'end_time is not after start_time')
    const page = new URL(a.microsite_url)
    // An event whose page is not on HackerRank is a company's own, not a HackerRank contest.
    if (page.protocol !== 'https:' || !/(^|\.)hackerrank\.com$/.test(page.hostname)) {
      return out.markUnsupported()
    }
    if (isPracticeBoard(a.start_time, a.end_time)) return out.markUnsupported()
    out.keepUnlessEnded({
      platform: ID,
      platformId: eventId(page, String(id)),
      name: a.name,
      type: 'OTHER',
      startTime: a.start_time,
      endTime: a.end_time,
      websiteUrl: page.href,
      platformMetadata: { eventId: String(id) },
    })
  })
}

/**
 * The id of an event: a contest's or a competition's when its page is one (so that the same
 * contest listed twice is one row, and clist.by's copy lands on it), else the event's own.
 */
function eventId(page: URL, id: string): string {
  const [, kind, slug] =
    /^\/(contests|competitions)\/([A-Za-z0-9][\w-]*)\/?$/.exec(page.pathname) ?? []
  if (kind === 'contests') return slug
  if (kind === 'competitions') return `competitions/${slug}`
  return `events/${id}`
}

function toContest(model: HackerrankModel, startTime: number, endTime: number): HackerrankContest {
  return {
    platform: ID,
    // The slug, not the numeric id: it is what the contest's page and clist's href carry.
    platformId: model.slug,
    name: model.name,
    type: 'OTHER',
    startTime,
    endTime,
    websiteUrl: `${SITE}/contests/${model.slug}`,
    platformMetadata: {
      contestId: model.id,
      ...(model.rated !== undefined && { rated: model.rated }),
    },
  }
}

/**
 * GET {HACKERRANK_URL}/rest/contests/upcoming?limit=100 and /rest/contests/college?limit=100 (one
 * page each: a hundred is several times what either lists at once), /community/engage/events, and
 * /api/hrw/resources/competitions?filter[status]=published with its links.next up to
 * COMPETITION_PAGES pages. Every list is required: a healthy answer cancels the stored contests
 * it no longer lists, so a list that fails fails the fetch (naming the list), and the sync turns
 * to clist.by, which reads the same lists, rather than dropping that list's contests.
 */
export async function fetchHackerrank(
  request: SourceRequest,
): Promise<AdapterResult<HackerrankContest>> {
  const ask = (list: string, path: string) => named(list, fetchJson(ID, request, path))
  const [upcoming, college, events, competitions] = await Promise.all([
    ask('contests/upcoming', `${LIST_PATH}?limit=100`),
    ask('contests/college', `${COLLEGE_PATH}?limit=100`),
    ask('engage events', EVENTS_PATH),
    named('competitions', fetchCompetitions(request)),
  ])
  return parseHackerrankAnswers({ upcoming, college, events, competitions }, request.now, request)
}

async function fetchCompetitions(request: SourceRequest): Promise<unknown[]> {
  const pages: unknown[] = []
  let path: string | undefined = `${COMPETITIONS_PATH}?${PUBLISHED}`
  while (path && pages.length < COMPETITION_PAGES) {
    const page = await fetchJson(ID, request, path)
    pages.push(page)
    path = nextPage(page)
  }
  return pages
}

/** links.next as a path under the base, when it is another page of the same list. */
function nextPage(page: unknown): string | undefined {
  const next = competitionsSchema.safeParse(page).data?.links?.next
  if (!next) return undefined
  const url = new URL(next, SITE)
  return url.pathname === COMPETITIONS_PATH ? `${url.pathname}${url.search}` : undefined
}

/** `answer`, or its failure with the list named in the message (kind and status kept). */
async function named<T>(list: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error
    const message = error.message.replace(/^hackerrank: /, '')
    const renamed = new UpstreamError(ID, error.kind, `${list}: ${message}`, error.status)
    if (error.retryAfter !== undefined) renamed.retryAfter = error.retryAfter
    throw renamed
  }
}

// clist links the contest's or the competition's page, with or without www.
const CLIST_HREF =
  /^https?:\/\/(?:www\.)?hackerrank\.com\/(contests|competitions)\/([A-Za-z0-9][\w-]*)(?:[/?#]|$)/

export const hackerrank = definePlatform({
  id: ID,
  name: 'HackerRank',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contests`,
  types: HACKERRANK_TYPES,
  typeNames: { OTHER: 'Other' },
  source: {
    setting: 'HACKERRANK_URL',
    defaultUrl: SITE,
    fetch: fetchHackerrank,
    fixtures: [
      {
        method: 'GET',
        path: LIST_PATH,
        file: 'fixtures/contests-upcoming.json',
        contentType: 'application/json',
        // starttime, get_starttimeiso and the like are ISO with Z and move by themselves.
        shift: shiftJson({ seconds: ['epoch_starttime', 'epoch_endtime'] }),
      },
      {
        method: 'GET',
        path: COLLEGE_PATH,
        file: 'fixtures/contests-college.json',
        contentType: 'application/json',
        shift: shiftJson({ seconds: ['epoch_starttime', 'epoch_endtime'] }),
      },
      {
        method: 'GET',
        path: EVENTS_PATH,
        file: 'fixtures/engage-events.json',
        contentType: 'application/json',
        // start_time and the like are ISO with Z and move by themselves.
        shift: shiftJson(),
      },
      {
        method: 'GET',
        path: `${COMPETITIONS_PATH}?${PUBLISHED}`,
        file: 'fixtures/competitions.json',
        contentType: 'application/json',
        shift: shiftJson(),
      },
    ],
  },
  clist: {
    resource: 'hackerrank.com',
    contest(entry) {
      const [, kind, slug] = CLIST_HREF.exec(entry.href) ?? []
      if (!slug || isPracticeBoard(entry.startTime, entry.endTime)) return undefined
      return { platformId: kind === 'competitions' ? `competitions/${slug}` : slug, type: 'OTHER' }
    },
  },
})
