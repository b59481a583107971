// clist.by's answers for a sync: the long tail in one request, a fallback for one platform, and
// when a request the budget refused (ours, or clist's own 429) may be made.
import { log } from '../lib/log.ts'
import {
  ClistBudgetSpent,
  fetchClistContests,
  fetchClistResources,
  type ClistResult,
} from '../platforms/clist/client.ts'
import { clistContests } from '../platforms/clist/contests.ts'
import type { PlatformModule } from '../platforms/define.ts'
import type { AdapterResult } from '../platforms/source.ts'
import { UpstreamError } from '../platforms/upstream.ts'
import { judgeAnswer, verdictOf, type Fetched } from './answers.ts'
import type { SyncDeps } from './deps.ts'

/** clist.by's answer for one platform: its contests, or why there are none. */
export type ClistAnswer = { result: AdapterResult } | { error: unknown }

/**
 * The long-tail platforms among `modules` in one request of clist's budget (`resource=a,b,c`), not
 * one each: seven platforms would otherwise take seven of its ten requests a minute every sync.
 */
export async function askClistForAll(
  deps: SyncDeps,
  modules: readonly PlatformModule[],
  now: number,
): Promise<Map<string, ClistAnswer>> {
  if (modules.length === 0) return new Map()
  try {
    const { byResource, unattributed } = await fetchClistResources({
      ...clistAccess(deps, now),
      resources: [...new Set(modules.map((m) => m.clist!.resource))],
    })
    if (unattributed.length > 0) {
      log.with({ job: 'sync' }).warn('sync-items-skipped', {
        platform: 'clist',
        skipped: unattributed.slice(0, 20),
      })
    }
    return new Map(
      modules.map((m) => [
        m.id,
        { result: contestsOf(m, byResource.get(m.clist!.resource)!, now) },
      ]),
    )
  } catch (error) {
    return new Map(modules.map((m) => [m.id, { error }]))
  }
}

export async function askClist(
  deps: SyncDeps,
  module: PlatformModule,
  stored: number,
  now: number,
  answered?: ClistAnswer,
): Promise<Fetched> {
  let answer = answered
  if (!answer) {
    try {
      const fetched = await fetchClistContests({
        ...clistAccess(deps, now),
        resource: module.clist!.resource,
      })
      answer = { result: contestsOf(module, fetched, now) }
    } catch (error) {
      answer = { error }
    }
  }
  if ('result' in answer) {
    return {
      verdict: judgeAnswer(answer.result, stored, now),
      result: answer.result,
      source: 'clist',
    }
  }
  const retryAt = budgetRetryAt(answer.error, now)
  if (retryAt !== undefined) return { verdict: { kind: 'waiting' }, source: 'clist', retryAt }
  return { verdict: verdictOf(answer.error), source: 'clist' }
}

function clistAccess(deps: SyncDeps, now: number) {
  const clist = deps.clist!
  return {
    baseUrl: clist.baseUrl,
    apiKey: clist.apiKey,
    now,
    fetchFn: deps.fetchFn,
    userAgent: deps.userAgent,
    timeoutMs: deps.timeoutMs,
    takeRequest: clist.takeRequest,
  }
}

function contestsOf(module: PlatformModule, fetched: ClistResult, now: number): AdapterResult {
  const result = clistContests(module, fetched.entries, now)
  result.skipped += fetched.skipped
  result.errors.push(...fetched.errors)
  return result
}

// clist counts a minute in whole seconds, the boundary included; our budget's minute starts at
// its first request. A second or two past the reset keeps the retry clear of both.
const BUDGET_SLACK_MS = 2_000
// clist.by allows 10 requests a minute: a longer Retry-After is not its rate limit, which the next
// cron, not a retry, is for.
const LONGEST_WAIT_MS = 10 * 60_000

/**
 * When clist.by may be asked again, if `error` says only that its budget is spent: ours (nothing
 * was asked) or clist's own 429, whose limit is one minute counted per second, not bot protection.
 */
function budgetRetryAt(error: unknown, now: number): number | undefined {
  const at =
    error instanceof ClistBudgetSpent
      ? error.retryAt
      : error instanceof UpstreamError && error.platform === 'clist' && error.status === 429
        ? now + (error.retryAfter ?? 60) * 1000
        : undefined
  if (at === undefined || at - now > LONGEST_WAIT_MS) return undefined
  return Math.max(at, now) + BUDGET_SLACK_MS
}
