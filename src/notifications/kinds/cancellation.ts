// The cancellation notice: a contest still to come that its platform stopped listing, told to
// those who follow it or were already reminded of it (a SYSTEM_ALERT rendered as a cancellation).
import { platformName } from '../../contests/describe.ts'
import type { ContestRow } from '../../db/schema.ts'
import { toIso } from '../../lib/time.ts'
import { ALL_CHANNELS, type NotificationSpec } from '../spec.ts'
import { contestNoticeKind, noticeSentence, type NoticeWording } from './contest-notice.ts'
import { reminderPayload } from './reminder.ts'
import { formatTime } from '../../lib/time-words.ts'

const CANCELLATION: NoticeWording = {
  name: 'cancellation',
  title: (name) => `Cancelled: ${name}`,
  verb: 'has been cancelled. It was to start',
}

export const cancellationKind = contestNoticeKind(CANCELLATION)

/** One notice per user for the start the contest had (`startTime`), whatever runs repeat it. */
export function cancellationSpec(contest: ContestRow, startTime: number, now: number) {
  const spec: NotificationSpec = {
    contestId: contest.id,
    type: 'SYSTEM_ALERT',
    dedupeKey: `cancelled:${startTime}`,
    title: CANCELLATION.title(contest.name, ''),
    message: noticeSentence(
      CANCELLATION,
      contest.name,
      platformName(contest.platform),
      `at ${formatTime(startTime)}`,
    ),
    payload: { ...reminderPayload(contest), kind: CANCELLATION.name, startTime: toIso(startTime) },
    channels: ALL_CHANNELS,
    scheduledAt: now,
  }
  return spec
}
