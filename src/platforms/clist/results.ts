// Results of a platform without a results module of its own, read from clist.by's statistics
// (statistics.ts) for the handles linked there: the reader the results pipeline asks, paced per
// platform and within clist's budget shared with the contest source, one batch of linked handles
// an ask (the pipeline walks them all). Friends only: clist shows no profile field a proof token
// could be read from, so an own handle there can never be proven.
import type { PlatformModule } from '../define.ts'
import type { ResultsReader } from '../results.ts'
import { UpstreamError } from '../upstream.ts'
import { CLIST_BATCH, clistContestResults } from './statistics.ts'

/**
 * One ask of a platform's results a half minute at most: an ask is 3 or 4 requests of clist's
 * budget (the contest, the accounts, their statistics, the rated probe).
 */
export const CLIST_RESULTS_INTERVAL_MS = 30_000

/** Linked handles asked in one ask: one batch of accounts and of statistics. */
export const CLIST_HANDLES_PER_ASK = CLIST_BATCH

/** clist's id of a contest synced from clist, as the catalogue keeps it (clist/contests.ts). */
export function clistIdOf(metadata: Readonly<Record<string, unknown>> | undefined) {
  const id = metadata?.clistId
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/**
 * Standings clist holds without a single rating read as pending until this long after the end:
 * clist parses standings before a judge publishes its ratings, and a rated contest should be told
 * with them. After it, the standings are told as an unrated contest.
 */
export const CLIST_AWAIT_RATINGS_MS = 24 * 60 * 60 * 1000

export function clistResultsReader(module: PlatformModule): ResultsReader {
  if (!module.clist) throw new Error(`${module.id} has no clist mapping`)
  return {
    scope: 'linked',
    minIntervalMs: CLIST_RESULTS_INTERVAL_MS,
    linkedPerAsk: CLIST_HANDLES_PER_ASK,
    linkedResults: (request, contest, handles) => {
      if (!request.clist) throw new UpstreamError('clist', 'api', 'CLIST_API_KEY is not set')
      const access = {
        baseUrl: request.baseUrl,
        apiKey: request.clist.apiKey,
        now: request.now,
        fetchFn: request.fetchFn,
        ...(request.timeoutMs !== undefined && { timeoutMs: request.timeoutMs }),
        ...(request.userAgent !== undefined && { userAgent: request.userAgent }),
        ...(request.clist.takeRequest && { takeRequest: request.clist.takeRequest }),
      }
      const clistId = clistIdOf(contest.platformMetadata)
      return clistContestResults(access, module, contest, handles, {
        ...(clistId !== undefined && { clistId }),
        awaitRatingsUntil: contest.endTime + CLIST_AWAIT_RATINGS_MS,
      })
    },
  }
}
