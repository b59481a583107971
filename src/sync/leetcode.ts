// LeetCode adapter: the GraphQL contest lists (upcoming and recent past) turned into contests.
import { z } from 'zod'
import type { ContestInput } from '../contests/contest-input.ts'
import {
  ResultCollector,
  type AdapterResult,
  type FetchFn,
  type FetchOptions,
  type ParseOptions,
} from './adapter.ts'
import { LEETCODE_DIFFICULTY } from './difficulty.ts'
import {
  fetchText,
  joinUrl,
  parseJson,
  statusError,
  tryParseJson,
  UpstreamError,
} from './upstream.ts'

const SITE = 'https://leetcode.com'

// Past contests go back about 90 days at 20 a page (1.5 rounds a week), the retention window.
export const LEETCODE_CONTESTS_QUERY = `query contestCatalogue {
  upcomingContests { title titleSlug startTime duration }
  pastContests(pageNo: 1, numPerPage: 20) { data { title titleSlug startTime duration } }
}`

const errorsSchema = z.object({
  errors: z.array(z.object({ message: z.string() })).min(1),
})

// upcomingContests is required: an answer without it must not pass for "nothing upcoming".
const dataSchema = z.object({
  data: z.object({
    upcomingContests: z.array(z.unknown()),
    pastContests: z.object({ data: z.array(z.unknown()) }).nullish(),
  }),
})

const contestSchema = z.object({
  title: z.string().trim().min(1),
  titleSlug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  startTime: z.number().int().positive(),
  duration: z.number().int().positive(),
})

type LeetcodeType = 'WEEKLY' | 'BIWEEKLY'

/** Weekly or biweekly from the title (or the slug); special events fit neither. */
export function leetcodeType(title: string, slug = ''): LeetcodeType | undefined {
  if (/\bbiweekly\s+contest\b/i.test(title) || /^biweekly-contest-/.test(slug)) return 'BIWEEKLY'
  if (/\bweekly\s+contest\b/i.test(title) || /^weekly-contest-/.test(slug)) return 'WEEKLY'
  return undefined
}

/** Turns a GraphQL answer into contests; an `errors` array or a missing list throws. */
export function parseLeetcodeContests(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult {
  const errors = errorsSchema.safeParse(payload)
  if (errors.success) throw graphqlError(errors.data.errors)
  const body = dataSchema.safeParse(payload)
  if (!body.success) {
    throw new UpstreamError('leetcode', 'malformed', 'GraphQL answer has no data.upcomingContests')
  }

  const out = new ResultCollector(now, options)
  const items = [...body.data.data.upcomingContests, ...(body.data.data.pastContests?.data ?? [])]
  items.forEach((item, index) => {
    const ref = `leetcode contest ${slugOf(item) ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const type = leetcodeType(parsed.data.title, parsed.data.titleSlug)
    if (!type) return out.markUnsupported()
    out.keep(toContest(parsed.data, type))
  })
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>, type: LeetcodeType): ContestInput {
  const startTime = contest.startTime * 1000
  // Registration is a button on the contest page itself.
  const page = `${SITE}/contest/${contest.titleSlug}/`
  return {
    platform: 'leetcode',
    platformId: contest.titleSlug,
    name: contest.title,
    type,
    startTime,
    endTime: startTime + contest.duration * 1000,
    websiteUrl: page,
    registrationUrl: page,
    difficulty: LEETCODE_DIFFICULTY[type],
    platformMetadata: { titleSlug: contest.titleSlug },
  }
}

/** POST {LEETCODE_API_URL}/graphql */
export async function fetchLeetcode(
  baseUrl: string,
  fetchFn: FetchFn,
  now: number,
  options: FetchOptions = {},
): Promise<AdapterResult> {
  const res = await fetchText(
    'leetcode',
    joinUrl(baseUrl, '/graphql'),
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        // LeetCode's CSRF check turns away GraphQL posts that do not come from its own pages.
        Referer: `${SITE}/contest/`,
      },
      body: JSON.stringify({
        operationName: 'contestCatalogue',
        query: LEETCODE_CONTESTS_QUERY,
        variables: {},
      }),
    },
    fetchFn,
    options.timeoutMs,
  )
  if (!res.ok) {
    // A query the schema rejects comes back as 400 with the reasons in `errors`.
    const errors = errorsSchema.safeParse(tryParseJson(res.text))
    if (errors.success) throw graphqlError(errors.data.errors, res.status)
    throw statusError('leetcode', res)
  }
  return parseLeetcodeContests(parseJson('leetcode', res.text), now, options)
}

function graphqlError(errors: { message: string }[], status?: number) {
  const messages = errors.map((e) => e.message).join('; ')
  return new UpstreamError('leetcode', 'api', `GraphQL errors: ${messages}`, status)
}

function slugOf(item: unknown): string | undefined {
  const slug = (item as { titleSlug?: unknown } | null)?.titleSlug
  return typeof slug === 'string' ? slug : undefined
}
