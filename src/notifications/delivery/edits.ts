// A person's reminders that follow their contest: when the scheduler handles a contest's
// reschedule or cancellation, every reminder of it a Telegram chat or a Discord webhook received
// (SENT, with the provider's message id) and that says otherwise gets one edit (notification_edits,
// keyed by what the message will say and how many edits came before, so racing runs and retries
// make it once), besides the notice that goes out. The edits ride the notifications queue as
// `{ notificationEditId }`, claimed and retried as deliveries are; a 429 waits its retry_after.
import { changeTelegramMessage, NOTHING_TO_CHANGE } from '../../channels/telegram/bot-api.ts'
import { telegram } from '../../channels/telegram/index.ts'
import { telegramSlot } from '../../channels/telegram/pace.ts'
import { discord } from '../../channels/discord/index.ts'
import { editDiscordWebhookMessage } from '../../channels/discord/webhook.ts'
import { changedContestText, changeSequence, contestSaid } from '../../contests/change-words.ts'
import { findContest } from '../../contests/queries.ts'
import type { ContestRow } from '../../db/schema.ts'
import {
  failGivenUp,
  GAVE_UP_SQL,
  settleClaimed,
  unclaimed,
  type ClaimedOutcome,
} from '../../lib/settle-claimed.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import type { QueueProducer } from '../../ports/queue.ts'
import { findUser } from '../../users/queries.ts'
import type { Notifier } from '../context.ts'

/** The body of a reminder's edit on the notifications queue. */
export interface NotificationEditMessage {
  notificationEditId: string
}

export const isNotificationEditMessage = (body: unknown): body is NotificationEditMessage =>
  typeof (body as NotificationEditMessage | null)?.notificationEditId === 'string'

const CLAIM_MS = 2 * MINUTE_MS
const STRANDED_AFTER_MS = 10 * MINUTE_MS
// Edits made per statement: a contest many were reminded of is edited a page at a time.
const EDITS_PER_STATEMENT = 2000
// The channels whose messages can be edited after they were sent.
const EDITABLE = `('telegram', 'discord')`

// ?1 the contest, ?2 what the messages should say, ?3 its start (NULL: cancelled), ?4 now. What a
// message says now is its newest edit's target, else the start its reminder was for (the key's
// first part); the edit's key counts the edits before it.
export const EDITS_SQL = `INSERT INTO notification_edits
    (id, delivery_id, change_key, start_time, created_at, updated_at)
  SELECT lower(hex(randomblob(12))), s.id, ?2 || '#' || s.edits, ?3, ?4, ?4 FROM (
    SELECT d.id,
      coalesce(
        (SELECT substr(x.change_key, 1, instr(x.change_key, '#') - 1) FROM notification_edits x
          WHERE x.delivery_id = d.id
          ORDER BY CAST(substr(x.change_key, instr(x.change_key, '#') + 1) AS INTEGER) DESC
          LIMIT 1),
        'start:' || CAST(substr(coalesce(c.dedupe_key, n.dedupe_key), 1,
          instr(coalesce(c.dedupe_key, n.dedupe_key), ':') - 1) AS INTEGER)) AS said,
      (SELECT count(*) FROM notification_edits x WHERE x.delivery_id = d.id) AS edits
    FROM notifications n
      LEFT JOIN notification_contents c ON c.id = n.content_id
      JOIN notification_deliveries d ON d.notification_id = n.id
    WHERE n.contest_id = ?1 AND n.type = 'CONTEST_REMINDER'
      AND d.channel IN ${EDITABLE} AND d.status = 'SENT'
      AND d.provider_message_id IS NOT NULL
  ) s
  WHERE s.said <> ?2
  LIMIT ${EDITS_PER_STATEMENT}
  ON CONFLICT DO NOTHING
  RETURNING id`

const STRANDED_SQL = `SELECT id FROM notification_edits
  WHERE queued_at IS NULL AND created_at < ?1 LIMIT 1000`

const MARK_QUEUED_SQL = `UPDATE notification_edits SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

const CLAIM_SQL = `UPDATE notification_edits
  SET claimed_until = ?2, attempts = attempts + 1, updated_at = ?3
  WHERE id = ?1 AND status IN ('PENDING', 'RETRYING') AND coalesce(claimed_until, 0) < ?3
  RETURNING delivery_id AS deliveryId, change_key AS changeKey, start_time AS startTime,
    retry_count AS retryCount`

const HELD_SQL = `SELECT claimed_until AS claimedUntil FROM notification_edits
  WHERE id = ?1 AND status = 'RETRYING' AND claimed_until >= ?2`

const RECORD_SQL = `UPDATE notification_edits
  SET status = ?2, error = ?3, retry_count = retry_count + ?4, claimed_until = ?5, updated_at = ?6
  WHERE id = ?1`

const DELIVERY_SQL = `SELECT d.channel, d.provider_message_id AS messageId, n.user_id AS userId,
    n.contest_id AS contestId
  FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
  WHERE d.id = ?1`

const SUPERSEDED_SQL = `SELECT 1 AS later FROM notification_edits
  WHERE delivery_id = ?1 AND CAST(substr(change_key, instr(change_key, '#') + 1) AS INTEGER) > ?2
  LIMIT 1`

async function enqueue(queue: QueueProducer, d1: D1Database, ids: readonly string[], now: number) {
  for (let i = 0; i < ids.length; i += 100) {
    const page = ids.slice(i, i + 100)
    await queue.sendBatch(
      page.map((id) => ({ body: { notificationEditId: id } satisfies NotificationEditMessage })),
    )
    await d1.prepare(MARK_QUEUED_SQL).bind(now, JSON.stringify(page)).run()
  }
}

/**
 * The edits of the contest's reminders that say otherwise than it does now (a new start, or
 * cancelled), made once and queued; how many.
 */
export async function editReminders(n: Notifier, contest: ContestRow, now: number) {
  const said = contestSaid(contest)
  const start = said === 'cancelled' ? null : contest.startTime
  let made = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(EDITS_SQL)
      .bind(contest.id, said, start, now)
      .all<{ id: string }>()
    await enqueue(
      n.queue,
      n.d1,
      results.map((r) => r.id),
      now,
    )
    made += results.length
    if (results.length < EDITS_PER_STATEMENT) return made
  }
}

/** Edits a run that died left unqueued, queued again; how many. */
export async function requeueStrandedEdits(n: Notifier, now: number) {
  const { results } = await n.d1
    .prepare(STRANDED_SQL)
    .bind(now - STRANDED_AFTER_MS)
    .all<{ id: string }>()
  await enqueue(
    n.queue,
    n.d1,
    results.map((r) => r.id),
    now,
  )
  return results.length
}

type Answer =
  | { kind: 'done'; note?: string }
  | { kind: 'retry'; error: string; retryAfterSeconds?: number }
  | { kind: 'failed'; error: string }

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

/** The edit through the channel the reminder went by, to where the person is now. */
async function call(
  n: Notifier,
  channel: string,
  to: string,
  messageId: string,
  text: ReturnType<typeof changedContestText>,
): Promise<Answer> {
  if (channel === 'telegram') {
    const wait = await telegramSlot(n.env)
    if (wait !== undefined) {
      return { kind: 'retry', error: 'Waiting for the bot’s pace', retryAfterSeconds: wait }
    }
    const words = telegram.render(text)
    const r = await changeTelegramMessage(n.env, {
      chatId: to,
      messageId,
      text: words.text,
      ...(words.buttons && { buttons: words.buttons }),
    })
    if (r.ok) return { kind: 'done' }
    const error = r.error ?? 'Telegram refused the edit'
    if (NOTHING_TO_CHANGE.test(error)) return { kind: 'done', note: error }
    if (r.transient) return { kind: 'retry', error, retryAfterSeconds: r.retryAfterSeconds }
    return { kind: 'failed', error }
  }
  const r = await editDiscordWebhookMessage(n.env, {
    webhookUrl: to,
    messageId,
    message: discord.render(text),
  })
  if (r.ok) return { kind: 'done' }
  const error = r.error ?? 'Discord refused the edit'
  // Unknown Message or Unknown Webhook: deleted by hand; nothing left to edit.
  if (r.unknownWebhook) return { kind: 'done', note: error }
  if (r.transient) return { kind: 'retry', error, retryAfterSeconds: r.retryAfterSeconds }
  return { kind: 'failed', error }
}

/** Edits one reminder, once; what the queue message should do next. */
export async function sendNotificationEdit(
  n: Notifier,
  id: string,
  now: number,
): Promise<ClaimedOutcome> {
  const claimed = await n.d1
    .prepare(CLAIM_SQL)
    .bind(id, now + CLAIM_MS, now)
    .first<{
      deliveryId: string
      changeKey: string
      startTime: number | null
      retryCount: number
    }>()
  if (!claimed) return unclaimed(n.d1.prepare(HELD_SQL).bind(id, now), now)
  const delivery = await n.d1.prepare(DELIVERY_SQL).bind(claimed.deliveryId).first<{
    channel: string
    messageId: string | null
    userId: string
    contestId: string | null
  }>()
  const user = delivery && (await findUser(n.db, delivery.userId))
  // The chat or webhook the message went to: a chat linked again elsewhere has no such message,
  // which Telegram answers as one not found.
  const to = delivery?.channel === 'telegram' ? user?.telegramChatId : user?.discordWebhookUrl
  if (!delivery?.messageId || !to) {
    await record(n.d1, id, 'FAILED', { error: 'The chat is no longer linked' }, now)
    return { done: true }
  }
  const later = await n.d1
    .prepare(SUPERSEDED_SQL)
    .bind(claimed.deliveryId, changeSequence(claimed.changeKey))
    .first()
  if (later) {
    await record(n.d1, id, 'DONE', { error: 'A later edit replaced it' }, now)
    return { done: true }
  }
  const contest = delivery.contestId ? await findContest(n.db, delivery.contestId) : undefined
  const text = changedContestText(contest, claimed.startTime, id, now)
  const calledAt = Date.now()
  const answer = await call(n, delivery.channel, to, delivery.messageId, text).catch(
    (error: unknown): Answer => ({ kind: 'retry', error: `Edit failed: ${error}` }),
  )
  if (answer.kind === 'done') {
    await record(n.d1, id, 'DONE', { error: answer.note }, now)
    return { done: true }
  }
  // A 429 comes back when its retry_after says (Telegram bans a bot that comes early).
  const transient = answer.kind === 'retry'
  const retryAfterSeconds = transient ? answer.retryAfterSeconds : undefined
  return settleClaimed(
    { error: answer.error, transient, retryAfterSeconds },
    { retryCount: claimed.retryCount, calledAt },
    (status, r) => record(n.d1, id, status, r, now),
    now,
  )
}

/** Records the edits the queue gave up on as FAILED. */
export async function failNotificationEdits(d1: D1Database, ids: readonly string[], now: number) {
  await failGivenUp(d1.prepare(`UPDATE notification_edits ${GAVE_UP_SQL}`), ids, now)
}
