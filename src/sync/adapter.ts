// What every platform adapter returns, and the bookkeeping they share while parsing a payload.
import type { ContestInput } from '../contests/contest-input.ts'
import { DAY_MS } from '../lib/time.ts'
import type { z } from 'zod'

/** The subset of `fetch` the adapters use, so Workers, Deno and tests can each pass their own. */
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

export interface AdapterResult {
  contests: ContestInput[]
  /** Items that failed validation; each has a line in `errors`. Never stored half-made. */
  skipped: number
  /** Well-formed items whose kind is outside the platform's type enumeration. */
  unsupported: number
  errors: string[]
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
}

export const DEFAULT_RETENTION_DAYS = 90
export const UPSTREAM_TIMEOUT_MS = 15_000

/** Collects the outcome of one payload: kept contests, skipped items and why. */
export class ResultCollector {
  readonly contests: ContestInput[] = []
  private readonly seen = new Set<string>()
  private skipped = 0
  private unsupported = 0
  private readonly errors: string[] = []
  private readonly oldestEnd: number

  constructor(now: number, options: ParseOptions = {}) {
    this.oldestEnd = now - (options.retentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS
  }

  /** Keeps a contest unless it ended before the retention window or was already listed. */
  keep(contest: ContestInput): void {
    if (contest.endTime < this.oldestEnd || this.seen.has(contest.platformId)) return
    this.seen.add(contest.platformId)
    this.contests.push(contest)
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

  result(): AdapterResult {
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
