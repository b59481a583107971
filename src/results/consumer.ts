// The results queue's consumer: one check a message. It claims the check, keeps the judge's pace
// (a token of the platform's own bucket: a platform whose token is not there yet is queued again
// with a delay, never slept on, so one judge's pace never holds another's message), asks the judge
// (the whole contest once, or the linked handles: one or a batch a request, or together in
// batches), stores the linked handles' rows, calls the `onPublished` hooks the jobs wire (alerts,
// webhook events, community posts), then records the outcome and queues the next check on the
// backoff.
import { findContest } from '../contests/queries.ts'
import type { Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import { log } from '../lib/log.ts'
import { ClistBudgetSpent } from '../platforms/clist/client.ts'
import type {
  EndedContest,
  ResultRow,
  ResultsReader,
  ResultsRequest,
} from '../platforms/results.ts'
import type { QueueMessage, QueueProducer } from '../ports/queue.ts'
import {
  claimCheck,
  giveUpCheck,
  keepWalk,
  pauseWalk,
  recordPublished,
  recordUnanswered,
  releaseCheck,
  type CheckRow,
} from './checks.ts'
import { linkedHandles, resultsDigest, storeAnswer, storedRows, storeResults } from './store.ts'

/** The body of a results message: the check's contest, and where a walk over handles stopped. */
export interface ResultsMessage {
  contestId: string
  /**
   * Results asked per handle: the last handle key asked when it was sent. The walk goes on from
   * the check's own (walk_after); a message whose key the walk went past is a duplicate.
   */
  after?: string
}

export const isResultsMessage = (body: unknown): body is ResultsMessage =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as ResultsMessage).contestId === 'string' &&
  ((body as ResultsMessage).after === undefined ||
    typeof (body as ResultsMessage).after === 'string')

/** What the hooks are told once a contest's results are stored. */
export interface PublishedContest {
  contest: ContestRow
  rated: boolean
  participants: number | null
  /** The first publication (false: a re-check). */
  first: boolean
  /** The rows differ from the last publication's (always true on the first). */
  changed: boolean
  /** The digest of this publication's rows (result_checks.results_digest). */
  digest: string
  now: number
}

/**
 * Called after every published answer, in order, before the check is recorded: a hook that fails
 * leaves the check due, so the retried message asks and calls the hooks again. Each must therefore
 * do its work once whatever the number of calls (unique keys, told deltas).
 */
export type OnPublished = (published: PublishedContest) => Promise<unknown>

export type Pace = { allowed: true } | { allowed: false; retryAt: number }

export interface ResultsDeps {
  db: Db
  queue: QueueProducer<ResultsMessage>
  /** The results reader of a platform, undefined when it has none (or clist.by is off). */
  module: (platform: string) => ResultsReader | undefined
  /** The request context of one ask of a platform's judge. */
  request: (platform: string, now: number) => ResultsRequest
  /** One request of the platform's pace (its minIntervalMs), counted across invocations. */
  pace: (platform: string, minIntervalMs: number) => Promise<Pace>
  onPublished: readonly OnPublished[]
}

/**
 * Linked handles named in one ask of results read for the handles together (clist.by), when the
 * reader does not say (ResultsReader.linkedPerAsk): one batch of the walk over them all.
 */
export const LINKED_PER_ASK = 100

/**
 * Handles asked in one invocation of a walk (results per handle), a token of the pace before each
 * request: each handle alone, or the judge's batch of them (ResultsReader.handleBatch).
 */
export const HANDLES_PER_INVOCATION = 50
/** Queues deliver a message at most this long after it is sent. */
const MAX_DELAY_SECONDS = 12 * 60 * 60

const delayUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000))

/** Queues the check's next ask when the queue can hold it; a later one is the scheduler's. */
async function queueNext(deps: ResultsDeps, message: ResultsMessage, at: number, now: number) {
  const delaySeconds = delayUntil(at, now)
  if (delaySeconds > MAX_DELAY_SECONDS) return
  await deps.queue.send(message, { delaySeconds })
}

const ended = (contest: ContestRow): EndedContest => ({
  platformId: contest.platformId,
  startTime: contest.startTime,
  endTime: contest.endTime,
  type: contest.type,
  name: contest.name,
  ...(contest.platformMetadata && { platformMetadata: contest.platformMetadata }),
})

/**
 * Characters of a failed ask's error kept (result_checks.error, the log line): a judge's answer
 * refused row by row (a malformed field in each of 30,000 rating changes) makes a message of
 * megabytes, past D1's bound on a string, and the first issues tell it all.
 */
export const ERROR_CHARS = 1000

const errorText = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error)
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS - 1)}…` : text
}

export type Outcome =
  'not-held' | 'paced' | 'pending' | 'failed' | 'walking' | 'published' | 'gave-up'

/** One ask of the check of `message`; answers what came of it. */
export async function askCheck(
  deps: ResultsDeps,
  message: ResultsMessage,
  now: number,
): Promise<Outcome> {
  const check = await claimCheck(deps.db, message.contestId, now, { walkAfter: message.after })
  if (!check) return 'not-held'
  try {
    return await askClaimed(deps, check, message, now)
  } catch (error) {
    // The queue retries the message; the check must be free for it.
    await releaseCheck(deps.db, check.contestId)
    throw error
  }
}

async function askClaimed(
  deps: ResultsDeps,
  check: CheckRow,
  message: ResultsMessage,
  now: number,
): Promise<Outcome> {
  const module = deps.module(check.platform)
  const contest = await findContest(deps.db, check.contestId)
  if (!module || !contest) {
    await giveUpCheck(deps.db, check.contestId, module ? 'contest removed' : 'no results', now)
    return 'gave-up'
  }
  const paced = await deps.pace(check.platform, module.minIntervalMs)
  if (!paced.allowed) {
    await releaseCheck(deps.db, check.contestId)
    await deps.queue.send(message, { delaySeconds: delayUntil(paced.retryAt, now) })
    return 'paced'
  }
  const request = deps.request(check.platform, now)
  if (module.scope === 'handle') return walkHandles(deps, module, check, contest, message, request)
  if (module.scope === 'linked') return walkLinked(deps, module, check, contest, message, request)
  let answer
  try {
    answer = await module.contestResults!(request, ended(contest))
  } catch (error) {
    return unanswered(deps, check, contest, message, now, errorText(error))
  }
  if (answer.state === 'pending') return unanswered(deps, check, contest, message, now, null)
  const digest = await storeAnswer(deps.db, contest, answer.rated, answer.rows, now)
  return published(deps, check, contest, answer.rated, answer.participants, digest, now)
}

async function unanswered(
  deps: ResultsDeps,
  check: CheckRow,
  contest: ContestRow,
  message: ResultsMessage,
  now: number,
  error: string | null,
): Promise<Outcome> {
  if (error) {
    log.with({ job: 'results' }).warn('results-check-failed', {
      contestId: check.contestId,
      platform: check.platform,
      error,
    })
  }
  const next = await recordUnanswered(deps.db, check, contest.endTime, now, error)
  if (next === undefined) return check.state === 'WAITING' ? 'gave-up' : 'pending'
  await queueNext(deps, { contestId: message.contestId }, next, now)
  return error ? 'failed' : 'pending'
}

async function published(
  deps: ResultsDeps,
  check: CheckRow,
  contest: ContestRow,
  rated: boolean,
  participants: number | null,
  digest: string,
  now: number,
  walkAfter?: string | null,
): Promise<Outcome> {
  const event: PublishedContest = {
    contest,
    rated,
    participants,
    first: check.publishedAt === null,
    changed: check.resultsDigest !== digest,
    digest,
    now,
  }
  for (const hook of deps.onPublished) await hook(event)
  const publication = { rated, participants, digest }
  const next = await recordPublished(deps.db, check, publication, now, { walkAfter })
  await queueNext(deps, { contestId: check.contestId }, next, now)
  return 'published'
}

type Line = ResultRow | 'pending' | undefined

/**
 * The lines of `handles` in one request: the judge's batch (handleBatch, as many as its size),
 * or handleResult for a single handle.
 */
async function askHandles(
  module: ResultsReader,
  request: ResultsRequest,
  contest: ContestRow,
  handles: readonly string[],
): Promise<Line[]> {
  if (!module.handleBatch) return [await module.handleResult!(request, ended(contest), handles[0])]
  const lines = await module.handleBatch.results(request, ended(contest), handles)
  if (lines.length !== handles.length) {
    throw new Error(`${lines.length} lines for ${handles.length} handles asked`)
  }
  return lines
}

const isRow = (line: Line): line is ResultRow => line !== undefined && line !== 'pending'

/**
 * Whether the walk's first request (the probe, asked by every check until the publication) says
 * nothing is published yet: its first handle is pending and none of the others has a line (a
 * line comes only from a published result, so one is proof enough; a handle that did not take
 * part, or is unknown, proves nothing).
 */
const probePending = (lines: readonly Line[]) => lines[0] === 'pending' && !lines.some(isRow)

/**
 * Results asked per linked handle (LeetCode, CodeChef): the handles in key order, one request a
 * handle or a batch of them (handleBatch), a token of the judge's pace before each request. A
 * token not there yet, or HANDLES_PER_INVOCATION asked, queues the walk on from the last handle
 * answered, kept on the check (walk_after): whichever message goes on with it starts there, so no
 * handle answered is asked again. The first request's 'pending' (probePending) means nothing is
 * published yet; once the walk has reached the last handle, the stored rows are the publication,
 * never re-checked (checks.ts recordPublished).
 */
async function walkHandles(
  deps: ResultsDeps,
  module: ResultsReader,
  check: CheckRow,
  contest: ContestRow,
  message: ResultsMessage,
  request: ResultsRequest,
): Promise<Outcome> {
  const now = request.now
  const from = check.walkAfter
  const handles = await linkedHandles(deps.db, check.platform, from ?? '', HANDLES_PER_INVOCATION)
  const size = Math.max(1, module.handleBatch?.size ?? 1)
  const rows: ResultRow[] = []
  let last = from
  let stopped: number | undefined
  for (let i = 0; i < handles.length; i += size) {
    const batch = handles.slice(i, i + size)
    if (i > 0) {
      const paced = await deps.pace(check.platform, module.minIntervalMs)
      if (!paced.allowed) {
        stopped = paced.retryAt
        break
      }
    }
    let lines: Line[]
    try {
      lines = await askHandles(
        module,
        request,
        contest,
        batch.map((h) => h.handle),
      )
    } catch (error) {
      // Nothing answered yet this time: unanswered, the walk kept where it was for the next ask.
      if (i === 0) return unanswered(deps, check, contest, message, now, errorText(error))
      stopped = now
      break
    }
    if (from === null && i === 0 && probePending(lines)) {
      return unanswered(deps, check, contest, message, now, null)
    }
    lines.forEach((line, j) => {
      if (isRow(line)) rows.push({ ...line, handle: line.handle || batch[j].handle })
    })
    last = batch[batch.length - 1].handleKey
  }
  const rated = rows.some((r) => r.oldRating !== undefined && r.newRating !== undefined)
  await storeResults(deps.db, contest, rated, rows, now)
  if (stopped !== undefined || handles.length === HANDLES_PER_INVOCATION) {
    const at = stopped ?? now
    await pauseWalk(deps.db, check.contestId, at, last)
    await deps.queue.send(
      { contestId: check.contestId, ...(last !== null && { after: last }) },
      { delaySeconds: delayUntil(at, now) },
    )
    return 'walking'
  }
  // Rated when a stored row is; the judge counts no participants for a handle's line.
  return publishStored(deps, check, contest, false, null, last, now)
}

/**
 * Results read for the linked handles together (clist.by): one batch of the reader's
 * `linkedPerAsk` handles an ask, in key order after the check's walk_after, each batch a bounded
 * ask of its own (clist: 3 or 4 requests of the shared budget) behind the judge's pace. A batch
 * with handles after it stores its rows and queues the walk on from its last handle, a pace
 * later (`walking`); the batch holding the last handle publishes the stored rows, never
 * re-checked (D146, D165). A batch the budget refuses (ClistBudgetSpent), that fails, or that is
 * still pending stores nothing and moves no key, so the next ask asks it again and no handle whose
 * row is stored is asked again for the contest.
 */
async function walkLinked(
  deps: ResultsDeps,
  module: ResultsReader,
  check: CheckRow,
  contest: ContestRow,
  message: ResultsMessage,
  request: ResultsRequest,
): Promise<Outcome> {
  const now = request.now
  const from = check.walkAfter
  const size = module.linkedPerAsk ?? LINKED_PER_ASK
  // One more than a batch says whether another follows, so the last batch publishes.
  const linked = await linkedHandles(deps.db, check.platform, from ?? '', size + 1)
  const batch = linked.slice(0, size)
  if (batch.length === 0 && from !== null) {
    // Walked to the end before (an ask-now, or the sweep after a lost message), nobody linked
    // after the last handle since: the stored rows as they are, nothing asked.
    return publishStored(deps, check, contest, check.rated === 1, check.participants, from, now)
  }
  let answer
  try {
    answer = await module.linkedResults!(
      request,
      ended(contest),
      batch.map((h) => h.handle),
    )
  } catch (error) {
    // clist's budget shared with the contest source had no request left: nothing was asked (or
    // the rest of the batch was not), so the check waits for it as for the judge's pace.
    if (error instanceof ClistBudgetSpent) {
      await releaseCheck(deps.db, check.contestId)
      await deps.queue.send(message, { delaySeconds: delayUntil(error.retryAt, now) })
      return 'paced'
    }
    return unanswered(deps, check, contest, message, now, errorText(error))
  }
  if (answer.state === 'pending') return unanswered(deps, check, contest, message, now, null)
  await storeResults(deps.db, contest, answer.rated, answer.rows, now)
  const last = batch.at(-1)?.handleKey ?? from
  if (linked.length > size && last !== null) {
    const at = now + module.minIntervalMs
    await pauseWalk(deps.db, check.contestId, at, last)
    await deps.queue.send(
      { contestId: check.contestId, after: last },
      { delaySeconds: delayUntil(at, now) },
    )
    return 'walking'
  }
  return publishStored(deps, check, contest, answer.rated, answer.participants, last, now)
}

/**
 * The end of a walk over handles: its last key kept before the hooks run (a hook failing retries
 * the message, which then asks no handle again), then the stored rows published.
 */
async function publishStored(
  deps: ResultsDeps,
  check: CheckRow,
  contest: ContestRow,
  rated: boolean,
  participants: number | null,
  last: string | null,
  now: number,
): Promise<Outcome> {
  if (last !== null) await keepWalk(deps.db, check.contestId, last)
  const stored = await storedRows(deps.db, check.contestId)
  const anyRated =
    rated || stored.some((r) => r.oldRating !== undefined && r.newRating !== undefined)
  const digest = await resultsDigest(anyRated, stored)
  return published(deps, check, contest, anyRated, participants, digest, now, last ?? '')
}

/**
 * Each message of a results batch asked once. A failure (D1, a hook) is logged and its message
 * retried by the queue, the check let go for it; the scheduler queues any check left due.
 */
export async function consumeResultMessages(
  deps: ResultsDeps,
  messages: readonly QueueMessage[],
  now: () => number = Date.now,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const message of messages) {
    if (!isResultsMessage(message.body)) {
      log.with({ job: 'results' }).warn('results-message-malformed', { id: message.id })
      message.ack()
      continue
    }
    try {
      outcomes.push(await askCheck(deps, message.body, now()))
      message.ack()
    } catch (error) {
      log.with({ job: 'results' }).error('results-consumer-failed', { id: message.id, error })
      message.retry()
    }
  }
  return outcomes
}
