// How a contest is named and linked in words people read: reminders, digests, calendar events.
import type { ContestRow } from '../db/schema.ts'

export { platformName } from '../platforms/registry.ts'

/** A length in minutes in words: "45 min", "2 h", "2 h 15 min". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m} min`
  return m === 0 ? `${h} h` : `${h} h ${m} min`
}

/** The link for a contest: its page, else its registration page. */
export function contestUrl(contest: Pick<ContestRow, 'websiteUrl' | 'registrationUrl'>) {
  return contest.websiteUrl ?? contest.registrationUrl ?? undefined
}

/** Where one contest's event is served as an .ics file, under the service's address. */
export const contestCalendarPath = (id: string) => `/contests/${id}/calendar.ics`
