// Luogu: the public contest list (/contest/list, Lentille's content-only JSON, or its page's
// lentille-context), newest start first, paged, past Luogu's C3VK cookie challenge.
import { DomUtils } from 'htmlparser2'
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import { elementById, parseHtml } from '../html.ts'
import {
  idField,
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import {
  fetchText,
  joinUrl,
  statusError,
  tryParseJson,
  UpstreamError,
  type UpstreamResponse,
} from '../upstream.ts'

const SITE = 'https://www.luogu.com.cn'

/**
 * Pages read at most per sync. The list runs newest start first with ~20 a page, and once a
 * whole page has ended the rest of its ~70 pages are history; the cap only guards against a
 * list that never seems to end.
 */
export const LUOGU_MAX_PAGES = 5

const TYPES = ['OI', 'ICPC', 'LEDUO', 'IOI', 'CF'] as const
type LuoguType = (typeof TYPES)[number]
type LuoguContest = SourceContest<'luogu', LuoguType>

/** Luogu's rule numbers (method, formerly ruleType); 3 is 乐多 (LeDuo), scored by tries. */
const RULE_TYPES: Record<number, LuoguType> = { 1: 'OI', 2: 'ICPC', 3: 'LEDUO', 4: 'IOI', 5: 'CF' }

// `result` is a JSON object keyed by index instead of an array when the server's list has gaps.
const listSchema = z.object({
  result: z.union([
    z.array(z.unknown()),
    z.record(z.string(), z.unknown()).transform((byIndex) => Object.values(byIndex)),
  ]),
  count: z.number().int().nonnegative().optional(),
  perPage: z.number().int().positive().nullish(),
})
type ContestList = z.infer<typeof listSchema>

/**
 * The two envelopes the list has come in: Lentille's `{instance, template, status, locale, data,
 * user, time, theme}` (since Luogu moved its pages to it, 2026) and the older DataResponse
 * `{code, currentTemplate, currentData, ...}`, still read in case a server answers with it.
 */
const lentilleSchema = z.object({ data: z.object({ contests: listSchema }) })
const legacySchema = z.object({ currentData: z.object({ contests: listSchema }) })

// Times are unix seconds. The list of the current pages names the rule `method` and the
// visibility `visibility` (as its contest page does), the older one `ruleType` and
// `visibilityType`; `rated` is 0 or 1 in the first, a boolean in the second.
const contestSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().trim().min(1),
    startTime: z.number().int().positive(),
    endTime: z.number().int().positive(),
    ruleType: z.number().int().optional(),
    method: z.number().int().optional(),
    visibilityType: z.number().int().optional(),
    visibility: z.number().int().optional(),
    rated: z.union([z.boolean(), z.number()]).optional(),
    // A user (uid, name...) or a team (id, name, isPremium); only the name is kept.
    host: z.object({ name: z.string() }).optional(),
  })
  .refine((c) => c.ruleType !== undefined || c.method !== undefined, {
    path: ['method'],
    message: 'neither method nor ruleType',
  })
  .refine((c) => c.endTime > c.startTime, { path: ['endTime'], message: 'not after startTime' })
  .transform(({ method, visibility, ...c }) => ({
    ...c,
    ruleType: (c.ruleType ?? method)!,
    visibilityType: c.visibilityType ?? visibility,
  }))

function readList(payload: unknown): ContestList {
  const lentille = lentilleSchema.safeParse(payload)
  if (lentille.success) return lentille.data.data.contests
  const legacy = legacySchema.safeParse(payload)
  if (legacy.success) return legacy.data.currentData.contests
  throw new UpstreamError(
    'luogu',
    'malformed',
    `contest list has neither data.contests.result nor currentData.contests.result${answerStatus(payload)}`,
  )
}

/** The status an envelope without a list says it has, for the error line (" (status 403)"). */
function answerStatus(payload: unknown): string {
  const envelope = payload as { status?: unknown; code?: unknown } | null
  const status = envelope?.status ?? envelope?.code
  return typeof status === 'number' ? ` (status ${status})` : ''
}

/**
 * Adds one page's contests to `out`; true when some contest on it has not ended, which is what
 * makes the next (older) page worth reading.
 */
function collectPage(out: ResultCollector<LuoguContest>, list: ContestList, now: number): boolean {
  let open = false
  list.result.forEach((item, index) => {
    const ref = `luogu contest ${idField(item, 'id') ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const contest = parsed.data
    if (contest.endTime * 1000 <= now) return
    open = true
    const type = RULE_TYPES[contest.ruleType]
    if (!type) return out.markUnsupported()
    out.keep(toContest(contest, type))
  })
  return open
}

/** One page of the contest list turned into the contests that have not ended. */
export function parseLuogu(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<LuoguContest> {
  const out = new ResultCollector<LuoguContest>(now, options)
  collectPage(out, readList(payload), now)
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>, type: LuoguType): LuoguContest {
  return {
    platform: 'luogu',
    platformId: String(contest.id),
    name: contest.name,
    type,
    startTime: contest.startTime * 1000,
    endTime: contest.endTime * 1000,
    websiteUrl: `${SITE}/contest/${contest.id}`,
    platformMetadata: {
      ruleType: contest.ruleType,
      ...(contest.visibilityType !== undefined && { visibilityType: contest.visibilityType }),
      ...(contest.rated !== undefined && { rated: Boolean(contest.rated) }),
      ...(contest.host && { host: contest.host.name }),
    },
  }
}

/**
 * GET {LUOGU_URL}/contest/list?page=N, page after page until one holds only finished contests, the
 * last page, or LUOGU_MAX_PAGES. The cookie of a C3VK challenge passed on one page is sent with
 * the later ones.
 */
export async function fetchLuogu(request: SourceRequest): Promise<AdapterResult<LuoguContest>> {
  const out = new ResultCollector<LuoguContest>(request.now, request)
  const session: Session = {}
  for (let page = 1; page <= LUOGU_MAX_PAGES; page++) {
    const list = readList(await fetchPage(request, page, session))
    const open = collectPage(out, list, request.now)
    if (!open || isLastPage(list, page)) break
  }
  return out.result()
}

/** What one sync carries from page to page: the C3VK cookie, once a challenge gave one. */
interface Session {
  cookie?: string
}

/**
 * One page of the list, as JSON or as the page's embedded context. A C3VK challenge is passed
 * once per sync by asking again with its cookie; a challenge after that is bot protection we do
 * not get past, not a reason to keep asking.
 */
async function fetchPage(request: SourceRequest, page: number, session: Session) {
  const first = readAnswer(await askPage(request, page, session.cookie))
  if (first.kind === 'list') return first.payload
  if (session.cookie !== undefined) throw new ChallengeError(first.status)
  session.cookie = first.cookie
  const second = readAnswer(await askPage(request, page, session.cookie))
  if (second.kind === 'list') return second.payload
  throw new ChallengeError(second.status)
}

function askPage(request: SourceRequest, page: number, cookie?: string) {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    // The header of Lentille's content-only answers, and the older DataResponse one (which the
    // list no longer needs, but which a server still on it would want).
    'x-lentille-request': 'content-only',
    'x-luogu-type': 'content-only',
  }
  if (cookie !== undefined) headers.Cookie = `C3VK=${cookie}`
  const url = joinUrl(request.baseUrl, `/contest/list?page=${page}`)
  // A challenge can come as a redirect that sets the cookie: followed blindly, it would redirect
  // again and again, so redirects are read here.
  const init: RequestInit = { headers, redirect: 'manual' }
  return fetchText('luogu', url, init, request.fetchFn, request.timeoutMs, request.userAgent)
}

type Answer =
  { kind: 'list'; payload: unknown } | { kind: 'challenge'; cookie: string; status: number }

// The value is a few hex digits ("C3VK=c82bf1"); more characters are allowed in case it grows.
const C3VK = /\bC3VK=([0-9A-Za-z]+)/

/**
 * What an answer is: the list (JSON, or a page carrying it in lentille-context), or a C3VK
 * challenge, either a redirect whose Set-Cookie holds the cookie or a small page whose script
 * sets it. Anything else throws.
 */
function readAnswer(res: UpstreamResponse): Answer {
  if (res.status >= 300 && res.status < 400) {
    const cookie = C3VK.exec(res.headers?.get('set-cookie') ?? '')?.[1]
    if (cookie) return { kind: 'challenge', cookie, status: res.status }
  }
  if (!res.ok) throw statusError('luogu', res)
  const json = tryParseJson(res.text)
  if (json !== undefined) return { kind: 'list', payload: json }
  const context = lentilleContext(res.text)
  if (context !== undefined) return { kind: 'list', payload: context }
  const cookie = C3VK.exec(res.text)?.[1]
  if (cookie) return { kind: 'challenge', cookie, status: res.status }
  throw new UpstreamError(
    'luogu',
    'malformed',
    'answer is neither JSON nor a page with lentille-context',
  )
}

/** The JSON of a page's `<script id="lentille-context" type="application/json">`, if it has one. */
function lentilleContext(html: string): unknown {
  const script = elementById(parseHtml(html), 'lentille-context')
  if (!script) return undefined
  const context = tryParseJson(DomUtils.textContent(script))
  if (context === undefined) {
    throw new UpstreamError('luogu', 'malformed', 'lentille-context is not JSON')
  }
  return context
}

/**
 * A C3VK challenge we could not pass: bot protection, so `blocked` like a 403 (the sync backs off
 * and clist.by fills in), whatever status the challenge came with.
 */
class ChallengeError extends UpstreamError {
  constructor(status: number) {
    super('luogu', 'status', `C3VK cookie challenge again after replaying its cookie`, status)
  }

  override get blocked(): boolean {
    return true
  }
}

function isLastPage(list: ContestList, page: number): boolean {
  const perPage = list.perPage ?? list.result.length
  return list.result.length === 0 || list.count === undefined || page * perPage >= list.count
}

/** The type of a contest clist lists: clist gives no rule, so the name is all there is. */
function luoguTypeFromName(name: string): LuoguType {
  if (/[IX]CPC|CCPC|ACM/i.test(name)) return 'ICPC'
  if (/乐多/.test(name)) return 'LEDUO'
  return 'OI'
}

// `time` is the Lentille envelope's server time, `currentTime` the older envelope's.
const shiftContestList = shiftJson({ seconds: ['startTime', 'endTime', 'time', 'currentTime'] })

export const luogu = definePlatform({
  id: 'luogu',
  name: 'Luogu',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contest/list`,
  types: TYPES,
  typeNames: {
    OI: 'OI format',
    ICPC: 'ICPC format',
    LEDUO: 'LeDuo (乐多)',
    IOI: 'IOI format',
    CF: 'Codeforces format',
  },
  source: {
    setting: 'LUOGU_URL',
    defaultUrl: SITE,
    fetch: fetchLuogu,
    fixtures: [1, 2].map((page) => ({
      method: 'GET' as const,
      path: `/contest/list?page=${page}`,
      file: `fixtures/contest-list-page-${page}.json`,
      contentType: 'application/json; charset=utf-8',
      shift: shiftContestList,
    })),
  },
  clist: {
    resource: 'luogu.com.cn',
    contest(entry) {
      const id = /^https?:\/\/(?:www\.)?luogu\.com\.cn\/contest\/(\d+)\/?(?:[?#].*)?$/.exec(
        entry.href,
      )?.[1]
      // The own source's ruleType replaces this guess at its next sync.
      return id ? { platformId: id, type: luoguTypeFromName(entry.event) } : undefined
    },
  },
})
