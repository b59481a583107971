// Announcements that follow their contest: each half-hourly run compares the messages the
// destinations received (SENT, with the provider's message id) with their contests, and a contest
// that moved or was cancelled since gets one edit of each (community_message_changes, keyed by what
// the message will say and how many edits came before, so racing runs make it once); a
// destination with cleanup on gets each message deleted soon after its contest ends. The rows ride
// the notifications queue as `{ communityChangeId }`, claimed, paced and retried (a 429 waits its
// retry_after) as announcements are (deliver.ts).
import { telegram } from '../channels/telegram/index.ts'
import {
  changeTelegramMessage,
  NOTHING_TO_CHANGE,
  TOPIC_GONE,
  type TelegramResult,
} from '../channels/telegram/bot-api.ts'
import { telegramSlot } from '../channels/telegram/pace.ts'
import { discord } from '../channels/discord/index.ts'
import {
  deleteChannelMessage,
  editChannelMessage,
  type GuildAnswer,
} from '../channels/discord/guild-api.ts'
import type { ChannelText } from '../channels/define.ts'
import {
  changedContestText,
  changeKey,
  changeSequence,
  contestSaid,
} from '../contests/change-words.ts'
import { findContestsByIds } from '../contests/notified.ts'
import { findContest } from '../contests/queries.ts'
import type { CommunityDestinationRow, ContestRow } from '../db/schema.ts'
import { MINUTE_MS } from '../lib/time.ts'
import {
  failGivenUp,
  GAVE_UP_SQL,
  MAX_DELAY_SECONDS,
  settleClaimed,
  unclaimed,
  type ClaimedOutcome,
} from '../lib/settle-claimed.ts'
import type { QueueProducer } from '../ports/queue.ts'
import type { AnnouncementDeps } from './deliver.ts'
import { findDestinationById, markDead } from './destinations.ts'
import { tellOwner } from './owner-notice.ts'
import { paceWait } from './pace.ts'

/** The body of a message change on the notifications queue. */
export interface CommunityChangeMessage {
  communityChangeId: string
}

export const isCommunityChangeMessage = (body: unknown): body is CommunityChangeMessage =>
  typeof (body as CommunityChangeMessage | null)?.communityChangeId === 'string'

const DAY_MS = 24 * 60 * MINUTE_MS
// Messages followed: those sent in the last two weeks (a week's lead time and a long contest).
const FOLLOWED_MS = 14 * DAY_MS
const FOLLOWED_PER_RUN = 2000
// The scheduler's period: a contest ending before the next run is deleted at its end.
const PERIOD_MS = 30 * MINUTE_MS
const CLAIM_MS = 2 * MINUTE_MS
const STRANDED_AFTER_MS = 10 * MINUTE_MS

// What each followed message says now: the newest edit's target, else the start it was sent for
// (the dedupe key's first part), with the edits made so far, and whether its deletion is made.
export const FOLLOWED_SQL = `SELECT a.id, a.contest_id AS contestId,
    CAST(substr(a.dedupe_key, 1, instr(a.dedupe_key, ':') - 1) AS INTEGER) AS sentStart,
    d.cleanup AS cleanup,
    (SELECT x.change_key FROM community_message_changes x
      WHERE x.announcement_id = a.id AND x.kind = 'edit'
      ORDER BY CAST(substr(x.change_key, instr(x.change_key, '#') + 1) AS INTEGER) DESC
      LIMIT 1) AS lastEdit,
    (SELECT count(*) FROM community_message_changes x
      WHERE x.announcement_id = a.id AND x.kind = 'edit') AS edits,
    EXISTS (SELECT 1 FROM community_message_changes x
      WHERE x.announcement_id = a.id AND x.kind = 'delete') AS deleting
  FROM community_announcements a JOIN community_destinations d ON d.id = a.destination_id
  WHERE a.status = 'SENT' AND a.provider_message_id IS NOT NULL AND a.sent_at > ?1
    AND d.dead_at IS NULL
  ORDER BY a.sent_at DESC LIMIT ${FOLLOWED_PER_RUN}`

const MAKE_SQL = `INSERT INTO community_message_changes
    (id, announcement_id, change_key, kind, start_time, due_at, created_at, updated_at)
  SELECT lower(hex(randomblob(12))), value ->> 0, value ->> 1, value ->> 2, value ->> 3,
      value ->> 4, ?1, ?1
    FROM json_each(?2) WHERE true
  ON CONFLICT DO NOTHING
  RETURNING id, due_at AS dueAt`

const STRANDED_SQL = `SELECT id, due_at AS dueAt FROM community_message_changes
  WHERE queued_at IS NULL AND created_at < ?1 LIMIT 1000`

const MARK_QUEUED_SQL = `UPDATE community_message_changes SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

const CLAIM_SQL = `UPDATE community_message_changes
  SET claimed_until = ?2, attempts = attempts + 1, updated_at = ?3
  WHERE id = ?1 AND status IN ('PENDING', 'RETRYING') AND coalesce(claimed_until, 0) < ?3
  RETURNING announcement_id AS announcementId, kind, change_key AS changeKey,
    start_time AS startTime, retry_count AS retryCount`

const RELEASE_SQL = `UPDATE community_message_changes
  SET claimed_until = NULL, attempts = attempts - 1, updated_at = ?2 WHERE id = ?1`

const HELD_SQL = `SELECT claimed_until AS claimedUntil FROM community_message_changes
  WHERE id = ?1 AND status = 'RETRYING' AND claimed_until >= ?2`

const RECORD_SQL = `UPDATE community_message_changes
  SET status = ?2, error = ?3, retry_count = retry_count + ?4, claimed_until = ?5, updated_at = ?6
  WHERE id = ?1`

const ANNOUNCEMENT_SQL = `SELECT destination_id AS destinationId, contest_id AS contestId,
    provider_message_id AS messageId FROM community_announcements WHERE id = ?1`

// A later edit of the same message was made: this one would only show an older change.
const SUPERSEDED_SQL = `SELECT 1 AS later FROM community_message_changes
  WHERE announcement_id = ?1 AND kind = 'edit'
    AND CAST(substr(change_key, instr(change_key, '#') + 1) AS INTEGER) > ?2 LIMIT 1`

interface Followed {
  id: string
  contestId: string | null
  sentStart: number
  cleanup: number
  lastEdit: string | null
  edits: number
  deleting: number
}

/** The changes a followed message is due now: [announcement, key, kind, start, due]. */
function changesOf(f: Followed, contest: ContestRow | undefined, now: number) {
  const rows: [string, string, 'edit' | 'delete', number | null, number][] = []
  const wanted = contestSaid(contest)
  const says = f.lastEdit ? f.lastEdit.slice(0, f.lastEdit.indexOf('#')) : `start:${f.sentStart}`
  // A contest moved to a start still to come, or cancelled: the message says so.
  if (wanted !== says && (wanted === 'cancelled' || contest!.startTime > now)) {
    const start = wanted === 'cancelled' ? null : contest!.startTime
    rows.push([f.id, changeKey(wanted, f.edits), 'edit', start, now])
  }
  // Deleted at the end (Telegram deletes only messages younger than 48 hours: soon after it).
  if (f.cleanup && !f.deleting && contest?.isActive && contest.endTime <= now + PERIOD_MS) {
    rows.push([f.id, 'delete', 'delete', null, Math.max(now, contest.endTime)])
  }
  return rows
}

async function enqueue(
  d1: D1Database,
  queue: QueueProducer,
  rows: readonly { id: string; dueAt: number }[],
  now: number,
) {
  for (let i = 0; i < rows.length; i += 100) {
    const page = rows.slice(i, i + 100)
    await queue.sendBatch(
      page.map((r) => ({
        body: { communityChangeId: r.id } satisfies CommunityChangeMessage,
        delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((r.dueAt - now) / 1000))),
      })),
    )
    await d1
      .prepare(MARK_QUEUED_SQL)
      .bind(now, JSON.stringify(page.map((r) => r.id)))
      .run()
  }
}

/**
 * The scheduler's step after the announcements: the edits and deletions due, made once and
 * queued, and those a run that died left unqueued. Counts for the job's log line.
 */
export async function scheduleMessageChanges(
  deps: Pick<AnnouncementDeps, 'db' | 'd1'>,
  queue: QueueProducer,
  now: number,
) {
  const { results: followed } = await deps.d1
    .prepare(FOLLOWED_SQL)
    .bind(now - FOLLOWED_MS)
    .all<Followed>()
  const ids = [...new Set(followed.flatMap((f) => (f.contestId ? [f.contestId] : [])))]
  const contests = new Map((await findContestsByIds(deps.db, ids)).map((c) => [c.id, c]))
  const due = followed.flatMap((f) =>
    changesOf(f, f.contestId ? contests.get(f.contestId) : undefined, now),
  )
  const made: { id: string; dueAt: number }[] = []
  for (let i = 0; i < due.length; i += 500) {
    const { results } = await deps.d1
      .prepare(MAKE_SQL)
      .bind(now, JSON.stringify(due.slice(i, i + 500)))
      .all<{ id: string; dueAt: number }>()
    made.push(...results)
  }
  const { results: stranded } = await deps.d1
    .prepare(STRANDED_SQL)
    .bind(now - STRANDED_AFTER_MS)
    .all<{ id: string; dueAt: number }>()
  await enqueue(deps.d1, queue, [...made, ...stranded], now)
  return { messageChangesMade: made.length, messageChangesRequeued: stranded.length }
}

/** A change's answer in the words of the outcome: done, nothing to do, gone, wait or give up. */
type Answer =
  | { kind: 'done'; note?: string }
  | { kind: 'dead'; error: string }
  | { kind: 'retry'; error: string; retryAfterSeconds?: number }
  | { kind: 'failed'; error: string }

function fromTelegram(r: TelegramResult): Answer {
  if (r.ok) return { kind: 'done' }
  const error = r.error ?? 'Telegram refused the change'
  // Already as asked, deleted by someone, or too old (48 hours) to delete: nothing left to do.
  if (NOTHING_TO_CHANGE.test(error)) return { kind: 'done', note: error }
  if (r.blocked || TOPIC_GONE.test(error) || /chat not found/i.test(error)) {
    return { kind: 'dead', error }
  }
  if (r.transient) return { kind: 'retry', error, retryAfterSeconds: r.retryAfterSeconds }
  return { kind: 'failed', error }
}

function fromDiscord(a: GuildAnswer): Answer {
  if (a.ok) return { kind: 'done' }
  // Unknown Message (10008): deleted by hand; nothing left to change.
  if (a.kind === 'unknown') return { kind: 'done', note: a.error }
  if (a.kind === 'rate-limited' || a.kind === 'transient') {
    return { kind: 'retry', error: a.error, retryAfterSeconds: a.retryAfterSeconds }
  }
  return { kind: 'failed', error: a.error }
}

async function call(
  deps: AnnouncementDeps,
  d: CommunityDestinationRow,
  messageId: string,
  change: { kind: 'edit' | 'delete'; text?: ChannelText },
): Promise<Answer> {
  if (d.channel === 'telegram') {
    // The bot's pace over all its chats holds for an edit as for a send.
    const wait = await telegramSlot(deps.env)
    if (wait !== undefined) {
      return { kind: 'retry', error: 'Waiting for the bot’s pace', retryAfterSeconds: wait }
    }
    const words = change.text && telegram.render(change.text)
    const answer = await changeTelegramMessage(deps.env, {
      chatId: d.chatId,
      messageId,
      ...(words && { text: words.text, ...(words.buttons && { buttons: words.buttons }) }),
    })
    return fromTelegram(answer)
  }
  if (!change.text) return fromDiscord(await deleteChannelMessage(deps.env, d.chatId, messageId))
  const { embeds } = discord.render(change.text)
  const edit = { embeds, allowed_mentions: { parse: [] } }
  return fromDiscord(await editChannelMessage(deps.env, d.chatId, messageId, edit))
}

async function record(
  d1: D1Database,
  id: string,
  status: 'DONE' | 'FAILED' | 'RETRYING',
  r: { error?: string | null; retried?: boolean; heldUntil?: number },
  now: number,
) {
  await d1
    .prepare(RECORD_SQL)
    .bind(id, status, r.error ?? null, r.retried ? 1 : 0, r.heldUntil ?? null, now)
    .run()
}

/** Edits or deletes one posted message, once; what the queue message should do next. */
export async function sendMessageChange(
  deps: AnnouncementDeps,
  id: string,
  now: number,
): Promise<ClaimedOutcome> {
  const claimed = await deps.d1
    .prepare(CLAIM_SQL)
    .bind(id, now + CLAIM_MS, now)
    .first<{
      announcementId: string
      kind: 'edit' | 'delete'
      changeKey: string
      startTime: number | null
      retryCount: number
    }>()
  if (!claimed) return unclaimed(deps.d1.prepare(HELD_SQL).bind(id, now), now)
  const announcement = await deps.d1
    .prepare(ANNOUNCEMENT_SQL)
    .bind(claimed.announcementId)
    .first<{ destinationId: string; contestId: string | null; messageId: string | null }>()
  const destination =
    announcement && (await findDestinationById(deps.db, announcement.destinationId))
  const refusal = !destination
    ? 'The destination was removed'
    : destination.deadAt !== null
      ? `The destination is dead: ${destination.deadReason ?? 'unknown'}`
      : !announcement?.messageId
        ? 'The announcement has no message id'
        : undefined
  if (refusal || !destination || !announcement?.messageId) {
    await record(deps.d1, id, 'FAILED', { error: refusal }, now)
    return { done: true }
  }
  if (claimed.kind === 'edit') {
    const later = await deps.d1
      .prepare(SUPERSEDED_SQL)
      .bind(claimed.announcementId, changeSequence(claimed.changeKey))
      .first()
    if (later) {
      await record(deps.d1, id, 'DONE', { error: 'A later edit replaced it' }, now)
      return { done: true }
    }
  }
  const wait = await paceWait(deps.env, destination, now)
  if (wait > 0) {
    await deps.d1.prepare(RELEASE_SQL).bind(id, now).run()
    return { done: false, waiting: true, delaySeconds: wait }
  }
  const contest = announcement.contestId
    ? await findContest(deps.db, announcement.contestId)
    : undefined
  const text =
    claimed.kind === 'edit' ? changedContestText(contest, claimed.startTime, id, now) : undefined
  const calledAt = Date.now()
  const answer = await call(deps, destination, announcement.messageId, {
    kind: claimed.kind,
    text,
  }).catch((error: unknown): Answer => ({ kind: 'retry', error: `Change failed: ${error}` }))
  if (answer.kind === 'done') {
    await record(deps.d1, id, 'DONE', { error: answer.note }, now)
    return { done: true }
  }
  if (answer.kind === 'dead') {
    await record(deps.d1, id, 'FAILED', { error: answer.error }, now)
    const dead = await markDead(deps.db, destination.id, answer.error, now)
    if (dead?.ownerId) await tellOwner(deps.env, deps.db, dead)
    return { done: true }
  }
  // A 429 comes back when its retry_after says, as an announcement does.
  const transient = answer.kind === 'retry'
  const retryAfterSeconds = transient ? answer.retryAfterSeconds : undefined
  return settleClaimed(
    { error: answer.error, transient, retryAfterSeconds },
    { retryCount: claimed.retryCount, calledAt },
    (status, r) => record(deps.d1, id, status, r, now),
    now,
  )
}

/** Records the changes the queue gave up on as FAILED. */
export async function failMessageChanges(d1: D1Database, ids: readonly string[], now: number) {
  await failGivenUp(d1.prepare(`UPDATE community_message_changes ${GAVE_UP_SQL}`), ids, now)
}
