// Sends a rank post from the notifications queue, as announcements are sent (deliver.ts): claimed
// so a redelivered or duplicate message does not post twice, its words read then (the members'
// results as they are stored), paced per bot, posted with the bot, recorded; a transient failure
// is retried with the policy of personal reminders, and a chat the bot can never post to again
// marks the destination dead, its owner told once.
import { postChannelMessage } from '../channels/discord/bot-api.ts'
import { notSent, resultOf, type SendResult } from '../channels/define.ts'
import { sendTelegram } from '../channels/telegram/bot-api.ts'
import { findContest } from '../contests/queries.ts'
import type { CommunityDestinationRow } from '../db/schema.ts'
import { MINUTE_MS } from '../lib/time.ts'
import { failGivenUp, GAVE_UP_SQL, unclaimed, type ClaimedOutcome } from '../lib/settle-claimed.ts'
import { contestParticipants } from '../results/checks.ts'
import { destinationResults } from '../results/community-members.ts'
import { postAndSettle, type AnnouncementDeps, type Sent, type SentResult } from './deliver.ts'
import { findDestinationById } from './destinations.ts'
import { paceWait } from './pace.ts'
import { discordRankPost, rankPostWords, telegramRankPost } from './rank-posts.ts'

// A send holds its post this long; a duplicate message meanwhile leaves it alone.
const CLAIM_MS = 2 * MINUTE_MS

const CLAIM_SQL = `UPDATE community_rank_posts
  SET claimed_until = ?2, attempts = attempts + 1, updated_at = ?3
  WHERE id = ?1 AND status IN ('PENDING', 'RETRYING') AND coalesce(claimed_until, 0) < ?3
  RETURNING destination_id AS destinationId, contest_id AS contestId, retry_count AS retryCount`

const RELEASE_SQL = `UPDATE community_rank_posts
  SET claimed_until = NULL, attempts = attempts - 1, updated_at = ?2 WHERE id = ?1`

// ?7 holds a RETRYING post until its next attempt may go (NULL for the final states).
const RECORD_SQL = `UPDATE community_rank_posts
  SET status = ?2, error = ?3, provider_message_id = coalesce(?4, provider_message_id),
      retry_count = retry_count + ?5, sent_at = CASE WHEN ?2 = 'SENT' THEN ?6 ELSE sent_at END,
      claimed_until = ?7, updated_at = ?6
  WHERE id = ?1`

const HELD_SQL = `SELECT claimed_until AS claimedUntil FROM community_rank_posts
  WHERE id = ?1 AND status = 'RETRYING' AND claimed_until >= ?2`

async function record(d1: D1Database, id: string, status: Sent, result: SentResult, now: number) {
  const { error = null, id: providerId = null, retried, heldUntil = null } = result
  await d1
    .prepare(RECORD_SQL)
    .bind(id, status, error, providerId, retried ? 1 : 0, now, heldUntil)
    .run()
}

/** Posts the words where the destination is; Telegram's answer in the common words. */
async function post(
  deps: AnnouncementDeps,
  d: CommunityDestinationRow,
  words: ReturnType<typeof rankPostWords>,
): Promise<SendResult> {
  if (d.channel === 'discord') return postChannelMessage(deps.env, d.chatId, discordRankPost(words))
  const sent = await sendTelegram(deps.env, { chatId: d.chatId, text: telegramRankPost(words) })
  if (sent.provider === 'none') return notSent('permanent', sent.error ?? 'Telegram is off')
  return resultOf({
    ...sent,
    // A group that no longer exists is "chat not found" (400), as for announcements.
    dead: sent.blocked === true || (!sent.ok && /chat not found/i.test(sent.error ?? '')),
    movedTo: sent.migratedTo,
  })
}

/** Sends one rank post, once; what the message should do next. */
export async function sendRankPost(
  deps: AnnouncementDeps,
  id: string,
  now: number,
): Promise<ClaimedOutcome> {
  const claimed = await deps.d1
    .prepare(CLAIM_SQL)
    .bind(id, now + CLAIM_MS, now)
    .first<{ destinationId: string; contestId: string; retryCount: number }>()
  // Sent, failed for good, being sent now, or held for its next attempt: a message come early
  // waits for the hold (it may be the only one left).
  if (!claimed) return unclaimed(deps.d1.prepare(HELD_SQL).bind(id, now), now)
  const [destination, contest, rows, participants] = await Promise.all([
    findDestinationById(deps.db, claimed.destinationId),
    findContest(deps.db, claimed.contestId),
    destinationResults(deps.db, claimed.destinationId, claimed.contestId),
    contestParticipants(deps.db, claimed.contestId),
  ])
  const refusal = !destination
    ? 'The destination was removed'
    : destination.deadAt !== null
      ? `The destination is dead: ${destination.deadReason ?? 'unknown'}`
      : !destination.rankUpdates
        ? 'Rank updates were turned off'
        : !contest
          ? 'The contest is no longer listed'
          : rows.length === 0
            ? 'No member of the destination took part'
            : undefined
  if (refusal || !destination || !contest) {
    await record(deps.d1, id, 'FAILED', { error: refusal }, now)
    return { done: true }
  }
  const wait = await paceWait(deps.env, destination, now)
  if (wait > 0) {
    await deps.d1.prepare(RELEASE_SQL).bind(id, now).run()
    return { done: false, waiting: true, delaySeconds: wait }
  }
  const words = rankPostWords(contest, rows, participants)
  const settle = (status: Sent, result: SentResult) => record(deps.d1, id, status, result, now)
  const send = (d: CommunityDestinationRow) => post(deps, d, words)
  return postAndSettle(deps, destination, send, claimed.retryCount, settle, now)
}

/** Records the rank posts the queue gave up on as FAILED. */
export async function failRankPosts(d1: D1Database, ids: readonly string[], now: number) {
  await failGivenUp(d1.prepare(`UPDATE community_rank_posts ${GAVE_UP_SQL}`), ids, now)
}
