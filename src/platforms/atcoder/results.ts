// AtCoder's public results: the proof (the profile page's Affiliation), a contest's results list
// (/contests/{id}/results/json), a user's rating history (/users/{user}/history/json) and
// AtCoder's colours.
import { z } from 'zod'
import type { FixtureRoute } from '../fixture-route.ts'
import { shiftJson } from '../fixture-time.ts'
import { attribute, childrenByName, findElements, parseHtml, textOf } from '../html.ts'
import type {
  ContestResults,
  EndedContest,
  HandleProof,
  PublicProfile,
  RatingPoint,
  RatingRank,
  ResultsModule,
  ResultsRequest,
} from '../results.ts'
import { describeIssues } from '../source.ts'
import { fetchJson, fetchOk, UpstreamError } from '../upstream.ts'

/**
 * AtCoder publishes no API and no rate for its JSON pages. Its results come in one request per
 * contest, so the Codeforces pace costs nothing there and keeps proofs and histories (one request
 * per handle) well clear of the firewall that scrapers report in front of atcoder.jp; clist's
 * module (ranking/management/modules/atcoder.py) allows itself 4 a second, through proxies.
 */
export const ATCODER_MIN_INTERVAL_MS = 2_000

// AtCoder user names: 3 to 16 latin letters, digits and '_'. Anything else is asked of nobody.
const USER = /^[A-Za-z0-9_]{3,16}$/

// --- the colours -------------------------------------------------------------------------------

/**
 * AtCoder's colours, one per 400 points, as its style sheet writes a user's name (user-gray ...
 * user-red). Ratings of 3200 and above add a bronze, silver or gold crown to the red, which one
 * colour does not say.
 */
export const ATCODER_RANKS: readonly (RatingRank & { from: number })[] = [
  { from: 2800, title: 'Red', colour: '#ff0000' },
  { from: 2400, title: 'Orange', colour: '#ff8000' },
  { from: 2000, title: 'Yellow', colour: '#c0c000' },
  { from: 1600, title: 'Blue', colour: '#0000ff' },
  { from: 1200, title: 'Cyan', colour: '#00c0c0' },
  { from: 800, title: 'Green', colour: '#008000' },
  { from: 400, title: 'Brown', colour: '#804000' },
  { from: Number.NEGATIVE_INFINITY, title: 'Gray', colour: '#808080' },
]

export function atcoderRank(rating: number): RatingRank {
  const { title, colour } = ATCODER_RANKS.find((r) => rating >= r.from)!
  return { title, colour }
}

// --- the proof ---------------------------------------------------------------------------------

/**
 * The profile page as read: the user name as AtCoder spells it (the `a.username` of the profile's
 * heading), the Affiliation row, and the algorithm rating of the Contest Status table. A page
 * without the name is not a profile (maintenance, a changed page) and throws malformed.
 */
export function readAtcoderProfile(html: string): PublicProfile {
  const page = parseHtml(html)
  const name = findElements(
    page,
    (e) => e.name === 'a' && (attribute(e, 'class') ?? '').split(/\s+/).includes('username'),
  )[0]
  const handle = name && textOf(name)
  if (!handle) throw new UpstreamError('atcoder', 'malformed', 'profile page has no user name')
  const rows = new Map<string, string>()
  for (const tr of findElements(page, (e) => e.name === 'tr')) {
    const [th] = childrenByName(tr, 'th')
    const [td] = childrenByName(tr, 'td')
    // The first of a key wins: Rating comes before Highest Rating, both in the status table.
    if (th && td && !rows.has(textOf(th))) rows.set(textOf(th), textOf(td))
  }
  const affiliation = rows.get('Affiliation')
  const rating = Number(/^\d+/.exec(rows.get('Rating') ?? '')?.[0] ?? Number.NaN)
  return {
    handle,
    fields: affiliation ? [affiliation] : [],
    ...(Number.isInteger(rating) && { rating }),
  }
}

/** GET {ATCODER_URL}/users/{user}?lang=en: the profile, or undefined on AtCoder's 404. */
export async function atcoderProfile(
  request: ResultsRequest,
  handle: string,
): Promise<PublicProfile | undefined> {
  if (!USER.test(handle)) return undefined
  let html: string
  try {
    html = await fetchOk('atcoder', request, `/users/${handle}?lang=en`, {
      headers: { Accept: 'text/html' },
    })
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined
    throw error
  }
  return readAtcoderProfile(html)
}

export const atcoderProof: HandleProof = {
  where: 'Affiliation (Settings > General Settings)',
  editUrl: 'https://atcoder.jp/settings',
  profile: atcoderProfile,
}

// --- a contest's results -----------------------------------------------------------------------

// Only what a result reads; each entry also carries Country, Affiliation, Rating, Competitions,
// AtCoderRank, ContestName and EndTime.
const resultSchema = z.object({
  IsRated: z.boolean(),
  Place: z.number().int().positive(),
  OldRating: z.number().int(),
  NewRating: z.number().int(),
  Performance: z.number().int(),
  UserScreenName: z.string().min(1),
})

function readJsonList<S extends z.ZodType>(payload: unknown, schema: S, what: string) {
  const parsed = z.array(schema).safeParse(payload)
  if (!parsed.success) {
    throw new UpstreamError('atcoder', 'malformed', `${what}: ${describeIssues(parsed.error)}`)
  }
  return parsed.data as z.output<S>[]
}

/**
 * /contests/{id}/results/json as results. An empty list is "not published": AtCoder lists nobody
 * until ratings are out. IsRated says whose rating moved; a participant above the rated range (or
 * every participant of an unrated contest) has it false, and keeps only a place. The rated rows
 * carry Performance (capped at the range's top + 400 for those beyond it).
 */
export function readAtcoderResults(payload: unknown): ContestResults {
  const entries = readJsonList(payload, resultSchema, 'results/json')
  if (entries.length === 0) return { state: 'pending' }
  return {
    state: 'published',
    rated: entries.some((e) => e.IsRated),
    participants: entries.length,
    rows: entries.map((e) => ({
      handle: e.UserScreenName,
      rank: e.Place,
      ...(e.IsRated && {
        oldRating: e.OldRating,
        newRating: e.NewRating,
        performance: e.Performance,
      }),
    })),
  }
}

/** GET {ATCODER_URL}/contests/{id}/results/json */
export async function atcoderContestResults(
  request: ResultsRequest,
  contest: EndedContest,
): Promise<ContestResults> {
  if (!/^[a-z0-9_-]+$/i.test(contest.platformId)) {
    throw new UpstreamError('atcoder', 'api', `not an AtCoder contest id: ${contest.platformId}`)
  }
  return readAtcoderResults(
    await fetchJson('atcoder', request, `/contests/${contest.platformId}/results/json`),
  )
}

// --- a user's history --------------------------------------------------------------------------

const historySchema = z.object({
  IsRated: z.boolean(),
  Place: z.number().int().positive(),
  OldRating: z.number().int(),
  NewRating: z.number().int(),
  // "abc481.contest.atcoder.jp": the contest's id, in the address of AtCoder's former site.
  ContestScreenName: z.string().min(1),
  ContestName: z.string(),
  ContestNameEn: z.string().optional(),
  EndTime: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'not a time'),
})

/** /users/{user}/history/json as rating points: the rated contests only, oldest first. */
export function readAtcoderHistory(payload: unknown): RatingPoint[] {
  return readJsonList(payload, historySchema, 'history/json')
    .filter((h) => h.IsRated)
    .map((h) => ({
      contestName: h.ContestNameEn || h.ContestName,
      platformId: h.ContestScreenName.replace(/\.contest\.atcoder\.jp$/, ''),
      time: Date.parse(h.EndTime),
      rank: h.Place,
      oldRating: h.OldRating,
      newRating: h.NewRating,
    }))
    .sort((a, b) => a.time - b.time)
}

/**
 * GET {ATCODER_URL}/users/{user}/history/json: the algorithm rating's history. Heuristic contests
 * (AHC) have a rating of their own, under ?contestType=heuristic, which the chart leaves out.
 */
export async function atcoderHistory(
  request: ResultsRequest,
  handle: string,
): Promise<RatingPoint[]> {
  if (!USER.test(handle)) {
    throw new UpstreamError('atcoder', 'api', `history/json: not an AtCoder user name: ${handle}`)
  }
  return readAtcoderHistory(await fetchJson('atcoder', request, `/users/${handle}/history/json`))
}

// --- the recorded answers ----------------------------------------------------------------------

function jsonRoute(path: string, file: string): FixtureRoute {
  // EndTime is ISO with an offset, which shiftJson moves without being told.
  return {
    method: 'GET',
    path,
    file: `fixtures/results/${file}`,
    contentType: 'application/json',
    shift: shiftJson(),
  }
}

function pageRoute(path: string, file: string): FixtureRoute {
  // The profile's only date (Last Competed) is a day, left as recorded.
  return {
    method: 'GET',
    path,
    file: `fixtures/results/${file}`,
    contentType: 'text/html; charset=utf-8',
    shift: (text) => text,
  }
}

export const atcoderResults: ResultsModule = {
  proof: atcoderProof,
  scope: 'contest',
  minIntervalMs: ATCODER_MIN_INTERVAL_MS,
  contestResults: atcoderContestResults,
  history: atcoderHistory,
  rank: atcoderRank,
  fixtures: [
    jsonRoute('/contests/abc481/results/json', 'results-abc481.json'),
    jsonRoute('/contests/arc211/results/json', 'results-empty.json'),
    jsonRoute('/contests/jsc2026-final/results/json', 'results-jsc2026-final.json'),
    jsonRoute('/users/sakura_k/history/json', 'history-sakura_k.json'),
    pageRoute('/users/sakura_k', 'profile-sakura_k.html'),
    pageRoute('/users/Hoshi_Zora', 'profile-no-affiliation.html'),
  ],
}
