// Nowcoder (牛客竞赛): the contests of the vip-index page, read from each item's data-json wherever
// the page's lists put it.
import { DomUtils } from 'htmlparser2'
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftNaive } from '../fixture-time.ts'
import { attribute, findElements, parseHtml, type HtmlElement } from '../html.ts'
import {
  idField,
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchOk, UpstreamError } from '../upstream.ts'

const SITE = 'https://ac.nowcoder.com'

const TYPES = ['WEEKLY', 'MONTHLY', 'PRACTICE', 'OTHER'] as const
type NowcoderType = (typeof TYPES)[number]
type NowcoderContest = SourceContest<'nowcoder', NowcoderType>

// Times are epoch milliseconds. The item carries many more fields (sign-up counts, countdowns).
const contestSchema = z
  .object({
    contestId: z.number().int().positive(),
    contestName: z.string().trim().min(1),
    contestStartTime: z.number().int().positive(),
    contestEndTime: z.number().int().positive(),
    // The ranking rule: 0 ACM, 2 OI, 3 IOI.
    type: z.number().int().optional(),
    settingInfo: z
      .object({
        organizerName: z.string().optional(),
        needPassword: z.boolean().optional(),
      })
      .optional(),
  })
  .refine((c) => c.contestEndTime > c.contestStartTime, {
    path: ['contestEndTime'],
    message: 'not after contestStartTime',
  })
type NowcoderItem = z.infer<typeof contestSchema>

/** The series a contest belongs to, from its name: 牛客周赛, (小白)月赛, 练习赛, or another. */
export function nowcoderType(name: string): NowcoderType {
  if (/周赛/.test(name)) return 'WEEKLY'
  if (/月赛/.test(name)) return 'MONTHLY'
  if (/练习赛/.test(name)) return 'PRACTICE'
  return 'OTHER'
}

const hasClass = (element: HtmlElement, name: string) =>
  (attribute(element, 'class') ?? '').split(/\s+/).includes(name)

/**
 * Every contest item of the page, wherever it sits: the independent parsers select
 * `.platform-item[data-json]` (or `js-item`) from the whole page rather than under the
 * `div.platform-mod.js-current` list, so a redesign of the lists around the items (tabs, another
 * wrapper) does not hide them. A page without a single item is not the page we know (a login
 * wall, a redesign of the items themselves): it fails loudly rather than report that nothing is
 * coming up, since the page lists its finished contests too and is never empty.
 */
function readItems(html: string): HtmlElement[] {
  const items = findElements(
    parseHtml(html),
    (e) =>
      (hasClass(e, 'platform-item') || hasClass(e, 'js-item')) &&
      attribute(e, 'data-json') !== undefined,
  )
  if (items.length === 0) {
    throw new UpstreamError('nowcoder', 'malformed', 'page has no .platform-item[data-json]')
  }
  return items
}

/**
 * An item's data-json as a value. The page escapes the JSON twice (`{&amp;quot;contestId...`),
 * so the attribute still holds entities once htmlparser2 has decoded it; a page that escapes it
 * once is read too.
 */
function readDataJson(item: HtmlElement): unknown {
  const once = attribute(item, 'data-json') ?? ''
  const text = /^\s*\{&quot;/.test(once) ? DomUtils.textContent(parseHtml(once).children) : once
  return JSON.parse(text)
}

/** Turns the vip-index page into the contests that have not ended. */
export function parseNowcoder(
  html: string,
  now: number,
  options: ParseOptions = {},
): AdapterResult<NowcoderContest> {
  const out = new ResultCollector<NowcoderContest>(now, options)
  // A contest can be listed more than once (a running one in a "hot" strip and in the current
  // list, or in the current and the finished tab): it is read, and counted, once.
  const seen = new Set<string>()
  readItems(html).forEach((item, index) => {
    const dataId = attribute(item, 'data-id')
    const ref = `nowcoder contest ${dataId ?? `#${index}`}`
    let data: unknown
    try {
      data = readDataJson(item)
    } catch {
      if (dataId !== undefined && !firstTime(seen, dataId)) return
      return out.skip(ref, 'data-json is not JSON')
    }
    const key = idField(data, 'contestId') ?? dataId
    if (key !== undefined && !firstTime(seen, key)) return
    const parsed = contestSchema.safeParse(data)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const contest = parsed.data
    if (contest.contestEndTime <= now) return
    // Only invitees can enter a contest behind a password: nothing to alert the public about.
    if (contest.settingInfo?.needPassword) return out.markUnsupported()
    out.keep(toContest(contest))
  })
  return out.result()
}

/** Whether `key` is met for the first time, remembering it. */
function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false
  seen.add(key)
  return true
}

function toContest(contest: NowcoderItem): NowcoderContest {
  const organizer = contest.settingInfo?.organizerName
  return {
    platform: 'nowcoder',
    platformId: String(contest.contestId),
    name: contest.contestName,
    type: nowcoderType(contest.contestName),
    startTime: contest.contestStartTime,
    endTime: contest.contestEndTime,
    websiteUrl: `${SITE}/acm/contest/${contest.contestId}`,
    platformMetadata: {
      ...(contest.type !== undefined && { rankType: contest.type }),
      ...(organizer && { organizer }),
    },
  }
}

/** GET {NOWCODER_URL}/acm/contest/vip-index */
export async function fetchNowcoder(
  request: SourceRequest,
): Promise<AdapterResult<NowcoderContest>> {
  const html = await fetchOk('nowcoder', request, '/acm/contest/vip-index', {
    headers: { Accept: 'text/html' },
  })
  return parseNowcoder(html, request.now, request)
}

/**
 * The page holds each time twice: as epoch milliseconds in the escaped data-json
 * (`contestStartTime&amp;quot;:1795863600000`) and as Beijing wall time in the text
 * (`2026-11-29 19:00`).
 */
function shiftVipIndex(html: string, shiftMs: number): string {
  return html
    .replace(
      /(contest\w*Time(?:&amp;quot;|&quot;|"):)(\d{12,})/g,
      (_, key: string, ms: string) => `${key}${Number(ms) + shiftMs}`,
    )
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, (time) => shiftNaive(time, shiftMs))
}

export const nowcoder = definePlatform({
  id: 'nowcoder',
  name: 'Nowcoder',
  homeUrl: SITE,
  contestsUrl: `${SITE}/acm/contest/vip-index`,
  types: TYPES,
  typeNames: {
    WEEKLY: 'Weekly (周赛)',
    MONTHLY: 'Monthly (月赛)',
    PRACTICE: 'Practice (练习赛)',
    OTHER: 'Other',
  },
  source: {
    setting: 'NOWCODER_URL',
    defaultUrl: SITE,
    fetch: fetchNowcoder,
    fixtures: [
      {
        method: 'GET',
        path: '/acm/contest/vip-index',
        file: 'fixtures/vip-index.html',
        contentType: 'text/html; charset=utf-8',
        shift: shiftVipIndex,
      },
    ],
  },
  clist: {
    resource: 'ac.nowcoder.com',
    contest(entry) {
      const id = /^https?:\/\/ac\.nowcoder\.com\/acm\/contest\/(\d+)\/?(?:[?#].*)?$/.exec(
        entry.href,
      )?.[1]
      return id ? { platformId: id, type: nowcoderType(entry.event) } : undefined
    },
  },
})
