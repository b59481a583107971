// What one sync got from a source (the platform's own or clist.by): the contests, the verdict on
// them, and which source it was.
import type { AdapterResult } from '../platforms/source.ts'
import { UpstreamError } from '../platforms/upstream.ts'
import { judgeCount, type SourceName, type SourceVerdict } from './platform-status.ts'

export interface Fetched {
  verdict: SourceVerdict
  result?: AdapterResult
  source: SourceName
  /** clist.by was not asked for want of budget; it allows a request from this moment. */
  retryAt?: number
}

/** The answer's contests still to come, against those the catalogue holds (`stored`). */
export function judgeAnswer(result: AdapterResult, stored: number, now: number): SourceVerdict {
  // Part of the source is missing: its contests are kept, but nothing may be cancelled for it.
  if (result.incomplete) return { kind: 'degraded', reason: result.incomplete }
  const upcoming = result.contests.filter((c) => c.startTime > now).length
  return judgeCount(upcoming, stored)
}

/** 403 and 429 are bot protection; a broken answer is degraded; no answer at all is failing. */
export function verdictOf(error: unknown): SourceVerdict {
  const reason = error instanceof Error ? error.message : String(error)
  if (error instanceof UpstreamError) {
    if (error.blocked) return { kind: 'blocked', reason, retryAfterSeconds: error.retryAfter }
    if (error.kind === 'malformed' || error.kind === 'api') return { kind: 'degraded', reason }
  }
  return { kind: 'failing', reason }
}
