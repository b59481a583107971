// clist.by API v4 statistics: the results of linked handles in an ended contest of a platform
// without a results module of its own, in few requests of the shared clist budget (the contest,
// the handles' accounts, their statistics; full pages followed through meta.next), the contest
// told apart from others starting with it or refused, and a handle's rating history there.
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
/**
 * Pages of one list followed at most (each a request of the budget). A batch's accounts and
 * statistics fit in one page (at most one row per handle, 100 handles); more pages than this is
 * an answer the reader does not take in part.
 */
export const CLIST_LIST_PAGES = 5
/** How far clist's start of a contest may be from the catalogue's and still be the same one. */
export const START_SLACK_MS = 3_600_000
/**
 * The least likeness of names (shared words over all words, Dice) for a contest told apart from
 * others of its resource starting within the slack by its name.
 */
export const MIN_NAME_LIKENESS = 0.5

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
  // The next page, a path with the query it was asked with and the next offset
  // ("/api/v4/statistics/?contest_id=1&limit=1000&offset=1000"): clist's paginator sets it on
  // every page that has items, so only a full page says another may follow; null on an empty one.
  next: z.string().min(1).nullable(),
})
type Meta = z.infer<typeof metaSchema>
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

const malformed = (message: string) => new UpstreamError('clist', 'malformed', message)

/**
 * GET {CLIST_API_URL}{path}?{search}: one page, one request of the shared budget (refused:
 * ClistBudgetSpent, nothing asked), read by `item`. An answer that is not the documented list
 * throws malformed.
 */
async function askPage<S extends z.ZodType>(
  access: ClistAccess,
  what: string,
  path: string,
  search: string,
  item: S,
): Promise<{ meta: Meta; objects: z.output<S>[] }> {
  if (access.takeRequest) {
    const take = await access.takeRequest()
    if (!take.allowed) throw new ClistBudgetSpent(take.retryAt)
  }
  const answer = await fetchJson('clist', access, `${path}?${search}`, {
    headers: { Authorization: `ApiKey ${access.apiKey}` },
  })
  const parsed = listSchema(item).safeParse(answer)
  if (!parsed.success) throw malformed(`${what}: ${describeIssues(parsed.error)}`)
  return { meta: parsed.data.meta, objects: parsed.data.objects as z.output<S>[] }
}

/** One page of a list, not followed (a probe that asks for one row). */
async function ask<S extends z.ZodType>(
  access: ClistAccess,
  what: string,
  path: string,
  query: Record<string, string>,
  item: S,
) {
  return (await askPage(access, what, path, String(new URLSearchParams(query)), item)).objects
}

/**
 * The query of the page `meta.next` names, asked under CLIST_API_URL's `path` whatever host or
 * prefix it is written with ("/api/v4/statistics/?..."), so a page is never asked elsewhere. A
 * next page that is not of this list, or does not move on, is malformed.
 */
function nextSearch(what: string, path: string, meta: Meta, baseUrl: string): string {
  let url: URL | undefined
  try {
    url = new URL(meta.next!, baseUrl)
  } catch {
    url = undefined
  }
  const offset = Number(url?.searchParams.get('offset') ?? Number.NaN)
  if (!url || !url.pathname.endsWith(path) || !Number.isInteger(offset) || offset <= meta.offset) {
    throw malformed(`${what}: meta.next ${JSON.stringify(meta.next)} is not the next page`)
  }
  return String(url.searchParams)
}

/**
 * Every row of a list: its pages followed through `meta.next` while a page is full (a short page
 * is the last; clist sets `next` on every page that has items), each page a request of the
 * budget, CLIST_LIST_PAGES at most. A list longer than that throws rather than answer in part: a
 * row on a page not read would read as a handle that took no part.
 */
async function askAll<S extends z.ZodType>(
  access: ClistAccess,
  what: string,
  path: string,
  query: Record<string, string>,
  item: S,
): Promise<z.output<S>[]> {
  const rows: z.output<S>[] = []
  let search = String(new URLSearchParams(query))
  for (let page = 1; ; page++) {
    const { meta, objects } = await askPage(access, what, path, search, item)
    rows.push(...objects)
    if (objects.length < meta.limit || meta.next === null) return rows
    if (page === CLIST_LIST_PAGES) {
      throw new UpstreamError(
        'clist',
        'api',
        `${what}: more than ${CLIST_LIST_PAGES} pages of ${meta.limit} rows; not read in part`,
      )
    }
    search = nextSearch(what, path, meta, access.baseUrl)
  }
}

/** Runs `batches` one after another (each is a request of the budget), joined. */
async function inBatches<T, R>(items: readonly T[], run: (batch: T[]) => Promise<R[]>) {
  const out: R[] = []
  for (let i = 0; i < items.length; i += CLIST_BATCH) {
    out.push(...(await run(items.slice(i, i + CLIST_BATCH))))
  }
  return out
}

/** The words of an event's name, lower-cased, for telling contests apart by name. */
function words(name: string): string[] {
  return [
    ...new Set(
      name
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ]
}

/** How alike two names are: twice the shared words over all words (Dice), 0 to 1. */
function likeness(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 0
  const shared = a.filter((w) => b.includes(w)).length
  return (2 * shared) / (a.length + b.length)
}

/**
 * Which of clist's contests of the resource starting within START_SLACK_MS of the catalogue's
 * start is the catalogue's contest (`listed` from a /contest/ lookup by resource and start):
 *
 * - only entries of the platform's resource that its clist mapping takes for a contest count;
 * - the one the mapping gives the catalogue's platformId is it;
 * - else a single one is it;
 * - else the one whose event is most like the catalogue's name, holding every number of it (a
 *   round's number, a division), at least MIN_NAME_LIKENESS alike and more alike than any other
 *   (the closest start when equally alike);
 * - else none is: a refusal naming them (an `api` failure), never another contest's results.
 *
 * Undefined when none starts within the slack (clist does not list it yet).
 */
function matchClistContest(
  module: PlatformModule,
  contest: EndedContest,
  listed: readonly ClistContestRow[],
): ClistContestRow | undefined {
  const mapping = module.clist!
  const candidates = listed.flatMap((entry) => {
    const distance = Math.abs(entry.start - contest.startTime)
    if (entry.resource !== mapping.resource || distance > START_SLACK_MS) return []
    const mapped = mapping.contest({
      id: entry.id,
      event: entry.event,
      href: entry.href,
      startTime: entry.start,
      endTime: entry.end,
    })
    return mapped ? [{ entry, platformId: mapped.platformId, distance }] : []
  })
  const same = candidates.find((c) => c.platformId === contest.platformId)
  if (same) return same.entry
  if (candidates.length <= 1) return candidates[0]?.entry
  const name = words(contest.name ?? '')
  const numbers = name.filter((w) => /^\p{N}+$/u.test(w))
  const ranked = candidates
    .map((c) => ({ ...c, words: words(c.entry.event) }))
    .filter((c) => numbers.every((n) => c.words.includes(n)))
    .map((c) => ({ ...c, likeness: likeness(name, c.words) }))
    .filter((c) => c.likeness >= MIN_NAME_LIKENESS)
    .sort((a, b) => b.likeness - a.likeness || a.distance - b.distance)
  const [best, next] = ranked
  if (best && (!next || best.likeness > next.likeness || best.distance < next.distance)) {
    return best.entry
  }
  const events = candidates.map((c) => `${c.entry.event.trim()} (clist ${c.entry.id})`)
  throw new UpstreamError(
    'clist',
    'api',
    `${candidates.length} ${mapping.resource} contests start within an hour of ` +
      `${new Date(contest.startTime).toISOString()}: ${events.slice(0, 5).join('; ')}; none is ` +
      `clearly ${JSON.stringify(contest.name ?? contest.platformId)}, so no results are read`,
  )
}

/**
 * The contest as clist lists it: by clist's id when the catalogue has it (and clist lists it under
 * the platform's resource), else among the resource's contests starting within the slack
 * (matchClistContest).
 */
async function findContest(
  access: ClistAccess,
  module: PlatformModule,
  contest: EndedContest,
  clistId?: number,
): Promise<ClistContestRow | undefined> {
  const mapping = module.clist!
  if (clistId !== undefined) {
    const byId = await askAll(
      access,
      'contest',
      '/contest/',
      { id: String(clistId) },
      contestSchema,
    )
    const found = byId.find((e) => e.id === clistId && e.resource === mapping.resource)
    if (found) return found
  }
  const query = {
    resource: mapping.resource,
    start__gte: naiveUtc(contest.startTime - START_SLACK_MS),
    start__lt: naiveUtc(contest.startTime + START_SLACK_MS),
    order_by: 'start',
    limit: String(PAGE_LIMIT),
  }
  const listed = await askAll(access, 'contest', '/contest/', query, contestSchema)
  return matchClistContest(module, contest, listed)
}

/**
 * clist's accounts of `handles` on the resource, by lower-cased handle. `handle__in` is an exact
 * match (a Django `in` lookup), so handles are asked as the judge spells them (as a proof records
 * them). A handle with a comma cannot be asked (clist splits the value on commas) and is left out.
 */
async function findAccounts(access: ClistAccess, resource: string, handles: readonly string[]) {
  const askable = [...new Set(handles.filter((h) => h && !h.includes(',')))]
  const accounts = await inBatches(askable, (batch) =>
    askAll(
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
 * 1. GET /contest/ (by id when the catalogue has clist's, else by resource and a start within an
 *    hour of the catalogue's: matchClistContest, which refuses when several could be it). Unknown
 *    to clist, or no standings parsed yet (`n_statistics` null or 0): 'pending'.
 * 2. GET /account/?resource=&handle__in= (per 100 handles): clist's account ids of the handles.
 * 3. GET /statistics/?contest_id=&account_id__in= (per 100 accounts): their rows (place, old and
 *    new rating). None of them linked to a rating: one more, GET /statistics/?contest_id=
 *    &new_rating__isnull=false&limit=1, tells a rated contest from an unrated one.
 *
 * The pipeline names at most CLIST_BATCH handles an ask (its walk over the linked handles), so an
 * ask is 3 or 4 requests. Lists are read whole: a full page is followed through `meta.next`
 * (clist holds one row per account and contest, so 100 accounts never fill a page of 1000; a
 * clist answering smaller pages costs a request a page). `participants` is clist's
 * `n_statistics`. Rows only for the handles that took part; a handle clist does not know took no
 * part as far as clist says. Every request takes one of the shared budget first
 * (ClistBudgetSpent when refused); clist's own 429 is a status error with its Retry-After;
 * anything not the documented answer is malformed.
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
    askAll(
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
  // One row an account: pages of a list clist orders by nothing stable may repeat one.
  const byStatistic = new Map(
    statistics
      .filter((s) => s.contest_id === found.id && byAccount.has(s.account_id))
      .map((s) => [s.account_id, s]),
  )
  const rows = [...byStatistic.values()].map((s) =>
    rowOf(spelling.get(s.handle.toLowerCase()) ?? s.handle, s),
  )
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
 * the budget, and one more a further page of 1000). [] for a handle clist does not know.
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
  const statistics = await askAll(
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
