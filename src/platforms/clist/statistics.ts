// clist.by API v4 statistics: the results of linked handles in an ended contest of a platform
// without a results module of its own, in few requests of the shared clist budget (the contest,
// the handles' accounts, their statistics), and a handle's rating history there.
import { z } from 'zod'
import type { PlatformModule } from '../define.ts'
import type { ContestResults, EndedContest, RatingPoint, ResultRow } from '../results.ts'
import { describeIssues } from '../source.ts'
import { fetchJson, UpstreamError } from '../upstream.ts'
import { ClistBudgetSpent, naiveUtc, type ClistAccess } from './client.ts'

/** Handles (or account ids) asked for in one request: `handle__in=a,b,...` stays a short URL. */
export const CLIST_BATCH = 100
/** clist.by's most rows in one answer. */
const PAGE_LIMIT = 1000
/** How far clist's start of a contest may be from the catalogue's and still be the same one. */
const START_SLACK_MS = 3_600_000

export interface ClistStatisticsOptions {
  /**
   * clist's id of the contest, when the catalogue has it (a contest synced from clist keeps it in
   * platformMetadata.clistId); without it the contest is looked up by resource and start.
   */
  clistId?: number
  /**
   * Until then (epoch ms) final standings without a single rating read as 'pending': clist
   * parses a contest's standings before its judge publishes ratings, and a rated contest should
   * alert on its ratings. Unset: standings without ratings are published as an unrated contest.
   */
  awaitRatingsUntil?: number
}

const clistTime = z
  .string()
  .transform((text) => Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`))
  .refine((t) => Number.isFinite(t), 'not a clist time')

const metaSchema = z.object({
  limit: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
})
const listSchema = <T extends z.ZodType>(item: T) =>
  z.object({ meta: metaSchema, objects: z.array(item) })

const contestSchema = z.object({
  id: z.number().int().positive(),
  resource: z.string().min(1),
  event: z.string(),
  href: z.string(),
  start: clistTime,
  end: clistTime,
  // Rows clist holds for the contest: null or 0 until it has parsed the standings.
  n_statistics: z.number().int().nonnegative().nullable(),
})
type ClistContestRow = z.infer<typeof contestSchema>

const accountSchema = z.object({
  id: z.number().int().positive(),
  resource: z.string().min(1),
  handle: z.string().min(1),
})

const statisticSchema = z.object({
  account_id: z.number().int().positive(),
  contest_id: z.number().int().positive(),
  handle: z.string().min(1),
  event: z.string(),
  date: clistTime,
  place: z.number().int().positive().nullable(),
  score: z.number().nullable(),
  new_rating: z.number().int().nullable(),
  old_rating: z.number().int().nullable(),
  rating_change: z.number().int().nullable(),
})
type Statistic = z.infer<typeof statisticSchema>

/**
 * GET {CLIST_API_URL}{path}: one request of the shared budget (refused: ClistBudgetSpent, nothing
 * asked), read by `schema`. An answer that is not the documented list throws malformed.
 */
async function ask<S extends z.ZodType>(
  access: ClistAccess,
  what: string,
  path: string,
  query: Record<string, string>,
  item: S,
) {
  if (access.takeRequest) {
    const take = await access.takeRequest()
    if (!take.allowed) throw new ClistBudgetSpent(take.retryAt)
  }
  const answer = await fetchJson('clist', access, `${path}?${new URLSearchParams(query)}`, {
    headers: { Authorization: `ApiKey ${access.apiKey}` },
  })
  const parsed = listSchema(item).safeParse(answer)
  if (!parsed.success) {
    throw new UpstreamError('clist', 'malformed', `${what}: ${describeIssues(parsed.error)}`)
  }
  return parsed.data.objects as z.output<S>[]
}

/** Runs `batches` one after another (each is a request of the budget), joined. */
async function inBatches<T, R>(items: readonly T[], run: (batch: T[]) => Promise<R[]>) {
  const out: R[] = []
  for (let i = 0; i < items.length; i += CLIST_BATCH) {
    out.push(...(await run(items.slice(i, i + CLIST_BATCH))))
  }
  return out
}

/** The contest as clist lists it: by its id, or among the resource's contests of that start. */
async function findContest(
  access: ClistAccess,
  module: PlatformModule,
  contest: EndedContest,
  clistId?: number,
): Promise<ClistContestRow | undefined> {
  const mapping = module.clist!
  const query: Record<string, string> =
    clistId !== undefined
      ? { id: String(clistId) }
      : {
          resource: mapping.resource,
          start__gte: naiveUtc(contest.startTime - START_SLACK_MS),
          start__lt: naiveUtc(contest.startTime + START_SLACK_MS),
          order_by: 'start',
          limit: String(PAGE_LIMIT),
        }
  const entries = await ask(access, 'contest', '/contest/', query, contestSchema)
  return entries.find(
    (e) =>
      e.resource === mapping.resource &&
      mapping.contest({
        id: e.id,
        event: e.event,
        href: e.href,
        startTime: e.start,
        endTime: e.end,
      })?.platformId === contest.platformId,
  )
}

/**
 * clist's accounts of `handles` on the resource, by lower-cased handle. `handle__in` is an exact
 * match (a Django `in` lookup), so handles are asked as the judge spells them (as a proof records
 * them). A handle with a comma cannot be asked (clist splits the value on commas) and is left out.
 */
async function findAccounts(access: ClistAccess, resource: string, handles: readonly string[]) {
  const askable = [...new Set(handles.filter((h) => h && !h.includes(',')))]
  const accounts = await inBatches(askable, (batch) =>
    ask(
      access,
      'account',
      '/account/',
      { resource, handle__in: batch.join(','), limit: String(PAGE_LIMIT) },
      accountSchema,
    ),
  )
  return new Map(
    accounts.filter((a) => a.resource === resource).map((a) => [a.handle.toLowerCase(), a]),
  )
}

function rowOf(handle: string, s: Statistic): ResultRow {
  const oldRating =
    s.old_rating ??
    (s.new_rating !== null && s.rating_change !== null ? s.new_rating - s.rating_change : null)
  return {
    handle,
    ...(s.place !== null && { rank: s.place }),
    ...(oldRating !== null && { oldRating }),
    ...(s.new_rating !== null && { newRating: s.new_rating }),
  }
}

/**
 * The results of `handles` (as the service spells them) in an ended `contest` of `module` (a
 * platform with a clist mapping and no results module), from clist.by v4:
 *
 * 1. GET /contest/ (by id, or by resource and a start within an hour of the catalogue's, matched
 *    through the platform's clist mapping). Unknown to clist, or no standings parsed yet
 *    (`n_statistics` null or 0): 'pending'.
 * 2. GET /account/?resource=&handle__in= (per 100 handles): clist's account ids of the handles.
 * 3. GET /statistics/?contest_id=&account_id__in= (per 100 accounts): their rows (place, old and
 *    new rating). None of them linked to a rating: one more, GET /statistics/?contest_id=
 *    &new_rating__isnull=false&limit=1, tells a rated contest from an unrated one.
 *
 * `participants` is clist's `n_statistics`. Rows only for the handles that took part; a handle
 * clist does not know took no part as far as clist says. Every request takes one of the shared
 * budget first (ClistBudgetSpent when refused); clist's own 429 is a status error with its
 * Retry-After; anything not the documented answer is malformed.
 */
export async function clistContestResults(
  access: ClistAccess,
  module: PlatformModule,
  contest: EndedContest,
  handles: readonly string[],
  options: ClistStatisticsOptions = {},
): Promise<ContestResults> {
  if (!module.clist) throw new Error(`${module.id} has no clist mapping`)
  const found = await findContest(access, module, contest, options.clistId)
  if (!found || !found.n_statistics) return { state: 'pending' }
  const accounts = await findAccounts(access, module.clist.resource, handles)
  const byAccount = new Map([...accounts.values()].map((a) => [a.id, a]))
  const statistics = await inBatches([...byAccount.keys()], (batch) =>
    ask(
      access,
      'statistics',
      '/statistics/',
      {
        contest_id: String(found.id),
        account_id__in: batch.join(','),
        limit: String(PAGE_LIMIT),
      },
      statisticSchema,
    ),
  )
  const spelling = new Map(handles.map((h) => [h.toLowerCase(), h]))
  const rows = statistics
    .filter((s) => s.contest_id === found.id && byAccount.has(s.account_id))
    .map((s) => rowOf(spelling.get(s.handle.toLowerCase()) ?? s.handle, s))
  let rated = statistics.some((s) => s.new_rating !== null)
  if (!rated) {
    const anyRated = await ask(
      access,
      'statistics',
      '/statistics/',
      { contest_id: String(found.id), new_rating__isnull: 'false', limit: '1' },
      statisticSchema,
    )
    rated = anyRated.length > 0
  }
  if (!rated && options.awaitRatingsUntil !== undefined && access.now < options.awaitRatingsUntil) {
    return { state: 'pending' }
  }
  return { state: 'published', rated, participants: found.n_statistics, rows }
}

/**
 * A handle's rated contests on `module`'s resource from clist, oldest first: GET /account/ for its
 * id, then GET /statistics/?account_id=&new_rating__isnull=false&order_by=date (two requests of
 * the budget, one page of 1000). [] for a handle clist does not know.
 */
export async function clistHandleHistory(
  access: ClistAccess,
  module: PlatformModule,
  handle: string,
): Promise<RatingPoint[]> {
  if (!module.clist) throw new Error(`${module.id} has no clist mapping`)
  const account = (await findAccounts(access, module.clist.resource, [handle])).get(
    handle.toLowerCase(),
  )
  if (!account) return []
  const statistics = await ask(
    access,
    'statistics',
    '/statistics/',
    {
      account_id: String(account.id),
      new_rating__isnull: 'false',
      order_by: 'date',
      limit: String(PAGE_LIMIT),
    },
    statisticSchema,
  )
  return statistics
    .filter((s) => s.account_id === account.id && s.new_rating !== null)
    .map((s) => {
      const row = rowOf(handle, s)
      return {
        contestName: s.event,
        time: s.date,
        ...(row.rank !== undefined && { rank: row.rank }),
        oldRating: row.oldRating ?? row.newRating!,
        newRating: row.newRating!,
      }
    })
    .sort((a, b) => a.time - b.time)
}
