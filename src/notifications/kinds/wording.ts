// Plain-text wording shared by notification titles and messages: times, durations, platforms.
import type { ContestRow } from '../../db/schema.ts'
import { HOUR_MS, MINUTE_MS } from '../../lib/time.ts'

const PLATFORM_NAMES: Record<string, string> = {
  codeforces: 'Codeforces',
  leetcode: 'LeetCode',
  codechef: 'CodeChef',
  atcoder: 'AtCoder',
}

export function platformName(platform: string): string {
  return PLATFORM_NAMES[platform] ?? platform
}

const formatters = new Map<string, Intl.DateTimeFormat>()

/** "Sun, 22 Nov 2026, 14:35 UTC" in `zone` (UTC when the zone is unknown). */
export function formatTime(ms: number, zone = 'UTC'): string {
  let format = formatters.get(zone)
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      })
    } catch {
      return formatTime(ms, 'UTC')
    }
    formatters.set(zone, format)
  }
  return format.format(ms)
}

/** "in 45 minutes", "in about 5 hours", "in 2 days"; "now" once it has started. */
export function formatUntil(ms: number): string {
  if (ms <= 0) return 'now'
  if (ms < HOUR_MS) {
    const minutes = Math.max(1, Math.round(ms / MINUTE_MS))
    return `in ${minutes} minute${minutes === 1 ? '' : 's'}`
  }
  if (ms < 48 * HOUR_MS) {
    const hours = Math.round(ms / HOUR_MS)
    return `in about ${hours} hour${hours === 1 ? '' : 's'}`
  }
  return `in ${Math.round(ms / (24 * HOUR_MS))} days`
}

export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m} min`
  return m === 0 ? `${h} h` : `${h} h ${m} min`
}

/** The link a reminder points at: the contest page, else its registration page. */
export function contestUrl(contest: Pick<ContestRow, 'websiteUrl' | 'registrationUrl'>) {
  return contest.websiteUrl ?? contest.registrationUrl ?? undefined
}
