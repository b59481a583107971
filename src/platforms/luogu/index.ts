// Luogu: the public contest list (/contest/list, content-only JSON), newest start first, paged.
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  idField,
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

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

/** Luogu's ruleType numbers; 3 is 乐多 (LeDuo), scored by how many tries a solve took. */
const RULE_TYPES: Record<number, LuoguType> = { 1: 'OI', 2: 'ICPC', 3: 'LEDUO', 4: 'IOI', 5: 'CF' }

// `result` is a JSON object keyed by index instead of an array when the server's list has gaps.
const envelopeSchema = z.object({
  currentData: z.object({
    contests: z.object({
      result: z.union([
        z.array(z.unknown()),
        z.record(z.string(), z.unknown()).transform((byIndex) => Object.values(byIndex)),
      ]),
      count: z.number().int().nonnegative().optional(),
      perPage: z.number().int().positive().nullish(),
    }),
  }),
})
type ContestList = z.infer<typeof envelopeSchema>['currentData']['contests']

// Times are unix seconds.
const contestSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().trim().min(1),
    startTime: z.number().int().positive(),
    endTime: z.number().int().positive(),
    ruleType: z.number().int(),
    visibilityType: z.number().int().optional(),
    rated: z.union([z.boolean(), z.number()]).optional(),
    // A user (uid, name...) or a team (id, name, isPremium); only the name is kept.
    host: z.object({ name: z.string() }).optional(),
  })
  .refine((c) => c.endTime > c.startTime, { path: ['endTime'], message: 'not after startTime' })

function readList(payload: unknown): ContestList {
  const problem = 'contest list has no currentData.contests.result'
  return readEnvelope('luogu', envelopeSchema, payload, problem).currentData.contests
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
      ...(contest.rated !== undefined && { rated: contest.rated }),
      ...(contest.host && { host: contest.host.name }),
    },
  }
}

/**
 * GET {LUOGU_URL}/contest/list?page=N&_contentOnly=1, page after page until one holds only
 * finished contests, the last page, or LUOGU_MAX_PAGES.
 */
export async function fetchLuogu(request: SourceRequest): Promise<AdapterResult<LuoguContest>> {
  const out = new ResultCollector<LuoguContest>(request.now, request)
  for (let page = 1; page <= LUOGU_MAX_PAGES; page++) {
    const list = readList(await fetchPage(request, page))
    const open = collectPage(out, list, request.now)
    if (!open || isLastPage(list, page)) break
  }
  return out.result()
}

function fetchPage(request: SourceRequest, page: number): Promise<unknown> {
  // Either the parameter or the header asks for JSON instead of the page; both are sent.
  return fetchJson('luogu', request, `/contest/list?page=${page}&_contentOnly=1`, {
    headers: { 'x-luogu-type': 'content-only' },
  })
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

const shiftContestList = shiftJson({ seconds: ['startTime', 'endTime', 'currentTime'] })

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
