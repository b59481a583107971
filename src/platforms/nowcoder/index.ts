// Nowcoder (牛客竞赛): the contests of the vip-index page, read from each item's data-json.
import { DomUtils } from 'htmlparser2'
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftNaive } from '../fixture-time.ts'
import { attribute, findElements, parseHtml, type HtmlElement } from '../html.ts'
import {
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
 * The contest items of the page's lists: the current one (upcoming and running), which the page
 * must have, and the finished one below it.
 */
function readItems(html: string): HtmlElement[] {
  const page = parseHtml(html)
  const lists = findElements(page, (e) => hasClass(e, 'platform-mod'))
  if (!lists.some((list) => hasClass(list, 'js-current'))) {
    // Without the list this is not the page we know (a login wall, a redesign): fail loudly
    // rather than report that nothing is coming up.
    throw new UpstreamError('nowcoder', 'malformed', 'page has no div.platform-mod.js-current')
  }
  return lists.flatMap((list) =>
    findElements(list, (e) => hasClass(e, 'js-item') && attribute(e, 'data-json') !== undefined),
  )
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
  readItems(html).forEach((item, index) => {
    const ref = `nowcoder contest ${attribute(item, 'data-id') ?? `#${index}`}`
    let data: unknown
    try {
      data = readDataJson(item)
    } catch {
      return out.skip(ref, 'data-json is not JSON')
    }
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
