// The push channel: Web Push to every browser the user subscribed, or the local outbox. Delivered
// when any browser's push service accepted it (the others are not retried, so no browser gets it
// twice); subscriptions a push service no longer knows (404/410) are named as gone.
import { settings } from '../../env.ts'
import { toIso } from '../../lib/time.ts'
import { defineChannel, notSent, type ChannelText, type Outgoing } from '../define.ts'
import {
  pushProvider,
  sendPush,
  vapidKeysValid,
  type PushOptions,
  type PushResult,
  type PushTarget,
} from './web-push.ts'

/** Browsers an account may subscribe: each is one request per push delivery. */
export const MAX_PUSH_SUBSCRIPTIONS = 10

const MAX_TTL_SECONDS = 24 * 60 * 60
const MIN_TTL_SECONDS = 60

/** A reminder is worth nothing after the contest starts, so the push service may drop it then. */
function ttl(t: ChannelText): number {
  if (t.expiresAt === undefined) return MAX_TTL_SECONDS
  const seconds = Math.floor((t.expiresAt - t.now) / 1000)
  return Math.min(MAX_TTL_SECONDS, Math.max(MIN_TTL_SECONDS, seconds))
}

/** The notification's action that POSTs the recipient's signed snooze link (/sw.js). */
export const SNOOZE_ACTION = 'snooze'

/**
 * The payload is small, since a push message carries at most about 4 KB (the snooze link is
 * about 170 bytes).
 */
function payloadOf(t: ChannelText) {
  const snoozeUrl = t.snooze?.url
  return {
    title: t.headline.slice(0, 200),
    body: t.summary.length > 1000 ? `${t.summary.slice(0, 999)}…` : t.summary,
    tag: t.notificationId,
    ...(t.url && { url: t.url }),
    ...(snoozeUrl && { actions: [{ action: SNOOZE_ACTION, title: t.snooze!.label }] }),
    data: {
      notificationId: t.notificationId,
      type: t.type,
      ...(t.contestId && { contestId: t.contestId }),
      ...(t.startTime !== undefined && { startTime: toIso(t.startTime) }),
      ...(snoozeUrl && { snoozeUrl }),
    },
  }
}

type PushPayload = ReturnType<typeof payloadOf>

interface PushMessage {
  payload: PushPayload
  options: PushOptions
}

export const push = defineChannel({
  id: 'push',
  label: 'Push notifications',
  // A push service's 201 says it will hand the message on, not that a browser showed it.
  acceptedMeans: 'accepted by the browser’s push service',
  defaultOn: false,
  switchField: 'notifyPush',
  destination: { kind: 'push' },
  blockable: true,
  // One request per browser of the user: 10 deliveries of up to 10 browsers keep a message within
  // 100 requests, as 100 deliveries of the other channels do.
  batchSize: 100 / MAX_PUSH_SUBSCRIPTIONS,
  provider: (env) => {
    const kind = pushProvider(env)
    return kind === 'none' ? undefined : { env, kind }
  },
  configured: (p) => p.kind !== 'web-push' || vapidKeysValid(settings(p.env)),
  render: (t): PushMessage => ({
    payload: payloadOf(t),
    options: {
      ttl: ttl(t),
      urgency: t.type === 'CONTEST_REMINDER' ? 'high' : 'normal',
      // Topics replace an undelivered message with a newer one of the same notification.
      topic: t.notificationId,
    },
  }),
  send: async (p, { to: targets, message }: Outgoing<PushMessage, PushTarget[]>) => {
    if (targets.length === 0) return notSent('permanent', 'The account has no push subscription')
    const results: PushResult[] = []
    for (const target of targets) {
      results.push(await sendPush(p.env, target, message.payload, message.options))
    }
    const gone = targets.filter((_, i) => results[i].gone).map((t) => t.endpoint)
    const delivered = results.filter((r) => r.ok)
    if (delivered.length > 0) {
      const id = delivered[0].id ?? `${delivered.length} subscription(s)`
      return { ok: true, id, gone }
    }
    if (gone.length === targets.length) {
      const expired = notSent('dead', 'Every push subscription has expired')
      return { ...expired, said: 'every browser subscription has expired', gone }
    }
    const error = results
      .map((r) => r.error)
      .filter(Boolean)
      .join('; ')
    const failure = results.some((r) => r.transient) ? 'transient' : 'permanent'
    return { ...notSent(failure, error), gone }
  },
})
