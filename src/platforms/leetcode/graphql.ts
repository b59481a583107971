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
import { fetchJson, tryParseJson, UpstreamError, type UpstreamResponse } from '../upstream.ts'

export const LEETCODE_TYPES = ['WEEKLY', 'BIWEEKLY'] as const
type LeetcodeType = (typeof LEETCODE_TYPES)[number]
export const LEETCODE_TYPE_NAMES = { WEEKLY: 'Weekly', BIWEEKLY: 'Biweekly' }
type Site = 'leetcode' | 'leetcode-cn'

/** Weekly and biweekly rounds share one format: four problems from easy to hard. */
export const LEETCODE_DIFFICULTY: Record<LeetcodeType, Difficulty> = {
  WEEKLY: 'MEDIUM',
  BIWEEKLY: 'MEDIUM',
}

const CONTEST_FIELDS = '{ title titleSlug startTime duration }'
// Past contests go back about 90 days at 20 a page (1.5 rounds a week), the retention window.
const PAST_CONTESTS = `pastContests(pageNo: 1, numPerPage: 20) { data ${CONTEST_FIELDS} }`

/**
 * The lists of upcoming rounds each site has been seen to answer, asked side by side: the name this
 * source asked before first, then contestV2UpcomingContests, which newer trackers read on both
 * sites. Whichever answers is read; both are merged by slug.
 */
const UPCOMING_FIELDS = {
  leetcode: ['upcomingContests', 'contestV2UpcomingContests'],
  'leetcode-cn': ['contestUpcomingContests', 'contestV2UpcomingContests'],
} as const

type UpcomingField = (typeof UPCOMING_FIELDS)[Site][number]

/**
 * The query of `platform` asking for the upcoming lists in `fields`, and leetcode.com's past ones
 * unless `withPast` is false.
 */
export function contestsQuery(
  platform: Site,
  fields: readonly UpcomingField[],
  withPast = true,
): string {
  const lines = fields.map((f) => `  ${f} ${CONTEST_FIELDS}`)
  if (platform === 'leetcode' && withPast) lines.push(`  ${PAST_CONTESTS}`)
  return `query ${SITES[platform].operationName} {\n${lines.join('\n')}\n}`
}

const SITES = {
  leetcode: { origin: 'https://leetcode.com', operationName: 'contestCatalogue' },
  // leetcode.cn has no public past list.
  'leetcode-cn': { origin: 'https://leetcode.cn', operationName: 'contestUpcomingContests' },
} as const

export const LEETCODE_CONTESTS_QUERY = contestsQuery('leetcode', UPCOMING_FIELDS.leetcode)
export const LEETCODE_CN_CONTESTS_QUERY = contestsQuery(
  'leetcode-cn',
  UPCOMING_FIELDS['leetcode-cn'],
)

// A list that did not answer is absent (not asked, or refused) or null (its resolver failed).
const listSchema = z.array(z.unknown()).nullish()
const dataSchema = z.object({
  data: z.record(z.string(), z.unknown()),
})

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

/**
 * Turns a GraphQL answer into contests, from every upcoming list that answered (an answer may
 * carry `errors` for one field and data for another). Neither list answering throws: the errors
 * as an api error, else malformed.
 */
export function parseContests<P extends Site>(
  platform: P,
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<SourceContest<P, LeetcodeType>> {
  const items = answeredItems(platform, payload)
  const out = new ResultCollector<SourceContest<P, LeetcodeType>>(now, options)
  items.forEach((item, index) => {
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

/**
 * The items of the upcoming lists that answered, each slug once (the first list's copy), then
 * leetcode.com's past ones.
 */
function answeredItems(platform: Site, payload: unknown): unknown[] {
  const data = dataSchema.safeParse(payload).data?.data
  const lists = UPCOMING_FIELDS[platform].flatMap((field) => {
    const list = listSchema.safeParse(data?.[field])
    return list.success && list.data ? [list.data] : []
  })
  if (lists.length === 0) {
    const errors = errorsSchema.safeParse(payload)
    if (errors.success) throw graphqlError(platform, errors.data.errors)
    throw new UpstreamError(platform, 'malformed', 'GraphQL answer lacks the upcoming contests')
  }
  const seen = new Set<string>()
  const upcoming = lists.flat().filter((item) => {
    const slug = stringField(item, 'titleSlug')
    if (slug === undefined) return true
    if (seen.has(slug)) return false
    seen.add(slug)
    return true
  })
  const past = z.object({ data: z.array(z.unknown()) }).safeParse(data?.pastContests)
  return [...upcoming, ...(past.success ? past.data.data : [])]
}

/**
 * The upcoming fields a refusal names as unknown to the schema ("Cannot query field \"x\" on
 * type ..."): a validation error fails the whole query, so the rest is asked again without them.
 */
function refusedFields<F extends string>(error: unknown, asked: readonly F[]): F[] {
  if (!(error instanceof UpstreamError) || error.kind !== 'api') return []
  return asked.filter((field) =>
    new RegExp(`Cannot query field\\W+${field}\\b`).test(error.message),
  )
}

/**
 * POST {base}/graphql asking for every upcoming list at once. When the schema refuses one of them
 * (or leetcode.com's past list) by name, the rest is asked once more without it: at most two
 * requests, and a refusal of every upcoming list (or of anything else) is thrown.
 */
export async function fetchContests<P extends Site>(platform: P, request: SourceRequest) {
  const fields: readonly UpcomingField[] = UPCOMING_FIELDS[platform]
  try {
    return await askContests(platform, request, fields, true)
  } catch (error) {
    const refused = refusedFields(error, fields)
    const pastRefused = refusedFields(error, ['pastContests']).length > 0
    const rest = fields.filter((f) => !refused.includes(f))
    if ((refused.length === 0 && !pastRefused) || rest.length === 0) throw error
    return askContests(platform, request, rest, !pastRefused)
  }
}

async function askContests<P extends Site>(
  platform: P,
  request: SourceRequest,
  fields: readonly UpcomingField[],
  withPast: boolean,
) {
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
        query: contestsQuery(platform, fields, withPast),
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
 * alone tell apart the queries posted to one path. A query asking many fields under aliases (the
 * histories' batches) is answered by the stand-ins field by field from these, each field as the
 * single query named for it (../graphql-aliases.ts).
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
