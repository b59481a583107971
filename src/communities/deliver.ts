// Sends community announcements from the notifications queue, one per message: claimed so a
// redelivered message does not post twice, rendered by the channel's module, posted with the bot
// (Telegram's Bot API, Discord's bot token), recorded; a transient failure is retried with the
// policy of personal reminders, and a chat the bot can never post to again marks the destination
// dead, its owner told once.
import { discord } from '../channels/discord/index.ts'
import { postChannelMessage } from '../channels/discord/bot-api.ts'
import { notSent, type ChannelText, type SendResult } from '../channels/define.ts'
import { TOPIC_GONE } from '../channels/telegram/bot-api.ts'
import { telegram } from '../channels/telegram/index.ts'
import { contestUrl, formatDuration, platformName } from '../contests/describe.ts'
import type { Env } from '../env.ts'
import { formatTime, formatUntil } from '../lib/time-words.ts'
import { MINUTE_MS } from '../lib/time.ts'
import {
  failGivenUp,
  GAVE_UP_SQL,
  settleClaimed,
  unclaimed,
  type ClaimedOutcome,
} from '../lib/settle-claimed.ts'
import type { CommunityDestinationRow, ContestRow } from '../db/schema.ts'
import { findContest } from '../contests/queries.ts'
import type { Db } from '../db/client.ts'
import { findDestinationById, markDead, moveChat } from './destinations.ts'
import { tellOwner } from './owner-notice.ts'
import { paceWait } from './pace.ts'
import { announcementPings } from './roles.ts'

// A send holds its announcement this long; a duplicate message meanwhile leaves it alone.
const CLAIM_MS = 2 * MINUTE_MS

const CLAIM_SQL = `UPDATE community_announcements
  SET claimed_until = ?2, attempts = attempts + 1, updated_at = ?3
  WHERE id = ?1 AND status IN ('PENDING', 'RETRYING') AND coalesce(claimed_until, 0) < ?3
  RETURNING destination_id AS destinationId, contest_id AS contestId, retry_count AS retryCount`

const RELEASE_SQL = `UPDATE community_announcements
  SET claimed_until = NULL, attempts = attempts - 1, updated_at = ?2 WHERE id = ?1`

// ?7 holds a RETRYING announcement until its next attempt may go (NULL for the final states):
// a duplicate or early message meanwhile cannot claim it and post before the wait is over.
const RECORD_SQL = `UPDATE community_announcements
  SET status = ?2, error = ?3, provider_message_id = coalesce(?4, provider_message_id),
      retry_count = retry_count + ?5, sent_at = CASE WHEN ?2 = 'SENT' THEN ?6 ELSE sent_at END,
      claimed_until = ?7, updated_at = ?6
  WHERE id = ?1`

// Why a message found nothing to claim: a RETRYING row still held is waited for again.
const HELD_SQL = `SELECT claimed_until AS claimedUntil FROM community_announcements
  WHERE id = ?1 AND status = 'RETRYING' AND claimed_until >= ?2`

/** An announcement's words: the contest, how soon it starts, and where to read more. */
function announcementText(contest: ContestRow, announcementId: string, now: number): ChannelText {
  const platform = platformName(contest.platform)
  return {
    notificationId: announcementId,
    type: 'CONTEST_REMINDER',
    headline: `${contest.name} starts ${formatUntil(contest.startTime - now)}`,
    summary:
      `${contest.name} on ${platform} starts at ${formatTime(contest.startTime)} and lasts ` +
      `${formatDuration(contest.durationMinutes)}.`,
    contestId: contest.id,
    ...(contestUrl(contest) && { url: contestUrl(contest) }),
    startTime: contest.startTime,
    expiresAt: contest.startTime,
    now,
  }
}

/** Posts the text where the destination is. */
async function post(
  env: Env,
  d: CommunityDestinationRow,
  text: ChannelText,
  contest: ContestRow,
): Promise<SendResult> {
  if (d.channel === 'telegram') {
    // The Telegram channel's own send: the same Bot API call and reading of its answers.
    const provider = telegram.provider(env)
    if (!provider) return notSent('permanent', 'Telegram is not available on this server')
    const result = await telegram.send(provider, {
      to: d.chatId,
      // A forum topic's announcement goes to that topic.
      message: { ...telegram.render(text), ...(d.threadId && { threadId: d.threadId }) },
      reference: text.notificationId,
    })
    // A group that no longer exists is "chat not found" (400); a person's chat stays linked on it.
    // A topic deleted or closed ends that topic's destination, not the group's others.
    const gone =
      !result.ok && (/chat not found/i.test(result.error) || TOPIC_GONE.test(result.error))
    return gone ? { ...result, failure: 'dead' } : result
  }
  const { embeds } = discord.render(text)
  // The chosen roles and their buttons (roles.ts), and no other mention.
  return postChannelMessage(env, d.chatId, { embeds, ...announcementPings(d, contest) })
}

export interface AnnouncementDeps {
  env: Env
  db: Db
  d1: D1Database
}

/** A post's end as its row records it (rank posts' too): the provider's message id, the error. */
export type Sent = 'SENT' | 'FAILED' | 'RETRYING'
export interface SentResult {
  error?: string
  id?: string
  retried?: boolean
  heldUntil?: number
}

async function record(d1: D1Database, id: string, status: Sent, result: SentResult, now: number) {
  const { error = null, id: providerId = null, retried, heldUntil = null } = result
  await d1
    .prepare(RECORD_SQL)
    .bind(id, status, error, providerId, retried ? 1 : 0, now, heldUntil)
    .run()
}

/** Sends one announcement, once; what the message should do next. */
export async function sendAnnouncement(
  deps: AnnouncementDeps,
  id: string,
  now: number,
): Promise<ClaimedOutcome> {
  const claimed = await deps.d1
    .prepare(CLAIM_SQL)
    .bind(id, now + CLAIM_MS, now)
    .first<{ destinationId: string; contestId: string | null; retryCount: number }>()
  // Sent, failed for good, being sent by another attempt now, or waiting for its next attempt.
  if (!claimed) return unclaimed(deps.d1.prepare(HELD_SQL).bind(id, now), now)
  const [destination, contest] = await Promise.all([
    findDestinationById(deps.db, claimed.destinationId),
    claimed.contestId ? findContest(deps.db, claimed.contestId) : undefined,
  ])
  const refusal = !destination
    ? 'The destination was removed'
    : destination.deadAt !== null
      ? `The destination is dead: ${destination.deadReason ?? 'unknown'}`
      : !contest || !contest.isActive
        ? 'The contest is no longer listed'
        : contest.startTime <= now
          ? 'The contest has started'
          : undefined
  if (refusal || !destination || !contest) {
    await record(deps.d1, id, 'FAILED', { error: refusal }, now)
    return { done: true }
  }
  const wait = await paceWait(deps.env, destination, now)
  if (wait > 0) {
    // Not an attempt: the claim is given back and the message waits for its turn.
    await deps.d1.prepare(RELEASE_SQL).bind(id, now).run()
    return { done: false, waiting: true, delaySeconds: wait }
  }
  const text = announcementText(contest, id, now)
  const settle = (status: Sent, result: SentResult) => record(deps.d1, id, status, result, now)
  const send = (d: CommunityDestinationRow) => post(deps.env, d, text, contest)
  return postAndSettle(deps, destination, send, claimed.retryCount, settle, now)
}

/**
 * Posts a claimed row's message with `send` and settles the row on the answer (rank posts too):
 * a group that became a supergroup is followed and posted to there; SENT; FAILED with the
 * destination marked dead (its owner told once) when the bot can never post there again; else
 * tried again after a wait, or FAILED (settleClaimed).
 */
export async function postAndSettle(
  deps: AnnouncementDeps,
  destination: CommunityDestinationRow,
  send: (d: CommunityDestinationRow) => Promise<SendResult>,
  retryCount: number,
  record: (status: Sent, result: SentResult) => Promise<unknown>,
  now: number,
): Promise<ClaimedOutcome> {
  const failed = (error: unknown): SendResult => notSent('transient', `Send failed: ${error}`)
  // A 429's wait counts from its answer, which comes after `now` by the time the post took.
  const postedFrom = Date.now()
  let result = await send(destination).catch(failed)
  if (!result.ok && result.movedTo) {
    // The group became a supergroup: the destination follows, and the post goes there now.
    const moved = await moveChat(deps.db, destination.id, result.movedTo, now)
    result = moved
      ? await send(moved).catch(failed)
      : notSent('dead', 'The group became a supergroup that is subscribed on its own')
  }
  if (result.ok) {
    await record('SENT', { id: result.id })
    return { done: true }
  }
  if (result.failure === 'dead') {
    await record('FAILED', { error: result.error })
    const dead = await markDead(deps.db, destination.id, result.error, now)
    if (dead?.ownerId) await tellOwner(deps.env, deps.db, dead)
    return { done: true }
  }
  const { error, retryAfterSeconds } = result
  const transient = result.failure === 'transient'
  return settleClaimed(
    { error, transient, retryAfterSeconds },
    { retryCount, calledAt: postedFrom },
    record,
    now,
  )
}

/** Records the announcements the queue gave up on as FAILED. */
export async function failAnnouncements(d1: D1Database, ids: readonly string[], now: number) {
  await failGivenUp(d1.prepare(`UPDATE community_announcements ${GAVE_UP_SQL}`), ids, now)
}
