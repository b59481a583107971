// What every platform source returns, and the bookkeeping they share while parsing a payload.
import type { z } from 'zod'
import { DAY_MS } from '../lib/time.ts'
import type { SourceContest } from './contest.ts'

/** The subset of `fetch` the sources use, so Workers, Deno and tests can each pass their own. */
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

export interface AdapterResult<C extends SourceContest = SourceContest> {
  contests: C[]
  /** Items that failed validation; each has a line in `errors`. Never stored half-made. */
  skipped: number
  /** Well-formed items that are not contests of the platform's types (hiring events, practice). */
  unsupported: number
  errors: string[]
  /**
   * Set when a part of a source that asks in several places did not answer (GeeksforGeeks' weekly
   * page): what the rest gave is kept, but cannot be complete, so the sync judges it degraded.
   */
  incomplete?: string
}

export interface ParseOptions {
  /**
   * Finished contests older than this are left out: the daily cleanup deletes them, and a sync
   * that brought them back every six hours would fight it (Codeforces lists ~2000 past rounds).
   */
  retentionDays?: number
}

export interface FetchOptions extends ParseOptions {
  timeoutMs?: number
  /** Sent as User-Agent: the service's name and address (UPSTREAM_USER_AGENT below if unset). */
  userAgent?: string
}

/** Everything a platform's source needs for one fetch. */
export interface SourceRequest extends FetchOptions {
  /** The upstream base URL: the platform's setting, or its default. */
  baseUrl: string
  fetchFn: FetchFn
  now: number
}

export const DEFAULT_RETENTION_DAYS = 90
export const UPSTREAM_TIMEOUT_MS = 15_000

/**
 * Browser-shaped ("Mozilla/5.0 (compatible; ...)") because some sources (Luogu) turn away clients
 * that do not look like one, and naming the service and its address so that an operator who sees
 * our traffic can find us.
 */
export function userAgent(appUrl: string): string {
  return `Mozilla/5.0 (compatible; ContestAlertService/1.0; +${appUrl})`
}
export const UPSTREAM_USER_AGENT = userAgent('https://github.com/contest-alert-service')

/** Collects the outcome of one payload: kept contests, skipped items and why. */
export class ResultCollector<C extends SourceContest = SourceContest> {
  readonly contests: C[] = []
  private readonly seen = new Set<string>()
  private skipped = 0
  private unsupported = 0
  private readonly errors: string[] = []
  private readonly oldestEnd: number

  constructor(
    private readonly now: number,
    options: ParseOptions = {},
  ) {
    this.oldestEnd = now - (options.retentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS
  }

  /** Keeps a contest unless it ended before the retention window or was already listed. */
  keep(contest: C): void {
    if (contest.endTime < this.oldestEnd || this.seen.has(contest.platformId)) return
    this.seen.add(contest.platformId)
    this.contests.push(contest)
  }

  /**
   * Keeps a contest that has not ended at `now` (running or upcoming). An ended one is left out
   * without being counted: it is neither invalid nor unsupported, only no longer news.
   */
  keepUnlessEnded(contest: C): void {
    if (contest.endTime > this.now) this.keep(contest)
  }

  skip(ref: string, reason: string): void {
    this.skipped++
    this.errors.push(`${ref}: ${reason}`)
  }

  skipInvalid(ref: string, error: z.ZodError): void {
    this.skip(ref, describeIssues(error))
  }

  markUnsupported(): void {
    this.unsupported++
  }

  result(): AdapterResult<C> {
    return {
      contests: this.contests,
      skipped: this.skipped,
      unsupported: this.unsupported,
      errors: this.errors,
    }
  }
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ')
}

/**
 * A string field of an item not validated yet, to name the item in an error line (the field may
 * itself be what is wrong, so anything else reads as absent).
 */
export function stringField(item: unknown, key: string): string | undefined {
  const value = (item as Record<string, unknown> | null)?.[key]
  return typeof value === 'string' ? value : undefined
}

/** A numeric or string id of an item not validated yet, as a string (see stringField). */
export function idField(item: unknown, key: string): string | undefined {
  const value = (item as Record<string, unknown> | null)?.[key]
  return typeof value === 'number' || typeof value === 'string' ? String(value) : undefined
}
