// The four platform adapters behind one signature, so the sync job can loop over platforms and
// isolate each one's failure (every adapter throws UpstreamError when its platform fails).
import type { Platform } from '../contests/schemas.ts'
import type { ContestInput } from '../contests/contest-input.ts'
import type { Settings } from '../env.ts'
import type { AdapterResult, FetchFn } from './adapter.ts'
import { fetchAtcoder } from './atcoder.ts'
import { fetchCodechef } from './codechef.ts'
import { fetchCodeforces } from './codeforces.ts'
import { fetchLeetcode } from './leetcode.ts'

export type AdapterSettings = Pick<
  Settings,
  | 'CODEFORCES_API_URL'
  | 'LEETCODE_API_URL'
  | 'CODECHEF_API_URL'
  | 'ATCODER_URL'
  | 'CONTEST_RETENTION_DAYS'
>

export type PlatformAdapter = (
  settings: AdapterSettings,
  fetchFn: FetchFn,
  now: number,
) => Promise<AdapterResult>

export const PLATFORM_ADAPTERS: Record<Platform, PlatformAdapter> = {
  codeforces: (s, fetchFn, now) =>
    fetchCodeforces(s.CODEFORCES_API_URL, fetchFn, now, {
      retentionDays: s.CONTEST_RETENTION_DAYS,
    }),
  leetcode: (s, fetchFn, now) =>
    fetchLeetcode(s.LEETCODE_API_URL, fetchFn, now, { retentionDays: s.CONTEST_RETENTION_DAYS }),
  codechef: (s, fetchFn, now) =>
    fetchCodechef(s.CODECHEF_API_URL, fetchFn, now, { retentionDays: s.CONTEST_RETENTION_DAYS }),
  atcoder: (s, fetchFn, now) =>
    fetchAtcoder(s.ATCODER_URL, fetchFn, now, { retentionDays: s.CONTEST_RETENTION_DAYS }),
}

/**
 * platformMetadata keys that change between two fetches of an unchanged contest: Codeforces
 * counts relativeTimeSeconds from the moment of the call. Phase and frozen change too, but only
 * when the contest really moves on, so they are worth a write.
 */
export const VOLATILE_METADATA_KEYS: Record<Platform, readonly string[]> = {
  codeforces: ['relativeTimeSeconds'],
  leetcode: [],
  codechef: [],
  atcoder: [],
}

/** The contest without its volatile metadata, for deciding "updated" versus "unchanged". */
export function withoutVolatileMetadata(contest: ContestInput): ContestInput {
  const volatile = VOLATILE_METADATA_KEYS[contest.platform]
  if (!contest.platformMetadata || volatile.length === 0) return contest
  const platformMetadata = Object.fromEntries(
    Object.entries(contest.platformMetadata).filter(([key]) => !volatile.includes(key)),
  )
  return { ...contest, platformMetadata }
}
