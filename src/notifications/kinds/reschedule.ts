// The reschedule notice: a contest the sync found moved, told to everyone already reminded of the
// old time. It is the reminder itself for those whose reminder is due (CONTEST_REMINDER, same
// key), a SYSTEM_ALERT for the others; both render as a reschedule.
import type { ContestRow } from '../../db/schema.ts'
import { toIso } from '../../lib/time.ts'
import { ALL_CHANNELS, type NotificationSpec } from '../spec.ts'
import { contestNoticeKind, noticeSentence, type NoticeWording } from './contest-notice.ts'
import { reminderPayload, reminderSpec } from './reminder.ts'
import { platformName } from '../../contests/describe.ts'
import { formatTime, formatUntil } from '../../lib/time-words.ts'

const RESCHEDULE: NoticeWording = {
  name: 'reschedule',
  title: (name, when) => `Rescheduled: ${name} now ${when}`,
  verb: 'has been rescheduled. It now starts',
}

export const rescheduleKind = contestNoticeKind(RESCHEDULE)

/**
 * For a user whose reminder for the new time is due already, the notice is that reminder (of their
 * shortest lead time that has passed: same key, so the regular run adds no second one); for the
 * others it is a SYSTEM_ALERT, and their reminders come when they fall due.
 */
export function rescheduleSpecs(contest: ContestRow, now: number) {
  const platform = platformName(contest.platform)
  const message = noticeSentence(
    RESCHEDULE,
    contest.name,
    platform,
    `at ${formatTime(contest.startTime)}`,
  )
  const dueNow = (leadMinutes: number): NotificationSpec => {
    const base = reminderSpec(contest, now, leadMinutes)
    return {
      ...base,
      title: RESCHEDULE.title(contest.name, `starts ${formatUntil(contest.startTime - now)}`),
      message,
      payload: { ...base.payload, kind: RESCHEDULE.name },
      scheduledAt: now,
    }
  }
  const later: NotificationSpec = {
    contestId: contest.id,
    type: 'SYSTEM_ALERT',
    dedupeKey: `rescheduled:${contest.startTime}`,
    title: `Rescheduled: ${contest.name}`,
    message,
    payload: {
      ...reminderPayload(contest),
      kind: RESCHEDULE.name,
      startTime: toIso(contest.startTime),
    },
    channels: ALL_CHANNELS,
    scheduledAt: now,
  }
  return { dueNow, later }
}
