// LeetCode's public results, for leetcode.com and (through leetcodeSiteResults) leetcode.cn: the
// proof (a public profile's About me or name), a handle's line in a contest from its contest
// history (userContestRankingHistory: no whole-contest list is public, so results are read per
// linked handle), that history for the chart, and the contest badges.
import { z } from 'zod'
import type { FixtureRoute } from '../fixture-route.ts'
import type {
  EndedContest,
  PublicProfile,
  RatingPoint,
  RatingRank,
  ResultRow,
  ResultsModule,
  ResultsRequest,
} from '../results.ts'
import { describeIssues } from '../source.ts'
import { fetchJson, tryParseJson, UpstreamError, type UpstreamResponse } from '../upstream.ts'
import { graphqlFixture } from './graphql.ts'

type Site = 'leetcode' | 'leetcode-cn'

/**
 * LeetCode publishes no rate limit. clist.by's module reads profiles and contest histories one
 * handle at a time, at most one call per two seconds (ranking/management/modules/leetcode.py,
 * `RateLimiter(max_calls=1, period=2)` in get_users_infos), and answers `Too many requests` in a
 * GraphQL error are what LeetCode sends to clients that ask faster. One request per linked handle
 * per check (its history holds every contest), two seconds apart.
 */
export const LEETCODE_MIN_INTERVAL_MS = 2_000

/**
 * The rating of an account before its first rated contest: "注册新用户的基础分值为 1500 分"
 * (doocs/leetcode solution/contest_readme_template.md), and the rating of the history's entries
 * that precede one (alfaarghya/alfa-leetcode-api src/__tests__/msw/mockData/singleUserContests.json).
 */
export const LEETCODE_BASE_RATING = 1500

// Usernames and user slugs: letters, digits, '_', '-' and '.'. They are sent as GraphQL variables,
// so nothing else could be injected; anything else is simply asked of nobody.
const HANDLE = /^[A-Za-z0-9_.-]{1,40}$/

// --- the badges --------------------------------------------------------------------------------

/**
 * LeetCode's contest badges are shares, not ratings: among the users rated 1600 or more, the top
 * 5% wear Guardian and the next 20% Knight, recomputed after every week's contests (doocs/leetcode
 * solution/CONTEST_README_EN.md and contest_readme_template.md, which also record the cut-offs of
 * one such week: 2228.90 and 1842.73 on leetcode.com, 2251.88 and 1879.80 on leetcode.cn, each
 * site ranking its own users). From a rating alone the badge is therefore only approximate: the
 * cut-offs below are those recorded ones, fixed so that one rating always reads the same badge;
 * a handle near a cut-off may wear another badge on LeetCode this week. The colours are ours (not
 * confirmed as LeetCode's own): LeetCode shows badges as images, not coloured names.
 */
export const LEETCODE_BADGES: Record<Site, readonly (RatingRank & { from: number })[]> = {
  leetcode: [
    { from: 2228.9, title: 'Guardian', colour: '#d4a017' },
    { from: 1842.73, title: 'Knight', colour: '#2e7d32' },
    { from: Number.NEGATIVE_INFINITY, title: 'No badge', colour: '#808080' },
  ],
  'leetcode-cn': [
    { from: 2251.88, title: 'Guardian', colour: '#d4a017' },
    { from: 1879.8, title: 'Knight', colour: '#2e7d32' },
    { from: Number.NEGATIVE_INFINITY, title: 'No badge', colour: '#808080' },
  ],
}

export function leetcodeBadge(platform: Site, rating: number): RatingRank {
  const { title, colour } = LEETCODE_BADGES[platform].find((b) => rating >= b.from)!
  return { title, colour }
}

// --- GraphQL -----------------------------------------------------------------------------------

const errorsSchema = z.object({ errors: z.array(z.object({ message: z.string() })).min(1) })

// "That user does not exist." (clist's module tests the message for 'user does not exist').
const NO_SUCH_USER = /user does not exist/i

/** The handle is unknown to the site: a GraphQL error said so (read as "no such handle"). */
class NoSuchUser extends UpstreamError {
  constructor(platform: Site, status?: number) {
    super(platform, 'api', 'no such user', status)
  }
}

function graphqlError(platform: Site, errors: { message: string }[], status?: number) {
  const messages = errors.map((e) => e.message).join('; ')
  return new UpstreamError(platform, 'api', `GraphQL errors: ${messages}`, status)
}

/** One GraphQL operation of a site. */
interface Operation {
  path: string
  operationName: string
  query: string
}

/**
 * `data` of the answer to `operation` with `variables`. GraphQL errors throw `api` (or NoSuchUser
 * for an unknown handle), in a 200 answer as in a 400 one; an answer without `data` throws
 * malformed.
 */
async function postGraphql(
  platform: Site,
  origin: string,
  request: ResultsRequest,
  operation: Operation,
  variables: Record<string, string>,
): Promise<unknown> {
  const refused = (errors: { message: string }[], status?: number) =>
    errors.some((e) => NO_SUCH_USER.test(e.message))
      ? new NoSuchUser(platform, status)
      : graphqlError(platform, errors, status)
  const refusal = (res: UpstreamResponse) => {
    const errors = errorsSchema.safeParse(tryParseJson(res.text))
    return errors.success ? refused(errors.data.errors, res.status) : undefined
  }
  const answer = await fetchJson(
    platform,
    request,
    operation.path,
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        // LeetCode's CSRF check turns away GraphQL posts that do not come from its own pages.
        Referer: `${origin}/`,
      },
      body: JSON.stringify({
        operationName: operation.operationName,
        query: operation.query,
        variables,
      }),
    },
    refusal,
  )
  const errors = errorsSchema.safeParse(answer)
  if (errors.success) throw refused(errors.data.errors)
  const data = (answer as { data?: unknown } | null)?.data
  if (data === null || typeof data !== 'object') {
    throw new UpstreamError(platform, 'malformed', `${operation.operationName}: answer has no data`)
  }
  return data
}

// --- the sites ---------------------------------------------------------------------------------

/** What differs between leetcode.com and leetcode.cn. */
export interface SiteConfig {
  platform: Site
  origin: string
  /** The GraphQL variable naming a handle: `username` on .com, `userSlug` on .cn. */
  variable: 'username' | 'userSlug'
  profile: Operation
  /** The profile's handle and text fields in `data`, or null when the site has no such user. */
  readProfile(data: unknown): { handle: string; fields: string[] } | null
  history: Operation
  where: string
  editUrl: string
}

// Only the fields a proof reads: realName is the profile's Name, aboutMe its Summary.
const comProfileSchema = z.object({
  matchedUser: z
    .object({
      username: z.string().min(1),
      profile: z.object({
        realName: z.string().nullish(),
        aboutMe: z.string().nullish(),
      }),
    })
    .nullable(),
})

/** `data` read by `schema`; anything it refuses throws malformed, naming `what`. */
export function readSchema<S extends z.ZodType>(
  platform: Site,
  what: string,
  schema: S,
  data: unknown,
) {
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    throw new UpstreamError(platform, 'malformed', `${what}: ${describeIssues(parsed.error)}`)
  }
  return parsed.data as z.output<S>
}

/** The non-blank ones of a profile's text fields. */
export const textFields = (...fields: (string | null | undefined)[]) =>
  fields.filter((f): f is string => !!f?.trim())

// A history entry; `problemsSolved` only on leetcode.com (leetcode.cn's history is asked for the
// fields clist's module reads there, so that an unknown field cannot fail the whole query).
const historyEntrySchema = z.object({
  attended: z.boolean(),
  rating: z.number().nonnegative(),
  ranking: z.number().int().nonnegative(),
  problemsSolved: z.number().int().nonnegative().optional(),
  contest: z.object({ title: z.string().trim().min(1), startTime: z.number().int().positive() }),
})
type HistoryEntry = z.infer<typeof historyEntrySchema>

const historySchema = z.object({
  userContestRankingHistory: z.array(historyEntrySchema).nullable(),
})

export const LEETCODE_SITE: SiteConfig = {
  platform: 'leetcode',
  origin: 'https://leetcode.com',
  variable: 'username',
  profile: {
    path: '/graphql',
    operationName: 'userPublicProfile',
    query: `query userPublicProfile($username: String!) {
  matchedUser(username: $username) { username profile { realName aboutMe } }
}`,
  },
  readProfile(data) {
    const user = readSchema('leetcode', 'matchedUser', comProfileSchema, data).matchedUser
    if (!user) return null
    return {
      handle: user.username,
      fields: textFields(user.profile.aboutMe, user.profile.realName),
    }
  },
  history: {
    path: '/graphql',
    operationName: 'userContestRankingHistory',
    query: `query userContestRankingHistory($username: String!) {
  userContestRankingHistory(username: $username) {
    attended rating ranking problemsSolved contest { title startTime }
  }
}`,
  },
  where: 'Summary (Edit Profile > Basic Info), or Name',
  editUrl: 'https://leetcode.com/profile/',
}

// --- a handle's history ------------------------------------------------------------------------

/** A contest title as LeetCode slugs it: "Weekly Contest 529" -> "weekly-contest-529". */
export function leetcodeTitleSlug(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/**
 * The handle's contest history, oldest first, or null for a handle the site does not have. It
 * lists every contest since the account's first, attended or not (an unattended one carries the
 * rating on), and a contest only once its ratings are published: days after it ends.
 */
async function readHistory(
  site: SiteConfig,
  request: ResultsRequest,
  handle: string,
): Promise<HistoryEntry[] | null> {
  if (!HANDLE.test(handle)) return null
  let data: unknown
  try {
    data = await postGraphql(site.platform, site.origin, request, site.history, {
      [site.variable]: handle,
    })
  } catch (error) {
    if (error instanceof NoSuchUser) return null
    throw error
  }
  const history = readSchema(site.platform, 'userContestRankingHistory', historySchema, data)
  return [...(history.userContestRankingHistory ?? [])].sort(
    (a, b) => a.contest.startTime - b.contest.startTime,
  )
}

/** The rating before `index`: the previous entry's, or the base rating before the first. */
function ratingBefore(entries: readonly HistoryEntry[], index: number): number {
  return Math.round(index > 0 ? entries[index - 1].rating : LEETCODE_BASE_RATING)
}

/** Whether a history entry is `contest`: the same start, or the same slug from its title. */
function isContest(entry: HistoryEntry, contest: EndedContest): boolean {
  return (
    entry.contest.startTime * 1000 === contest.startTime ||
    leetcodeTitleSlug(entry.contest.title) === contest.platformId
  )
}

/**
 * The handle's line in `contest`: 'pending' while its history does not hold the contest yet
 * (LeetCode publishes ratings days after a round), undefined when the history says the handle did
 * not attend it (or lists a later contest without it, or there is no such handle).
 */
export async function leetcodeHandleResult(
  site: SiteConfig,
  request: ResultsRequest,
  contest: EndedContest,
  handle: string,
): Promise<ResultRow | 'pending' | undefined> {
  const entries = await readHistory(site, request, handle)
  if (!entries) return undefined
  const index = entries.findIndex((e) => isContest(e, contest))
  if (index < 0) {
    const later = entries.some((e) => e.contest.startTime * 1000 > contest.startTime)
    return later ? undefined : 'pending'
  }
  const entry = entries[index]
  if (!entry.attended) return undefined
  return {
    handle,
    ...(entry.ranking > 0 && { rank: entry.ranking }),
    ...(entry.problemsSolved !== undefined && { solved: entry.problemsSolved }),
    oldRating: ratingBefore(entries, index),
    newRating: Math.round(entry.rating),
  }
}

/**
 * The attended contests with the rating after each, oldest first; [] for a handle the site does
 * not have. The history gives no time of the rating change, so a point is at its contest's start.
 */
export async function leetcodeHistory(
  site: SiteConfig,
  request: ResultsRequest,
  handle: string,
): Promise<RatingPoint[]> {
  const entries = (await readHistory(site, request, handle)) ?? []
  return entries.flatMap((entry, index) =>
    entry.attended
      ? [
          {
            contestName: entry.contest.title,
            platformId: leetcodeTitleSlug(entry.contest.title),
            time: entry.contest.startTime * 1000,
            ...(entry.ranking > 0 && { rank: entry.ranking }),
            oldRating: ratingBefore(entries, index),
            newRating: Math.round(entry.rating),
          },
        ]
      : [],
  )
}

// --- the proof ---------------------------------------------------------------------------------

/** The handle's public profile (the site's spelling, the proof fields), or undefined. */
export async function leetcodeProfile(
  site: SiteConfig,
  request: ResultsRequest,
  handle: string,
): Promise<PublicProfile | undefined> {
  if (!HANDLE.test(handle)) return undefined
  let data: unknown
  try {
    data = await postGraphql(site.platform, site.origin, request, site.profile, {
      [site.variable]: handle,
    })
  } catch (error) {
    if (error instanceof NoSuchUser) return undefined
    throw error
  }
  return site.readProfile(data) ?? undefined
}

// --- the module --------------------------------------------------------------------------------

/** A recorded answer of the site to `operation` for `handle`, as the stand-ins serve it. */
export function leetcodeResultsFixture(
  site: SiteConfig,
  operation: 'profile' | 'history',
  handle: string,
  file: string,
): FixtureRoute {
  const { path, operationName } = site[operation]
  return graphqlFixture(
    `fixtures/results/${file}`,
    { operationName, variables: { [site.variable]: handle } },
    path,
  )
}

/** The results module of a LeetCode site, with its recorded answers. */
export function leetcodeSiteResults(
  site: SiteConfig,
  fixtures: readonly FixtureRoute[],
): ResultsModule {
  return {
    proof: {
      where: site.where,
      editUrl: site.editUrl,
      profile: (request, handle) => leetcodeProfile(site, request, handle),
    },
    scope: 'handle',
    minIntervalMs: LEETCODE_MIN_INTERVAL_MS,
    handleResult: (request, contest, handle) =>
      leetcodeHandleResult(site, request, contest, handle),
    history: (request, handle) => leetcodeHistory(site, request, handle),
    rank: (rating) => leetcodeBadge(site.platform, rating),
    fixtures,
  }
}

const fixture = (operation: 'profile' | 'history', handle: string, file: string) =>
  leetcodeResultsFixture(LEETCODE_SITE, operation, handle, file)

export const leetcodeResults = leetcodeSiteResults(LEETCODE_SITE, [
  fixture('profile', 'quiet_fox', 'profile-quiet-fox.json'),
  fixture('profile', 'nobody-here', 'profile-missing.json'),
  fixture('history', 'quiet_fox', 'history-quiet-fox.json'),
  fixture('history', 'nobody-here', 'history-missing.json'),
])
