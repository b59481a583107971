// The contest reminder: one per lead time a follower chose, created when that lead time comes
// within a scheduler period (or by an admin for chosen users, with an optional note), and rendered
// at send time with the time left then.
import type { ContestRow } from '../../db/schema.ts'
import { toIso } from '../../lib/time.ts'
import { ALL_CHANNELS, EMAIL_ONLY, type NotificationSpec } from '../spec.ts'
import { contestNoticeKind, noticeSentence, type NoticeWording } from './contest-notice.ts'
import { contestUrl, platformName } from '../../contests/describe.ts'
import { formatTime, formatUntil } from '../../lib/time-words.ts'

const REMINDER: NoticeWording = {
  name: 'reminder',
  title: (name, when) => `Reminder: ${name} ${when}`,
  verb: 'starts',
}

export const reminderKind = contestNoticeKind(REMINDER)

/**
 * The reminder `leadMinutes` before the start time the contest has now: a new start time makes
 * new keys, so every lead time reminds again after a reschedule.
 */
export function reminderKey(contest: Pick<ContestRow, 'startTime'>, leadMinutes: number): string {
  return `${reminderKeyPrefix(contest)}${leadMinutes}`
}

/** What every reminder key of the contest's current start time begins with. */
export const reminderKeyPrefix = (contest: Pick<ContestRow, 'startTime'>) => `${contest.startTime}:`

/** When the reminder of a lead time is due: that long before the start, and never before now. */
export const reminderDueAt = (
  contest: Pick<ContestRow, 'startTime'>,
  leadMinutes: number,
  now: number,
) => Math.max(now, contest.startTime - leadMinutes * 60_000)

/** What a reminder carries about its contest, for templates and clients. */
export function reminderPayload(contest: ContestRow, extra: Record<string, unknown> = {}) {
  const url = contestUrl(contest)
  return {
    kind: REMINDER.name,
    contestName: contest.name,
    platform: contest.platform,
    contestType: contest.type,
    startTime: toIso(contest.startTime),
    endTime: toIso(contest.endTime),
    ...(url && { url }),
    ...extra,
  }
}

/** The stored message: the start in UTC (each channel gives it in the recipient's zone). */
function reminderMessage(contest: ContestRow): string {
  const startsAt = `at ${formatTime(contest.startTime)}`
  return noticeSentence(REMINDER, contest.name, platformName(contest.platform), startsAt)
}

/** The reminder of one lead time, scheduled for when it is due (the consumer holds it till then). */
export function reminderSpec(
  contest: ContestRow,
  now: number,
  leadMinutes: number,
): NotificationSpec {
  const dueAt = reminderDueAt(contest, leadMinutes, now)
  return {
    contestId: contest.id,
    type: 'CONTEST_REMINDER',
    dedupeKey: reminderKey(contest, leadMinutes),
    title: REMINDER.title(contest.name, `starts ${formatUntil(contest.startTime - dueAt)}`),
    message: reminderMessage(contest),
    payload: reminderPayload(contest, { leadMinutes }),
    channels: ALL_CHANNELS,
    scheduledAt: dueAt,
  }
}

/**
 * A reminder an admin sends now to chosen users, by email, with their note after the text. Its
 * title gives the start time, since "starts in ..." would be stale by the time it is read.
 */
export function manualReminderSpec(
  contest: ContestRow,
  customMessage: string | undefined,
  dedupeKey: string,
  now: number,
): NotificationSpec {
  return {
    contestId: contest.id,
    type: 'CONTEST_REMINDER',
    dedupeKey,
    title: REMINDER.title(contest.name, `starts at ${formatTime(contest.startTime)}`),
    message: reminderMessage(contest) + (customMessage ? ` ${customMessage}` : ''),
    payload: reminderPayload(contest, customMessage ? { customMessage } : {}),
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
}
