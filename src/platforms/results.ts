// What a judge with public results declares (PlatformModule.results): how a handle is proven to
// be an account's, and how the service reads a contest's results once it has ended.
import type { FixtureRoute } from './fixture-route.ts'
import type { SourceRequest } from './source.ts'

/** One request's worth of context: the judge's base URL (its source's setting), fetch, now. */
export type ResultsRequest = Omit<SourceRequest, 'retentionDays'> & {
  /**
   * Waits `ms` between two requests of one answer: a module that must ask twice (Codeforces'
   * ratings, then its standings) keeps its own minIntervalMs between them. setTimeout when absent;
   * tests pass one that only records.
   */
  pause?(ms: number): Promise<void>
  /**
   * For results read through clist.by (baseUrl is then CLIST_API_URL): the key, and one request
   * of clist's budget shared with the contest source (refused: ClistBudgetSpent, nothing asked).
   */
  clist?: {
    apiKey: string
    // clist/client.ts's BudgetTake, spelled out: that module imports this one's neighbours.
    takeRequest?: () => Promise<{ allowed: true } | { allowed: false; retryAt: number }>
  }
}

/** A handle's public profile, as much of it as a proof and a title need. */
export interface PublicProfile {
  /** The handle as the judge spells it now (a rename the judge follows is read here). */
  handle: string
  /** The public text fields a proof token may be placed in, in the judge's order. */
  fields: readonly string[]
  rating?: number
}

/** A problem a submission challenge names: one of the judge's own, open to anyone to submit. */
export interface ChallengeProblem {
  contestId: number
  /** The problem's letter in its contest ("A"). */
  index: string
  name: string
  /** The judge's page of the problem, where the submission is made. */
  url: string
}

/** A challenge the service issued: the problem, and the times a submission must fall between. */
export interface SubmissionChallenge {
  problem: ChallengeProblem
  issuedAt: number
  expiresAt: number
}

/**
 * What the judge's list of the handle's latest submissions says of a challenge: a submission of
 * its own that proves (the handle as the judge spells it), none yet (`judging`: one of the problem
 * in the window has no verdict yet), or no such handle.
 */
export type ChallengeAnswer =
  { state: 'proven'; handle: string } | { state: 'none'; judging: boolean } | { state: 'missing' }

/**
 * A second proof a judge may offer (Codeforces): the account submits, to a problem the service
 * picks, a solution with a verdict no one submits by chance; the judge's public list of the
 * handle's submissions shows it within the challenge's minutes.
 */
export interface SubmissionProof {
  /** The verdict to get, in words for the pages and the API: "compilation error". */
  what: string
  /** The judge's name of that verdict ("COMPILATION_ERROR"). */
  verdict: string
  /** The problems a challenge picks from, by contestId and index. */
  problems: readonly ChallengeProblem[]
  /**
   * Reads the handle's latest submissions (one request) and looks for the challenge's. A failure
   * to ask throws an UpstreamError, as `profile` does.
   */
  check(
    request: ResultsRequest,
    handle: string,
    challenge: SubmissionChallenge,
  ): Promise<ChallengeAnswer>
}

/** A proof: the account places a token in a public profile field, the service reads it back. */
export interface HandleProof {
  /** Where to place the token, in words for the Handles page: "First name (Settings > Social)". */
  where: string
  /** The judge's own page where that field is edited. */
  editUrl: string
  /**
   * The handle's public profile, or undefined when the judge has no such handle. A failure to
   * ask (network, status, schema) throws an UpstreamError, which the caller tells apart from
   * "no such handle".
   */
  profile(request: ResultsRequest, handle: string): Promise<PublicProfile | undefined>
  /** A judge that also takes a submission as proof (the token stays the default). */
  submission?: SubmissionProof
}

/** A contest of the catalogue that has ended, as its judge names it. */
export interface EndedContest {
  platformId: string
  startTime: number
  endTime: number
  /** The catalogue's type (ABC, DIV2...): judges rate some types only. */
  type: string
  /** The catalogue's name, for a reader that must tell contests apart by it (clist.by). */
  name?: string
  /** The catalogue's platformMetadata (a contest synced from clist.by keeps clist's id there). */
  platformMetadata?: Readonly<Record<string, unknown>>
}

/** One participant's line, as the judge published it. */
export interface ResultRow {
  /** As the judge spells it; a team's members each get a row of their own when the judge names them. */
  handle: string
  rank?: number
  solved?: number
  oldRating?: number
  newRating?: number
  performance?: number
}

/**
 * A contest's results at one moment. `pending`: nothing final yet (Codeforces' ratingChanges is
 * empty until ratings are published, AtCoder's results list is empty). `published`: the rows are
 * final; `rated` says whether ratings moved (then old and new ratings are in the rows).
 */
export type ContestResults =
  | { state: 'pending' }
  | { state: 'published'; rated: boolean; participants: number; rows: readonly ResultRow[] }

/** A rating after one contest, for a handle's history and chart. */
export interface RatingPoint {
  contestName: string
  /** The judge's own id of the contest, when it gives one. */
  platformId?: string
  /** When the rating changed (epoch ms). */
  time: number
  rank?: number
  oldRating: number
  newRating: number
}

/** A judge's rank title and colour for a rating ("Expert", "#03a89e"). */
export interface RatingRank {
  title: string
  colour: string
}

/**
 * How a judge that lets handles be renamed tells the service (Codeforces: user.info). The results
 * layer walks the linked handles with it now and then and follows each rename.
 */
export interface HandleRenames {
  /** Handles asked in one request of `exact` at most. */
  batch: number
  /**
   * The handles as the judge spells them now, in the order asked (a change of letter case
   * only), or the first one it does not know under that name (renamed, or gone). One request.
   */
  exact(
    request: ResultsRequest,
    handles: readonly string[],
  ): Promise<{ found: string[] } | { missing: string }>
  /** The current handle of a former one; undefined when the judge knows neither. One request. */
  current(request: ResultsRequest, handle: string): Promise<string | undefined>
}

/** What the results pipeline asks of a judge: how a contest's results are read once it ended. */
export interface ResultsReader {
  /**
   * Results are read for the whole contest in one request (`contest`: Codeforces, AtCoder), per
   * linked handle (`handle`: LeetCode, which has no whole-contest list), or for the linked handles
   * named together (`linked`: clist.by's statistics of a platform without a module of its own).
   */
  scope: 'contest' | 'handle' | 'linked'
  /** The judge's published limit, kept between two requests of the service (Codeforces: 2,000). */
  minIntervalMs: number
  /** scope 'contest': the contest's results, every participant in one answer. */
  contestResults?(request: ResultsRequest, contest: EndedContest): Promise<ContestResults>
  /**
   * scope 'handle': the handle's line in the contest, 'pending' while the judge has not published
   * it, undefined when the handle did not take part.
   */
  handleResult?(
    request: ResultsRequest,
    contest: EndedContest,
    handle: string,
  ): Promise<ResultRow | 'pending' | undefined>
  /**
   * scope 'handle', for a judge that answers several handles in one request (LeetCode's aliased
   * GraphQL): the walk then asks `size` handles a request, each request one token of the pace,
   * instead of handleResult once a handle.
   */
  handleBatch?: {
    size: number
    /**
     * The lines of `handles` (at most `size`) in the order asked, each as handleResult gives it.
     * One request; a failure of any handle's answer fails them all.
     */
    results(
      request: ResultsRequest,
      contest: EndedContest,
      handles: readonly string[],
    ): Promise<(ResultRow | 'pending' | undefined)[]>
  }
  /**
   * scope 'linked': linked handles named in one ask, at most. The pipeline walks every linked
   * handle of the platform in batches of this many, one ask each (LINKED_PER_ASK when unset).
   */
  linkedPerAsk?: number
  /**
   * scope 'linked': the contest's results of `handles` (one batch of the walk; rows only for
   * those that took part).
   */
  linkedResults?(
    request: ResultsRequest,
    contest: EndedContest,
    handles: readonly string[],
  ): Promise<ContestResults>
}

export interface ResultsModule extends ResultsReader {
  proof: HandleProof
  /** The handle's rating history, oldest first. */
  history(request: ResultsRequest, handle: string): Promise<RatingPoint[]>
  /** The judge's title for a rating; undefined for a judge without titles. */
  rank?(rating: number): RatingRank
  /** A judge that renames handles and says so: the renames followed (Codeforces). */
  renames?: HandleRenames
  /** The recorded answers the stand-ins serve, as the source's fixtures are. */
  fixtures: readonly FixtureRoute[]
}
