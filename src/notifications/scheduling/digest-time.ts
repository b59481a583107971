// When digests go out: 09:00 local time, daily, and on Mondays for the weekly one. The scheduler
// runs at :00 and :30 UTC, so a zone is due in the run whose local time falls in [09:00, 09:30);
// zones offset by a quarter hour (Asia/Kathmandu) get theirs at 09:15.
import { MINUTE_MS } from '../../lib/time.ts'
import type { DigestFrequency } from '../kinds/digest.ts'

export const DIGEST_HOUR = 9
export const SLOT_MS = 30 * MINUTE_MS

export interface LocalTime {
  /** The local calendar date, YYYY-MM-DD: the digest's dedupe key. */
  date: string
  /** ISO weekday: 1 is Monday, 7 is Sunday. */
  weekday: number
  hour: number
  minute: number
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }
const formats = new Map<string, Intl.DateTimeFormat>()

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formats.set(zone, format)
  }
  return format
}

/** The wall-clock time in `zone` at `at`; undefined for a zone Intl does not know. */
export function localTime(zone: string, at: number): LocalTime | undefined {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = formatFor(zone).formatToParts(at)
  } catch {
    return undefined
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    weekday: WEEKDAYS[get('weekday')] ?? 0,
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
  }
}

/** The start of the half-hour slot a scheduler run belongs to (a late run keeps its slot). */
export function slotStart(now: number): number {
  return Math.floor(now / SLOT_MS) * SLOT_MS
}

/**
 * The local date whose digest of `frequency` is due in `zone` in the slot starting at `slot`,
 * or undefined when none is.
 */
export function dueDigestDate(
  zone: string,
  frequency: DigestFrequency,
  slot: number,
): string | undefined {
  const local = localTime(zone, slot)
  if (!local || local.hour !== DIGEST_HOUR || local.minute >= 30) return undefined
  if (frequency === 'weekly' && local.weekday !== 1) return undefined
  return local.date
}
