// The words a message already posted about a contest is edited to when the contest moved or was
// cancelled: a community's announcement and a person's reminder alike (the same channel renders).
import type { ChannelText } from '../channels/define.ts'
import type { ContestRow } from '../db/schema.ts'
import { formatTime } from '../lib/time-words.ts'
import { contestUrl, formatDuration, platformName } from './describe.ts'

/**
 * The message's new words: the contest's new start (`start`), or that it is cancelled (null). No
 * time left until the start: an edited message stays as it is, so it says when, not how soon.
 */
export function changedContestText(
  contest: ContestRow | undefined,
  start: number | null,
  reference: string,
  now: number,
): ChannelText {
  const name = contest?.name ?? 'This contest'
  const on = contest ? ` on ${platformName(contest.platform)}` : ''
  const text: ChannelText =
    start === null
      ? {
          notificationId: reference,
          type: 'CONTEST_CANCELLED',
          headline: `Cancelled: ${name}`,
          summary: `${name}${on} was cancelled: it is no longer listed.`,
          now,
        }
      : {
          notificationId: reference,
          type: 'CONTEST_RESCHEDULED',
          headline: `${name} moved: it starts ${formatTime(start)}`,
          summary:
            `${name}${on} now starts at ${formatTime(start)}` +
            (contest ? ` and lasts ${formatDuration(contest.durationMinutes)}.` : '.'),
          startTime: start,
          now,
        }
  const url = contest && contestUrl(contest)
  return url && contest ? { ...text, url, contestId: contest.id } : text
}

/** What a posted message says of its contest: when it starts, or that it is cancelled. */
export type ContestSaid = `start:${number}` | 'cancelled'

export const contestSaid = (contest: ContestRow | undefined): ContestSaid =>
  !contest || !contest.isActive ? 'cancelled' : `start:${contest.startTime}`

/**
 * An edit's key, `<what it says>#<edits before it>`: racing runs make the same key once, and a
 * contest moved back to a time it had is edited again (its key has a higher count).
 */
export const changeKey = (said: ContestSaid, editsBefore: number) => `${said}#${editsBefore}`

/** The count part of a change key, to tell a later edit from an earlier one. */
export const changeSequence = (key: string) => Number(key.slice(key.indexOf('#') + 1))
