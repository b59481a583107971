// Contest events (created, starting, finished) built from contest rows as the API renders them.
import { toApiContest } from '../contests/serialize.ts'
import type { ContestRow } from '../db/schema.ts'
import { emitWebhookEventsSafely, type WebhookBindings } from './emit.ts'
import type { WebhookEvent } from './events.ts'

type ContestEventType = 'contest.created' | 'contest.starting' | 'contest.finished'

/**
 * A contest starts (or finishes) once per start (end) time: a rescheduled contest is a new
 * occurrence, a second detection of the same one is not.
 */
export function contestEvent(type: ContestEventType, row: ContestRow, now: number): WebhookEvent {
  const occurrence =
    type === 'contest.starting' ? row.startTime : type === 'contest.finished' ? row.endTime : ''
  return { type, subject: row.id, occurrence, data: toApiContest(row, now) }
}

/**
 * contest.created for contests just added by an admin or a sync. Never throws: the contests are
 * stored by then, and the write must not answer 500 because a webhook could not be queued.
 */
export async function emitContestCreated(
  env: WebhookBindings,
  rows: ContestRow[],
  now: number,
): Promise<void> {
  await emitWebhookEventsSafely(
    env,
    rows.map((row) => contestEvent('contest.created', row, now)),
    now,
  )
}
