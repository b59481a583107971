// The test push: the test message of kinds/ sent at once through the push channel (Web Push, or
// the local outbox when DEV_OUTBOX is on) to every subscription of one user, reported as counts.
// A plain function, so the API route and the web app's settings page send the same test.
import { pushProvider, sendPush, type PushProvider } from '../../channels/push/web-push.ts'
import type { Db } from '../../db/client.ts'
import type { Env } from '../../env.ts'
import { removeExpiredPushSubscription } from '../../users/channel-blocks.ts'
import { listPushSubscriptions } from '../../users/push-subscriptions.ts'
import { testMessage } from '../kinds/test-message.ts'

// A test is looked at now or not at all: a browser offline for longer need not get it later.
const TEST_PUSH_TTL_SECONDS = 60 * 60

export interface TestPushResult {
  /** False when the push channel is off (no VAPID keys, no local outbox): nothing was sent. */
  enabled: boolean
  /** Where the message went: 'outbox' is the local runs' stand-in, not a browser. */
  provider: PushProvider
  /** The user's subscriptions when the test started; 0 means there was nothing to send to. */
  subscriptions: number
  /** How many of them the push service (or the outbox) accepted. */
  accepted: number
  /** Subscriptions the push service no longer knew (404/410), deleted as a delivery would. */
  removed: number
  /** Why the others (not removed) were refused, in the channel's words, never a push service's. */
  errors: string[]
}

/**
 * Sends the test message to every push subscription of `userId`, all at once (a person is
 * waiting), and answers how many accepted it. Subscriptions the push service no longer knows are
 * removed as in a real delivery, so push turns off (with its block) when none is left.
 */
export async function sendTestPush(
  env: Env,
  db: Db,
  userId: string,
  now: number,
): Promise<TestPushResult> {
  const provider = pushProvider(env)
  const subscriptions = await listPushSubscriptions(db, userId)
  const result: TestPushResult = {
    enabled: provider !== 'none',
    provider,
    subscriptions: subscriptions.length,
    accepted: 0,
    removed: 0,
    errors: [],
  }
  if (!result.enabled || subscriptions.length === 0) return result
  const content = testMessage(now).push
  const outcomes = await Promise.all(
    subscriptions.map(async (sub) => {
      const sent = await sendPush(env, sub, content, { ttl: TEST_PUSH_TTL_SECONDS })
      if (sent.gone) await removeExpiredPushSubscription(db, userId, sub.endpoint, now)
      return sent
    }),
  )
  for (const sent of outcomes) {
    if (sent.ok) result.accepted++
    else if (sent.gone) result.removed++
    else if (sent.error) result.errors.push(sent.error)
  }
  return result
}
