// A pressed snooze: one more reminder of the contest for the person, 10 minutes before its start,
// made as the scheduler makes a reminder (the same spec, the same statements, the same queue), so
// it goes out on the person's channels at its time. It is the reminder of the 10-minute lead
// time: its unique key makes a second press (on any channel, or at once) and the scheduler's own
// 10-minute reminder one and the same notification.
import { findContest } from '../../contests/queries.ts'
import type { ContestRow } from '../../db/schema.ts'
import { toIso } from '../../lib/time.ts'
import { formatUntil } from '../../lib/time-words.ts'
import { joinUserSql, LIVE_RECIPIENT_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { reminderSpec } from '../kinds/reminder.ts'
import { SNOOZE_LEAD_MINUTES, SNOOZE_LEAD_MS, type SnoozeClaim } from '../snooze-link.ts'
import { createNotifications, fanOutContext } from './fan-out.ts'

export type SnoozeOutcome =
  /** Made now; `created` false when it already existed (a second press, the user's own lead). */
  | { kind: 'snoozed'; created: boolean; contest: ContestRow; remindAt: number }
  | { kind: 'started'; contest: ContestRow }
  | { kind: 'too-close'; contest: ContestRow; untilStartMs: number }
  | { kind: 'contest-gone' }
  | { kind: 'account-gone' }
  /** No channel of the person's can carry it (all switched off, or none reachable). */
  | { kind: 'unreachable'; contest: ContestRow }

const LIVE_SQL = `SELECT 1 AS live FROM (SELECT ?1 AS id) x ${joinUserSql('x.id')}
  WHERE ${LIVE_RECIPIENT_SQL}`

// Through the contents' (contest, type, key) index and the notifications' (contest, user, content).
const MADE_SQL = `SELECT n.scheduled_at AS scheduledAt FROM notification_contents k
  JOIN notifications n ON n.contest_id = k.contest_id AND n.user_id = ?2 AND n.content_id = k.id
  WHERE k.contest_id = ?1 AND k.type = 'CONTEST_REMINDER' AND k.dedupe_key = ?3`

async function madeAt(n: Notifier, userId: string, contestId: string, key: string) {
  const row = await n.d1
    .prepare(MADE_SQL)
    .bind(contestId, userId, key)
    .first<{ scheduledAt: number | null }>()
  return row ? (row.scheduledAt ?? undefined) : null
}

export async function snoozeReminder(
  n: Notifier,
  { userId, contestId }: SnoozeClaim,
  now: number,
): Promise<SnoozeOutcome> {
  const [contest, live] = await Promise.all([
    findContest(n.db, contestId),
    n.d1.prepare(LIVE_SQL).bind(userId).first(),
  ])
  if (!live) return { kind: 'account-gone' }
  if (!contest || !contest.isActive) return { kind: 'contest-gone' }
  if (contest.startTime <= now) return { kind: 'started', contest }
  if (contest.startTime - now < SNOOZE_LEAD_MS) {
    return { kind: 'too-close', contest, untilStartMs: contest.startTime - now }
  }
  const spec = reminderSpec(contest, now, SNOOZE_LEAD_MINUTES)
  const remindAt = spec.scheduledAt ?? now
  const before = await madeAt(n, userId, contest.id, spec.dedupeKey)
  if (before !== null) return { kind: 'snoozed', created: false, contest, remindAt: before ?? now }
  const page = await createNotifications(fanOutContext(n, now), [{ spec, userIds: [userId] }])
  // Only the press whose insert made the deliveries enqueues them: a concurrent one found the
  // row taken (ON CONFLICT DO NOTHING) and gets none back.
  if (page.toQueue.length > 0) {
    await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now, {
      delaySeconds: Math.ceil((remindAt - now) / 1000),
    })
  }
  if (page.created > 0) return { kind: 'snoozed', created: true, contest, remindAt }
  const raced = await madeAt(n, userId, contest.id, spec.dedupeKey)
  if (raced !== null) return { kind: 'snoozed', created: false, contest, remindAt: raced ?? now }
  return { kind: 'unreachable', contest }
}

/** The outcome in words, the same on every channel (Telegram shows at most 200 characters). */
export function snoozeWords(outcome: SnoozeOutcome): string {
  const name = 'contest' in outcome ? clip(outcome.contest.name) : ''
  switch (outcome.kind) {
    case 'snoozed':
      return outcome.created
        ? `Done: a reminder of ${name} comes ${SNOOZE_LEAD_MINUTES} minutes before it starts.`
        : `A reminder of ${name} ${SNOOZE_LEAD_MINUTES} minutes before it starts is already set.`
    case 'started':
      return `${name} has already started: too late for a reminder before it.`
    case 'too-close':
      return (
        `${name} starts ${formatUntil(outcome.untilStartMs)}, less than ` +
        `${SNOOZE_LEAD_MINUTES} minutes away: too late for a reminder ${SNOOZE_LEAD_MINUTES} minutes before.`
      )
    case 'contest-gone':
      return 'This contest is no longer in the catalogue.'
    case 'account-gone':
      return 'The account this reminder was sent to no longer exists.'
    case 'unreachable':
      return `None of your channels can carry a reminder of ${name}: turn one on in your settings.`
  }
}

// A name long enough to crowd out the rest is cut.
const clip = (name: string) => (name.length > 100 ? `${name.slice(0, 99)}…` : name)

/** The outcome as the API's JSON (the snooze link's POST), remindAt as an ISO string. */
export function snoozeJson(outcome: Extract<SnoozeOutcome, { kind: 'snoozed' }>) {
  return {
    snoozed: true as const,
    created: outcome.created,
    contestId: outcome.contest.id,
    remindAt: toIso(outcome.remindAt),
    message: snoozeWords(outcome),
  }
}
