// LeetCode's GraphQL contest lists turned into contests, for leetcode.com and for leetcode.cn,
// whose API is the same shape on another host with its own field names.
import { z } from 'zod'
import type { Difficulty, SourceContest } from '../contest.ts'
import type { ClistContest, FixtureRoute } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import {
  fetchJson,
  readEnvelope,
  tryParseJson,
  UpstreamError,
  type UpstreamResponse,
} from '../upstream.ts'

export const LEETCODE_TYPES = ['WEEKLY', 'BIWEEKLY'] as const
type LeetcodeType = (typeof LEETCODE_TYPES)[number]
export const LEETCODE_TYPE_NAMES = { WEEKLY: 'Weekly', BIWEEKLY: 'Biweekly' }
type Site = 'leetcode' | 'leetcode-cn'

/** Weekly and biweekly rounds share one format: four problems from easy to hard. */
export const LEETCODE_DIFFICULTY: Record<LeetcodeType, Difficulty> = {
  WEEKLY: 'MEDIUM',
  BIWEEKLY: 'MEDIUM',
}

// Past contests go back about 90 days at 20 a page (1.5 rounds a week), the retention window.
export const LEETCODE_CONTESTS_QUERY = `query contestCatalogue {
  upcomingContests { title titleSlug startTime duration }
  pastContests(pageNo: 1, numPerPage: 20) { data { title titleSlug startTime duration } }
}`

/** leetcode.cn names the upcoming list contestUpcomingContests and has no public past list. */
export const LEETCODE_CN_CONTESTS_QUERY = `query contestUpcomingContests {
  contestUpcomingContests { title titleSlug startTime duration }
}`

const SITES = {
  leetcode: {
    origin: 'https://leetcode.com',
    operationName: 'contestCatalogue',
    query: LEETCODE_CONTESTS_QUERY,
    // upcomingContests is required: an answer without it must not pass for "nothing upcoming".
    data: z
      .object({
        upcomingContests: z.array(z.unknown()),
        pastContests: z.object({ data: z.array(z.unknown()) }).nullish(),
      })
      .transform((d) => [...d.upcomingContests, ...(d.pastContests?.data ?? [])]),
  },
  'leetcode-cn': {
    origin: 'https://leetcode.cn',
    operationName: 'contestUpcomingContests',
    query: LEETCODE_CN_CONTESTS_QUERY,
    data: z
      .object({ contestUpcomingContests: z.array(z.unknown()) })
      .transform((d) => d.contestUpcomingContests),
  },
} as const

const errorsSchema = z.object({
  errors: z.array(z.object({ message: z.string() })).min(1),
})

const contestSchema = z.object({
  title: z.string().trim().min(1),
  titleSlug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  startTime: z.number().int().positive(),
  duration: z.number().int().positive(),
})

/** Weekly or biweekly from the title (or the slug); special events fit neither. */
export function leetcodeType(title: string, slug = ''): LeetcodeType | undefined {
  if (/\bbiweekly\s+contest\b/i.test(title) || /^biweekly-contest-/.test(slug)) return 'BIWEEKLY'
  if (/\bweekly\s+contest\b/i.test(title) || /^weekly-contest-/.test(slug)) return 'WEEKLY'
  return undefined
}

/** Turns a leetcode.com GraphQL answer into contests. */
export function parseLeetcodeContests(payload: unknown, now: number, options: ParseOptions = {}) {
  return parseContests('leetcode', payload, now, options)
}

/** Turns a GraphQL answer into contests; an `errors` array or a missing list throws. */
export function parseContests<P extends Site>(
  platform: P,
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<SourceContest<P, LeetcodeType>> {
  const errors = errorsSchema.safeParse(payload)
  if (errors.success) throw graphqlError(platform, errors.data.errors)
  const body = readEnvelope(
    platform,
    z.object({ data: SITES[platform].data }),
    payload,
    'GraphQL answer lacks the upcoming contests',
  )

  const out = new ResultCollector<SourceContest<P, LeetcodeType>>(now, options)
  body.data.forEach((item, index) => {
    const ref = `${platform} contest ${stringField(item, 'titleSlug') ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const type = leetcodeType(parsed.data.title, parsed.data.titleSlug)
    if (!type) return out.markUnsupported()
    const startTime = parsed.data.startTime * 1000
    // Registration is a button on the contest page itself.
    const page = `${SITES[platform].origin}/contest/${parsed.data.titleSlug}/`
    out.keep({
      platform,
      platformId: parsed.data.titleSlug,
      name: parsed.data.title,
      type,
      startTime,
      endTime: startTime + parsed.data.duration * 1000,
      websiteUrl: page,
      registrationUrl: page,
      difficulty: LEETCODE_DIFFICULTY[type],
      platformMetadata: { titleSlug: parsed.data.titleSlug },
    })
  })
  return out.result()
}

/** POST {base}/graphql */
export async function fetchContests<P extends Site>(platform: P, request: SourceRequest) {
  const site = SITES[platform]
  // A query the schema rejects comes back as 400 with the reasons in `errors`.
  const refusal = (res: UpstreamResponse) => {
    const errors = errorsSchema.safeParse(tryParseJson(res.text))
    return errors.success ? graphqlError(platform, errors.data.errors, res.status) : undefined
  }
  const answer = await fetchJson(
    platform,
    request,
    '/graphql',
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        // LeetCode's CSRF check turns away GraphQL posts that do not come from its own pages.
        Referer: `${site.origin}/contest/`,
      },
      body: JSON.stringify({
        operationName: site.operationName,
        query: site.query,
        variables: {},
      }),
    },
    refusal,
  )
  return parseContests(platform, answer, request.now, request)
}

export function fetchLeetcode(request: SourceRequest) {
  return fetchContests('leetcode', request)
}

/** A leetcode.com or leetcode.cn contest page's slug, from the address clist.by gives. */
export function leetcodeSlugOf(href: string): string | undefined {
  return /^https?:\/\/leetcode\.(?:com|cn)\/contest\/([a-z0-9][a-z0-9-]*)\/?$/.exec(href)?.[1]
}

/** The slug and type of a clist.by entry on either site, as the GraphQL source stores them. */
export function leetcodeClistContest(entry: ClistContest) {
  const slug = leetcodeSlugOf(entry.href)
  const type = slug && leetcodeType(entry.event, slug)
  return type ? { platformId: slug, type } : undefined
}

/**
 * The recorded GraphQL answer in `file`, served to a POST of either site (at /graphql unless
 * `path` says otherwise) whose JSON body holds `body`: the operation and its variables, which
 * alone tell apart the queries posted to one path.
 */
export function graphqlFixture(
  file: string,
  body: Record<string, unknown>,
  path = '/graphql',
): FixtureRoute {
  return {
    method: 'POST',
    path,
    body,
    file,
    contentType: 'application/json',
    shift: shiftJson({ seconds: ['startTime'] }),
  }
}

function graphqlError(platform: Site, errors: { message: string }[], status?: number) {
  const messages = errors.map((e) => e.message).join('; ')
  return new UpstreamError(platform, 'api', `GraphQL errors: ${messages}`, status)
}
