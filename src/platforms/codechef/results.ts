// CodeChef's public results, read from a handle's profile page (/users/{handle}): the proof (the
// name the page shows), the rating history the page carries as JSON in a script (`all_rating`),
// a handle's line in an ended round from that history, and CodeChef's stars.
import { z } from 'zod'
import type { FixtureRoute } from '../fixture-route.ts'
import { shiftNaive } from '../fixture-time.ts'
import { attribute, findElements, parseHtml, textOf, type HtmlDocument } from '../html.ts'
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
import { fetchOk, UpstreamError } from '../upstream.ts'
import { codechefRoundCode } from './round-code.ts'

/**
 * CodeChef publishes no rate for its pages, which sit behind Cloudflare's bot checks. clist.by's
 * module asks at most once a second, through proxies, and waits a minute after a 429
 * (ranking/management/modules/codechef.py: `RateLimiter(max_calls=1, period=1)`, `E429_DELAY`);
 * without proxies, twice that interval.
 */
export const CODECHEF_MIN_INTERVAL_MS = 2_000

// CodeChef usernames: latin letters, digits, '_' and '.'. Anything else is asked of nobody.
const HANDLE = /^[A-Za-z0-9_.]{1,40}$/

// --- the stars ---------------------------------------------------------------------------------

/**
 * CodeChef's stars: 1★ below 1400, then one more every 200 points to 5★ (2000-2199), 6★ from
 * 2200 and 7★ from 2500. The colours are those the profile pages write: #666666 for 1★ is in a
 * recorded `all_rating` row (its `color`); the others are the ones trackers agree on (several
 * public profile scrapers map 2★ to 7★ to these values), not confirmed against CodeChef's sheet.
 */
export const CODECHEF_STARS: readonly (RatingRank & { from: number })[] = [
  { from: 2500, title: '7★', colour: '#d0011b' },
  { from: 2200, title: '6★', colour: '#ff7f00' },
  { from: 2000, title: '5★', colour: '#ffbf00' },
  { from: 1800, title: '4★', colour: '#684273' },
  { from: 1600, title: '3★', colour: '#3366cc' },
  { from: 1400, title: '2★', colour: '#1e7d22' },
  { from: Number.NEGATIVE_INFINITY, title: '1★', colour: '#666666' },
]

export function codechefStars(rating: number): RatingRank {
  const { title, colour } = CODECHEF_STARS.find((s) => rating >= s.from)!
  return { title, colour }
}

/**
 * The rating a first rated contest starts from: 1000 since Starters 25 (9 February 2022), 1500
 * before ("Entry rating for new users is no more 1500", discuss.codechef.com/t/98939).
 */
export function codechefEntryRating(endTime: number): number {
  return endTime >= Date.UTC(2022, 1, 9) ? 1000 : 1500
}

// --- round codes -------------------------------------------------------------------------------

/** The round a history's code belongs to, in upper case (START79D -> START79). */
export const codechefRound = (code: string): string => codechefRoundCode(code.toUpperCase())

// --- the profile page --------------------------------------------------------------------------

// One rated participation, as `all_rating` writes it: numbers as strings ("1229"), end_date in
// India's time without an offset ("2023-03-01 23:00:06"). Also carries getyear, getmonth, getday,
// reason and penalised_in (a plagiarism penalty) and the rating's colour.
const ratingEntrySchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]+$/),
  name: z.string().trim().min(1),
  rating: z.coerce.number().int().nonnegative(),
  rank: z.coerce.number().int().nonnegative(),
  end_date: z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, 'not an India time'),
})

export interface CodechefRating {
  code: string
  name: string
  rating: number
  rank: number
  /** epoch ms: end_date read in India's time (UTC+05:30, no daylight saving). */
  endTime: number
}

const IST_OFFSET_MS = 5.5 * 3_600_000

export interface CodechefProfilePage {
  handle: string
  /** The name the page shows under the avatar, the proof's field. */
  name?: string
  /** Rated participations, oldest first. */
  ratings: CodechefRating[]
}

const hasClass = (name: string) => (e: Parameters<typeof attribute>[0]) =>
  (attribute(e, 'class') ?? '').split(/\s+/).includes(name)

/**
 * The rating history in a profile page: `var all_rating = [...]` in a script (StopStalk and
 * newer trackers read it), or the older Drupal settings object's `date_versus_rating.all` (clist's
 * module reads that one). Neither present, or not the documented rows: malformed, never "no
 * contests".
 */
function readRatings(html: string): CodechefRating[] {
  let rows: unknown
  const list = /var\s+all_rating\s*=\s*(\[[\s\S]*?\])\s*;/.exec(html)?.[1]
  const drupal = /jQuery\.extend\(Drupal\.settings,\s*([^;]*)\);\s*$/m.exec(html)?.[1]
  try {
    if (list !== undefined) rows = JSON.parse(list)
    else if (drupal !== undefined) {
      rows = (JSON.parse(drupal) as { date_versus_rating?: { all?: unknown } }).date_versus_rating
        ?.all
    }
  } catch {
    throw new UpstreamError('codechef', 'malformed', 'profile page: rating history is not JSON')
  }
  if (rows === undefined) {
    throw new UpstreamError('codechef', 'malformed', 'profile page has no rating history')
  }
  const parsed = z.array(ratingEntrySchema).safeParse(rows)
  if (!parsed.success) {
    const problem = describeIssues(parsed.error)
    throw new UpstreamError('codechef', 'malformed', `profile page: all_rating: ${problem}`)
  }
  return parsed.data
    .map((r) => ({
      code: r.code,
      name: r.name,
      rating: r.rating,
      rank: r.rank,
      endTime: Date.parse(`${r.end_date.replace(' ', 'T')}Z`) - IST_OFFSET_MS,
    }))
    .sort((a, b) => a.endTime - b.endTime)
}

/**
 * A profile page as read: the username (`span.m-username--link`), the name (`h1.h2-style` of the
 * details header, where clist's module reads it) and the rating history. A page without the
 * username is not a profile (Cloudflare's "Just a moment..." challenge, a changed page): malformed.
 */
export function readCodechefProfile(html: string): CodechefProfilePage {
  const page: HtmlDocument = parseHtml(html)
  const username = findElements(page, hasClass('m-username--link'))[0]
  const handle = username && textOf(username)
  if (!handle) throw new UpstreamError('codechef', 'malformed', 'profile page has no username')
  const heading = findElements(page, (e) => e.name === 'h1' && hasClass('h2-style')(e))[0]
  const name = heading && textOf(heading)
  return { handle, ...(name && { name }), ratings: readRatings(html) }
}

/**
 * GET {CODECHEF_API_URL}/users/{handle}, or undefined when CodeChef has no such user: it answers
 * 404, or redirects (to its home page, or a team's page), which is not followed.
 */
export async function fetchCodechefProfile(
  request: ResultsRequest,
  handle: string,
): Promise<CodechefProfilePage | undefined> {
  if (!HANDLE.test(handle)) return undefined
  let html: string
  try {
    html = await fetchOk('codechef', request, `/users/${handle}`, {
      headers: { Accept: 'text/html' },
      redirect: 'manual',
    })
  } catch (error) {
    const status = error instanceof UpstreamError ? (error.status ?? 0) : 0
    if (status === 404 || (status >= 300 && status < 400)) return undefined
    throw error
  }
  return readCodechefProfile(html)
}

export async function codechefProfile(
  request: ResultsRequest,
  handle: string,
): Promise<PublicProfile | undefined> {
  const page = await fetchCodechefProfile(request, handle)
  if (!page) return undefined
  const current = page.ratings.at(-1)?.rating
  return {
    handle: page.handle,
    fields: page.name ? [page.name] : [],
    ...(current !== undefined && { rating: current }),
  }
}

// --- results and history -----------------------------------------------------------------------

/** The rating before the history's `index`th entry: the previous one, or the entry rating. */
function ratingBefore(ratings: readonly CodechefRating[], index: number): number {
  return index > 0 ? ratings[index - 1].rating : codechefEntryRating(ratings[index].endTime)
}

/**
 * The handle's line in `contest` from its profile's rating history, matched by round code (the
 * history's START79D is the catalogue's START79). 'pending' while the history holds neither the
 * round nor a later one: ratings are published some time after a round. undefined when a later
 * round is there without it (the handle was not rated in it), or CodeChef has no such handle.
 * The history lists rated participations only: an unrated one (above a round's rated range) looks
 * pending until the pipeline gives the check up.
 */
export async function codechefHandleResult(
  request: ResultsRequest,
  contest: EndedContest,
  handle: string,
): Promise<ResultRow | 'pending' | undefined> {
  const page = await fetchCodechefProfile(request, handle)
  if (!page) return undefined
  const round = codechefRound(contest.platformId)
  const index = page.ratings.findIndex((r) => codechefRound(r.code) === round)
  if (index < 0) {
    return page.ratings.some((r) => r.endTime > contest.endTime) ? undefined : 'pending'
  }
  const entry = page.ratings[index]
  return {
    handle: page.handle,
    ...(entry.rank > 0 && { rank: entry.rank }),
    oldRating: ratingBefore(page.ratings, index),
    newRating: entry.rating,
  }
}

/** The rated rounds, oldest first, keyed by round code; [] for a handle CodeChef does not have. */
export async function codechefHistory(
  request: ResultsRequest,
  handle: string,
): Promise<RatingPoint[]> {
  const ratings = (await fetchCodechefProfile(request, handle))?.ratings ?? []
  return ratings.map((r, index) => ({
    contestName: r.name,
    platformId: codechefRound(r.code),
    time: r.endTime,
    ...(r.rank > 0 && { rank: r.rank }),
    oldRating: ratingBefore(ratings, index),
    newRating: r.rating,
  }))
}

// --- the module --------------------------------------------------------------------------------

/** A profile page moved later by `shiftMs`: its all_rating end dates (India time, no offset). */
export function shiftCodechefProfile(html: string, shiftMs: number): string {
  return html.replace(
    /("end_date"\s*:\s*")(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)"/g,
    (_, key: string, time: string) => `${key}${shiftNaive(time, shiftMs)}"`,
  )
}

function profileRoute(handle: string, file: string): FixtureRoute {
  return {
    method: 'GET',
    path: `/users/${handle}`,
    file: `fixtures/results/${file}`,
    contentType: 'text/html; charset=utf-8',
    shift: shiftCodechefProfile,
  }
}

export const codechefResults: ResultsModule = {
  proof: {
    where: 'Name (Edit Profile > Personal Details)',
    editUrl: 'https://www.codechef.com/users/edit-profile',
    profile: codechefProfile,
  },
  scope: 'handle',
  minIntervalMs: CODECHEF_MIN_INTERVAL_MS,
  handleResult: codechefHandleResult,
  history: codechefHistory,
  rank: codechefStars,
  fixtures: [
    profileRoute('lotus_byte', 'profile-lotus_byte.html'),
    profileRoute('fresh_chef', 'profile-fresh_chef.html'),
  ],
}
