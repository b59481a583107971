// A contest as a calendar event: a UID that survives every change, its times, words and link.
import { contestUrl, formatDuration, platformName } from '../contests/describe.ts'
import type { ContestRow } from '../db/schema.ts'
import type { CalendarEvent } from './ics.ts'

const UID_DOMAIN = 'contest-alert-service'

/**
 * `<platform>-<platformId>@contest-alert-service`: the platform's own key, never the row id, so a
 * contest deleted and synced again is the same event. Percent-encoding leaves no character that
 * iCalendar text escapes, and no second `@`.
 */
export function contestUid(contest: Pick<ContestRow, 'platform' | 'platformId'>): string {
  const platform = encodeURIComponent(contest.platform)
  return `${platform}-${encodeURIComponent(contest.platformId)}@${UID_DOMAIN}`
}

/** The event of `contest`, with one display alarm per lead time (minutes before the start). */
export function contestEvent(
  contest: ContestRow,
  leadTimes: readonly number[] = [],
): CalendarEvent {
  const url = contestUrl(contest)
  const duration = formatDuration(contest.durationMinutes)
  const description = [
    `Platform: ${platformName(contest.platform)}`,
    `Type: ${contest.type}`,
    `Duration: ${duration}`,
    ...(url ? [url] : []),
  ].join('\n')
  return {
    uid: contestUid(contest),
    start: contest.startTime,
    end: contest.endTime,
    stamp: contest.updatedAt,
    lastModified: contest.updatedAt,
    sequence: contest.sequence,
    summary: contest.name,
    description,
    url,
    alarms: leadTimes.map((minutes) => ({
      minutesBefore: minutes,
      description: `${contest.name} starts in ${formatDuration(minutes)}`,
    })),
  }
}
