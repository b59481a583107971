// AtCoder: the running, upcoming and recent tables of the /contests page turned into contests
// (AtCoder has no public contest API); its results are in results.ts.
import { z } from 'zod'
import { MINUTE_MS } from '../../lib/time.ts'
import type { Difficulty, SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftIso } from '../fixture-time.ts'
import {
  attribute,
  childrenByName,
  elementById,
  findElements,
  firstByName,
  parseHtml,
  textOf,
  type HtmlElement,
} from '../html.ts'
import {
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchOk, UpstreamError } from '../upstream.ts'
import { atcoderResults } from './results.ts'

const SITE = 'https://atcoder.jp'

/** Sections of the page in the order they are read; a contest listed twice keeps the first. */
export const ATCODER_SECTIONS = {
  action: 'contest-table-action',
  upcoming: 'contest-table-upcoming',
  recent: 'contest-table-recent',
} as const
export type AtcoderSection = keyof typeof ATCODER_SECTIONS

/** One table row as read from the page, before validation. */
export interface AtcoderRow {
  section: AtcoderSection
  contestId?: string
  title?: string
  kind?: string
  startText?: string
  durationText?: string
  ratedRange?: string
}

const rowSchema = z.object({
  section: z.enum(['action', 'upcoming', 'recent']),
  contestId: z.string().regex(/^[a-z0-9_-]+$/i, 'no /contests/<id> link'),
  title: z.string().min(1),
  kind: z.string().optional(),
  // "2026-11-28 21:00:00+0900", the text of <time class='fixtime fixtime-full'>
  startText: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?[+-]\d{2}:?\d{2}$/, 'unreadable start time'),
  // "01:40"; long heuristic contests run for hundreds of hours ("240:00")
  durationText: z.string().regex(/^\d{1,4}:[0-5]\d$/, 'unreadable duration'),
  ratedRange: z.string().optional(),
})

const TYPES = ['ABC', 'ARC', 'AGC', 'AHC'] as const
type AtcoderType = (typeof TYPES)[number]
type AtcoderContest = SourceContest<'atcoder', AtcoderType>

/** AHC is a heuristic (optimisation) contest: a difficulty level says nothing about it. */
export const ATCODER_DIFFICULTY: Record<AtcoderType, Difficulty | undefined> = {
  ABC: 'EASY',
  ARC: 'HARD',
  AGC: 'EXPERT',
  AHC: undefined,
}

/** ABC, ARC, AGC or AHC from the contest id, or from the title of sponsored rounds. */
export function atcoderType(contestId: string, title: string): AtcoderType | undefined {
  const byId = /^(abc|arc|agc|ahc)\d+$/i.exec(contestId)
  if (byId) return byId[1].toUpperCase() as AtcoderType
  if (/AtCoder Beginner Contest/i.test(title)) return 'ABC'
  if (/AtCoder Regular Contest/i.test(title)) return 'ARC'
  if (/AtCoder Grand Contest/i.test(title)) return 'AGC'
  if (/AtCoder Heuristic Contest/i.test(title)) return 'AHC'
  return undefined
}

/** The rows of the three contest tables; throws when the upcoming table is missing. */
export function readAtcoderRows(html: string): AtcoderRow[] {
  const page = parseHtml(html)
  const rows: AtcoderRow[] = []
  for (const [section, id] of Object.entries(ATCODER_SECTIONS) as [AtcoderSection, string][]) {
    const element = elementById(page, id)
    if (!element) {
      // The running table only appears while something runs and the recent one is optional,
      // but a page without the upcoming table is not the page we know: better fail loudly
      // than report that nothing is coming up.
      if (section === 'upcoming') {
        throw new UpstreamError('atcoder', 'malformed', `page has no #${id} table`)
      }
      continue
    }
    const table = firstByName(element, 'table')
    if (!table) continue
    const body = firstByName(table, 'tbody') ?? table
    for (const tr of childrenByName(body, 'tr')) {
      const cells = childrenByName(tr, 'td')
      if (cells.length > 0) rows.push(readRow(section, cells)) // header rows have only <th>
    }
  }
  return rows
}

// Columns: start time, contest name (with its kind and link), duration, rated range.
function readRow(
  section: AtcoderSection,
  [when, name, duration, rated]: HtmlElement[],
): AtcoderRow {
  const time = when && firstByName(when, 'time')
  const link =
    name && findElements(name, (e) => e.name === 'a' && !!contestIdOf(attribute(e, 'href')))[0]
  const kindSpan =
    name && findElements(name, (e) => e.name === 'span' && !!attribute(e, 'title'))[0]
  return {
    section,
    contestId: link && contestIdOf(attribute(link, 'href')),
    title: link && textOf(link),
    kind: kindSpan && attribute(kindSpan, 'title'),
    startText: time ? textOf(time) : when ? textOf(when) : '',
    durationText: duration ? textOf(duration) : '',
    ratedRange: rated === undefined ? undefined : textOf(rated),
  }
}

/** "/contests/abc480" or "https://atcoder.jp/contests/abc480/..." -> "abc480" */
function contestIdOf(href: string | undefined): string | undefined {
  return href ? /^(?:https?:\/\/[^/]+)?\/contests\/([^/?#]+)/.exec(href)?.[1] : undefined
}

/** "2026-11-28 21:00:00+0900" -> epoch ms */
export function atcoderTime(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?([+-])(\d{2}):?(\d{2})$/.exec(
    text,
  )
  if (!m) return Number.NaN
  const [, y, mo, d, h, mi, s = '0', sign, oh, om] = m
  const local = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s)
  const offset = (+oh * 60 + +om) * MINUTE_MS * (sign === '-' ? -1 : 1)
  return local - offset
}

function durationMs(text: string): number {
  const [hours, minutes] = text.split(':').map(Number)
  return (hours * 60 + minutes) * MINUTE_MS
}

/** Turns the /contests page into contests; rows that cannot be read are skipped and counted. */
export function parseAtcoderContests(
  html: string,
  now: number,
  options: ParseOptions = {},
): AdapterResult<AtcoderContest> {
  const out = new ResultCollector<AtcoderContest>(now, options)
  readAtcoderRows(html).forEach((row, index) => {
    const ref = `atcoder ${row.section} row ${row.contestId ?? `#${index}`}`
    const parsed = rowSchema.safeParse(row)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const startTime = atcoderTime(parsed.data.startText)
    if (Number.isNaN(startTime)) return out.skip(ref, 'startText: not a real date')
    const type = atcoderType(parsed.data.contestId, parsed.data.title)
    if (!type) return out.markUnsupported()
    out.keep(toContest(parsed.data, type, startTime))
  })
  return out.result()
}

function toContest(
  row: z.infer<typeof rowSchema>,
  type: AtcoderType,
  startTime: number,
): AtcoderContest {
  const difficulty = ATCODER_DIFFICULTY[type]
  const page = `${SITE}/contests/${row.contestId}`
  const ratedRange = row.ratedRange
  return {
    platform: 'atcoder',
    platformId: row.contestId,
    name: row.title,
    type,
    startTime,
    endTime: startTime + durationMs(row.durationText),
    websiteUrl: page,
    registrationUrl: page,
    ...(difficulty && { difficulty }),
    platformMetadata: {
      ...(ratedRange !== undefined && {
        ratedRange,
        // AtCoder writes "-" for an unrated contest, "All" or a range such as "- 1999" otherwise.
        rated: ratedRange !== '-' && ratedRange !== '',
      }),
      ...(row.kind && { kind: row.kind }),
    },
  }
}

/** GET {ATCODER_URL}/contests/?lang=en */
export async function fetchAtcoder(request: SourceRequest): Promise<AdapterResult<AtcoderContest>> {
  // English titles; the Japanese page names sponsored rounds in Japanese.
  const html = await fetchOk('atcoder', request, '/contests/?lang=en', {
    headers: { Accept: 'text/html' },
  })
  return parseAtcoderContests(html, request.now, request)
}

/** AtCoder writes times as `2026-11-29 21:00:00+0900` inside <time> elements. */
function shiftAtcoderPage(html: string, shiftMs: number): string {
  return html.replace(/(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)([+-]\d{4})/g, (_, d, t, off) => {
    const iso = shiftIso(`${d}T${t}${off.slice(0, 3)}:${off.slice(3)}`, shiftMs)
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${off}`
  })
}

export const atcoder = definePlatform({
  id: 'atcoder',
  name: 'AtCoder',
  homeUrl: 'https://atcoder.jp',
  contestsUrl: 'https://atcoder.jp/contests/',
  types: TYPES,
  typeNames: {
    ABC: 'Beginner (ABC)',
    ARC: 'Regular (ARC)',
    AGC: 'Grand (AGC)',
    AHC: 'Heuristic (AHC)',
  },
  source: {
    setting: 'ATCODER_URL',
    defaultUrl: 'https://atcoder.jp',
    fetch: fetchAtcoder,
    fixtures: [
      {
        method: 'GET',
        path: '/contests/',
        file: 'fixtures/atcoder-contests.html',
        contentType: 'text/html; charset=utf-8',
        shift: shiftAtcoderPage,
      },
    ],
  },
  clist: {
    resource: 'atcoder.jp',
    contest(entry) {
      const id = contestIdOf(entry.href)
      const type = id && atcoderType(id, entry.event)
      return type ? { platformId: id, type } : undefined
    },
  },
  results: atcoderResults,
})
