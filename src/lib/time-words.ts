// Plain-text wording of times and time left, shared by notifications, bots and pages.
import { HOUR_MS, MINUTE_MS } from './time.ts'

const formatters = new Map<string, Intl.DateTimeFormat>()

// The times a batch of reminders words are few (a contest's start, in each follower's zone), and
// formatting one costs more than finding it again. Emptied when full: a bound, not an LRU.
const worded = new Map<string, string>()
const WORDED_ENTRIES = 1000

/** "Sun, 22 Nov 2026, 14:35 UTC" in `zone` (UTC when the zone is unknown). */
export function formatTime(ms: number, zone = 'UTC'): string {
  const key = `${zone} ${ms}`
  let words = worded.get(key)
  if (words === undefined) {
    words = formatIn(ms, zone)
    if (worded.size >= WORDED_ENTRIES) worded.clear()
    worded.set(key, words)
  }
  return words
}

function formatIn(ms: number, zone: string): string {
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
      return formatIn(ms, 'UTC')
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
