// When a delivery may go out: a reminder not inside the recipient's quiet hours, unless its
// contest starts before they end (a late reminder beats none); a contest's result not inside them. A reminder made ahead of its time
// is held by its queue message's delay instead (delivery/enqueue.ts).
import { MINUTE_MS } from '../../lib/time.ts'

export interface QuietHoursOf {
  timezone: string
  quietStart: string | null
  quietEnd: string | null
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))

/** Milliseconds since local midnight in `zone` at `at`. */
function localTimeOfDay(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 + (at % 1000)
}

/**
 * The moment the quiet hours around `at` end, or undefined when `at` is outside them. Measured on
 * the local clock: across a daylight-saving change the end can be an hour off, and the delivery,
 * held again when it finds itself still inside, arrives at the true end.
 */
export function quietHoursEnd(at: number, who: QuietHoursOf): number | undefined {
  if (!who.quietStart || !who.quietEnd) return undefined
  const start = minutesOf(who.quietStart) * MINUTE_MS
  const end = minutesOf(who.quietEnd) * MINUTE_MS
  const time = localTimeOfDay(at, who.timezone)
  // A span that wraps midnight (23:00-07:00) is inside when after the start or before the end.
  const inside = start < end ? time >= start && time < end : time >= start || time < end
  if (!inside) return undefined
  const day = 24 * 60 * MINUTE_MS
  return at + ((end - time + day) % day)
}

export interface HoldInput {
  type: string
  /** The contest's start, when the notification has a contest. */
  contestStart: number | undefined
  recipient: QuietHoursOf
}

/** When the delivery may be sent: `now` or later. */
export function sendableAt(input: HoldInput, now: number): number {
  // A result is news of the past: it waits out the quiet hours whatever its contest's start.
  if (input.type === 'CONTEST_RESULT') return quietHoursEnd(now, input.recipient) ?? now
  if (input.type !== 'CONTEST_REMINDER') return now
  const quietEnd = quietHoursEnd(now, input.recipient)
  if (quietEnd === undefined) return now
  if (input.contestStart !== undefined && input.contestStart <= quietEnd) return now
  return quietEnd
}
