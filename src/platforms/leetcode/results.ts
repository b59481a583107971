// LeetCode's public results, for leetcode.com and (through leetcodeSiteResults) leetcode.cn: the
// proof (a public profile's About me or name), a handle's line in a contest from its contest
// history (userContestRankingHistory: no whole-contest list is public, so results are read per
// linked handle, ten handles a request under GraphQL aliases), that history for the chart, and
// the contest badges.
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
 * GraphQL error are what LeetCode sends to clients that ask faster. Two seconds between requests,
 * whatever the number of handles one asks (LEETCODE_HISTORY_BATCH).
 */
export const LEETCODE_MIN_INTERVAL_MS = 2_000

/**
 * Contest histories asked in one request, each handle under an alias of its own. Public scrapers
 * batch exactly this query, one with "BATCH_SIZE = 15 # Users per single GraphQL request (15 to
 * avoid complexity limit)" (fixtures/results/README.md); LeetCode publishes no limit, so 10 keeps
 * below the 15 seen: a history is a few dozen entries, and a refused batch fails ten handles, not
 * fifteen.
 */
export const LEETCODE_HISTORY_BATCH = 10

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

// A batched answer: data under each alias, and errors that name the alias of the field that
// failed in `path` (GraphQL spec, "Errors": path's first entry is the response key).
const batchAnswerSchema = z.object({
  data: z.record(z.string(), z.unknown()).nullish(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        path: z.array(z.union([z.string(), z.number()])).nullish(),
      }),
    )
    .optional(),
})

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

/** The JSON answer to `operation` with `variables`; a non-2xx answer throws what `refusal` reads. */
function postOperation(
  platform: Site,
  origin: string,
  request: ResultsRequest,
  operation: Operation,
  variables: Record<string, string>,
  refusal: (res: UpstreamResponse) => UpstreamError | undefined,
): Promise<unknown> {
  return fetchJson(
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
  const answer = await postOperation(platform, origin, request, operation, variables, (res) => {
    const errors = errorsSchema.safeParse(tryParseJson(res.text))
    return errors.success ? refused(errors.data.errors, res.status) : undefined
  })
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
  /**
   * The contest history (userContestRankingHistory): the path it is posted to and the selection
   * asked of each entry, the same whether one handle is asked or a batch (historyOperation).
   */
  history: { path: string; fields: string }
  where: string
  editUrl: string
}

/** The history's field, which is also the name of the one-handle operation. */
const HISTORY_FIELD = 'userContestRankingHistory'
/** The name of the batched operation. */
const HISTORIES_OPERATION = 'contestHistories'

/** The response key of the batch's i-th handle, and the variable it is asked by. */
const aliasOf = (i: number) => `h${i}`
const variableOf = (i: number) => `u${i}`

/**
 * The history query of the site: for one handle (`count` absent, the operation clist and the
 * recorded answers ask), or `count` handles each under an alias of its own, the handles always
 * variables, never in the text:
 * `query contestHistories($u0: String!, ...) { h0: userContestRankingHistory(username: $u0) {...} ... }`.
 */
export function historyOperation(site: SiteConfig, count?: number): Operation {
  const field = (alias: string, variable: string) =>
    `  ${alias}${HISTORY_FIELD}(${site.variable}: $${variable}) {\n    ${site.history.fields}\n  }`
  if (count === undefined) {
    return {
      path: site.history.path,
      operationName: HISTORY_FIELD,
      query: `query ${HISTORY_FIELD}($${site.variable}: String!) {\n${field('', site.variable)}\n}`,
    }
  }
  const indexes = Array.from({ length: count }, (_, i) => i)
  const declared = indexes.map((i) => `$${variableOf(i)}: String!`).join(', ')
  const fields = indexes.map((i) => field(`${aliasOf(i)}: `, variableOf(i)))
  return {
    path: site.history.path,
    operationName: HISTORIES_OPERATION,
    query: `query ${HISTORIES_OPERATION}(${declared}) {\n${fields.join('\n')}\n}`,
  }
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

// One alias of a batch: a history, never null without an error saying why.
const aliasHistorySchema = z.array(historyEntrySchema)

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
    fields: 'attended rating ranking problemsSolved contest { title startTime }',
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
    data = await postGraphql(site.platform, site.origin, request, historyOperation(site), {
      [site.variable]: handle,
    })
  } catch (error) {
    if (error instanceof NoSuchUser) return null
    throw error
  }
  const history = readSchema(site.platform, HISTORY_FIELD, historySchema, data)
  return oldestFirst(history.userContestRankingHistory ?? [])
}

const oldestFirst = (entries: readonly HistoryEntry[]) =>
  [...entries].sort((a, b) => a.contest.startTime - b.contest.startTime)

/**
 * The histories of `handles` (at most LEETCODE_HISTORY_BATCH) in one request, in the order asked:
 * each oldest first, or null for a handle the site does not have (a GraphQL error whose `path`
 * names its alias says the user does not exist) or that is no handle (not asked). Any other error,
 * an error naming no alias of the batch, or an alias whose history is missing, null without an
 * error or not the documented one fails the whole batch: never "did not attend".
 */
async function readHistories(
  site: SiteConfig,
  request: ResultsRequest,
  handles: readonly string[],
): Promise<(HistoryEntry[] | null)[]> {
  if (handles.length > LEETCODE_HISTORY_BATCH) {
    throw new RangeError(`${handles.length} handles asked, ${LEETCODE_HISTORY_BATCH} at most`)
  }
  const histories: (HistoryEntry[] | null)[] = handles.map(() => null)
  // The handles asked, each with its place in `handles`: the i-th is asked as $u<i>, alias h<i>.
  const asked = handles.flatMap((handle, at) => (HANDLE.test(handle) ? [{ handle, at }] : []))
  if (asked.length === 0) return histories
  const operation = historyOperation(site, asked.length)
  const variables = Object.fromEntries(asked.map(({ handle }, i) => [variableOf(i), handle]))
  // A refused request (a query the schema rejects: GraphQL over HTTP's 4xx) answers no alias.
  const answer = await postOperation(
    site.platform,
    site.origin,
    request,
    operation,
    variables,
    (res) => {
      const errors = errorsSchema.safeParse(tryParseJson(res.text))
      return errors.success
        ? graphqlError(site.platform, errors.data.errors, res.status)
        : undefined
    },
  )
  const batch = batchAnswerSchema.safeParse(answer)
  if (!batch.success) {
    throw new UpstreamError(
      site.platform,
      'malformed',
      `${operation.operationName}: not a GraphQL answer`,
    )
  }
  const unknown = new Set<number>()
  const failed: { message: string }[] = []
  for (const error of batch.data.errors ?? []) {
    const key = error.path?.[0]
    const i = asked.findIndex((_, j) => aliasOf(j) === key)
    if (i >= 0 && NO_SUCH_USER.test(error.message)) unknown.add(i)
    else failed.push(error)
  }
  if (failed.length > 0) throw graphqlError(site.platform, failed)
  const data = batch.data.data
  if (!data) {
    throw new UpstreamError(
      site.platform,
      'malformed',
      `${operation.operationName}: answer has no data`,
    )
  }
  asked.forEach(({ at }, i) => {
    if (unknown.has(i)) return
    const what = `${HISTORY_FIELD} (${aliasOf(i)})`
    histories[at] = oldestFirst(
      readSchema(site.platform, what, aliasHistorySchema, data[aliasOf(i)]),
    )
  })
  return histories
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
  return lineOf(await readHistory(site, request, handle), contest, handle)
}

/**
 * The lines of `handles` (at most LEETCODE_HISTORY_BATCH) in `contest`, in the order asked, each
 * as leetcodeHandleResult reads it, from one request of their histories.
 */
export async function leetcodeHandleResults(
  site: SiteConfig,
  request: ResultsRequest,
  contest: EndedContest,
  handles: readonly string[],
): Promise<(ResultRow | 'pending' | undefined)[]> {
  const histories = await readHistories(site, request, handles)
  return histories.map((entries, i) => lineOf(entries, contest, handles[i]))
}

/** The handle's line in `contest` from its history (null: no such handle). */
function lineOf(
  entries: readonly HistoryEntry[] | null,
  contest: EndedContest,
  handle: string,
): ResultRow | 'pending' | undefined {
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

/**
 * A recorded answer of the site to `operation` for `handle`, as the stand-ins serve it: to the
 * one-handle query, and to each alias of a batched one (graphql-aliases.ts answers a batch field by
 * field, each as the one-handle query named for its field).
 */
export function leetcodeResultsFixture(
  site: SiteConfig,
  operation: 'profile' | 'history',
  handle: string,
  file: string,
): FixtureRoute {
  const { path, operationName } = operation === 'profile' ? site.profile : historyOperation(site)
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
    handleBatch: {
      size: LEETCODE_HISTORY_BATCH,
      results: (request, contest, handles) =>
        leetcodeHandleResults(site, request, contest, handles),
    },
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
