// AtCoder adapter: the running, upcoming and recent tables of the /contests page turned into
// contests (AtCoder has no public contest API).
import { z } from 'zod'
import type { ContestInput } from '../contests/contest-input.ts'
import { MINUTE_MS } from '../lib/time.ts'
import {
  ResultCollector,
  type AdapterResult,
  type FetchFn,
  type FetchOptions,
  type ParseOptions,
} from './adapter.ts'
import { ATCODER_DIFFICULTY } from './difficulty.ts'
import { attribute, elementById, elements, firstElement, textOf } from './html-scan.ts'
import { fetchText, joinUrl, statusError, UpstreamError } from './upstream.ts'

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

type AtcoderType = keyof typeof ATCODER_DIFFICULTY

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
  const rows: AtcoderRow[] = []
  for (const [section, id] of Object.entries(ATCODER_SECTIONS) as [AtcoderSection, string][]) {
    const element = elementById(html, id)
    if (!element) {
      // The running table only appears while something runs and the recent one is optional,
      // but a page without the upcoming table is not the page we know: better fail loudly
      // than report that nothing is coming up.
      if (section === 'upcoming') {
        throw new UpstreamError('atcoder', 'malformed', `page has no #${id} table`)
      }
      continue
    }
    const table = firstElement(element.inner, 'table')
    if (!table) continue
    const body = firstElement(table.inner, 'tbody') ?? table
    for (const tr of elements(body.inner, 'tr')) {
      const cells = elements(tr.inner, 'td').map((td) => td.inner)
      if (cells.length > 0) rows.push(readRow(section, cells)) // header rows have only <th>
    }
  }
  return rows
}

// Columns: start time, contest name (with its kind and link), duration, rated range.
function readRow(
  section: AtcoderSection,
  [when = '', name = '', duration = '', rated]: string[],
): AtcoderRow {
  const time = firstElement(when, 'time')
  const link = elements(name, 'a').find((a) => contestIdOf(attribute(a.attrs, 'href')))
  const kindSpan = elements(name, 'span').find((span) => attribute(span.attrs, 'title'))
  return {
    section,
    contestId: link && contestIdOf(attribute(link.attrs, 'href')),
    title: link && textOf(link.inner),
    kind: kindSpan && attribute(kindSpan.attrs, 'title'),
    startText: textOf(time ? time.inner : when),
    durationText: textOf(duration),
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
): AdapterResult {
  const out = new ResultCollector(now, options)
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
): ContestInput {
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
export async function fetchAtcoder(
  baseUrl: string,
  fetchFn: FetchFn,
  now: number,
  options: FetchOptions = {},
): Promise<AdapterResult> {
  const res = await fetchText(
    'atcoder',
    // English titles; the Japanese page names sponsored rounds in Japanese.
    joinUrl(baseUrl, '/contests/?lang=en'),
    { headers: { Accept: 'text/html' } },
    fetchFn,
    options.timeoutMs,
  )
  if (!res.ok) throw statusError('atcoder', res)
  return parseAtcoderContests(res.text, now, options)
}
