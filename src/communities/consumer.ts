// The announcements' messages on the notifications queue (the queue router hands them here): each
// sent once and acked, retried after the policy's wait, or sent again as a new message when it
// waits its turn under a bot's pace or for a RETRYING announcement's next attempt (so waiting
// spends none of its retries); rank posts (rank-deliver.ts) ride along; the dead-letter queue records those the queue gave up on as FAILED.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { log } from '../lib/log.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../lib/retry-policy.ts'
import type { QueueMessage } from '../ports/queue.ts'
import type { AnnouncementMessage } from './announce.ts'
import {
  failMessageChanges,
  isCommunityChangeMessage,
  sendMessageChange,
  type CommunityChangeMessage,
} from './changes.ts'
import { failAnnouncements, sendAnnouncement } from './deliver.ts'
import {
  failEventChanges,
  isCommunityEventMessage,
  sendEventChange,
  type CommunityEventMessage,
} from './events.ts'
import { failRankPosts, sendRankPost } from './rank-deliver.ts'
import { isRankPostMessage, type RankPostMessage } from './rank-posts.ts'

export async function consumeAnnouncements(messages: readonly QueueMessage[], env: Env) {
  const deps = { env, db: createDb(env.DB), d1: env.DB }
  for (const message of messages) {
    // A scheduled event's change rides the same queue (events.ts).
    const event = isCommunityEventMessage(message.body) ? message.body.communityEventId : undefined
    // So does a contest's rank post (rank-posts.ts), and an edit or deletion of a message posted
    // (changes.ts).
    const rankPost = isRankPostMessage(message.body) ? message.body.rankPostId : undefined
    const change = isCommunityChangeMessage(message.body)
      ? message.body.communityChangeId
      : undefined
    const { announcementId } = message.body as AnnouncementMessage
    try {
      const outcome = event
        ? await sendEventChange(deps, event, Date.now())
        : rankPost
          ? await sendRankPost(deps, rankPost, Date.now())
          : change
            ? await sendMessageChange(deps, change, Date.now())
            : await sendAnnouncement(deps, announcementId, Date.now())
      if (outcome.done) message.ack()
      else if ('waiting' in outcome) {
        await env.NOTIFICATIONS_QUEUE.send(message.body, { delaySeconds: outcome.delaySeconds })
        message.ack()
      } else message.retry({ delaySeconds: outcome.delaySeconds })
    } catch (error) {
      log.error('community-announcement-failed', { announcementId, event, rankPost, change, error })
      message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0] })
    }
  }
}

export async function consumeDeadAnnouncements(messages: readonly QueueMessage[], env: Env) {
  const events = messages.filter((m) => isCommunityEventMessage(m.body))
  const rankPosts = messages.filter((m) => isRankPostMessage(m.body))
  const changes = messages.filter((m) => isCommunityChangeMessage(m.body))
  const ids = messages
    .filter(
      (m) =>
        !isCommunityEventMessage(m.body) &&
        !isRankPostMessage(m.body) &&
        !isCommunityChangeMessage(m.body),
    )
    .map((m) => (m.body as AnnouncementMessage).announcementId)
  await failRankPosts(
    env.DB,
    rankPosts.map((m) => (m.body as RankPostMessage).rankPostId),
    Date.now(),
  )
  await failMessageChanges(
    env.DB,
    changes.map((m) => (m.body as CommunityChangeMessage).communityChangeId),
    Date.now(),
  )
  await failAnnouncements(env.DB, ids, Date.now())
  await failEventChanges(
    env.DB,
    events.map((m) => (m.body as CommunityEventMessage).communityEventId),
    Date.now(),
  )
  log.error('community-announcement-dead-letter', { count: ids.length })
  for (const message of messages) message.ack()
}
