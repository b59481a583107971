// Notification test fixtures: verified recipients with chosen preferences, provider credentials,
// a queue that records what is enqueued, and drivers for scheduled() and queue().
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { expect } from 'vitest'
import { createDb } from '../../src/db/client.ts'
import type { Env } from '../../src/env.ts'
import worker from '../../src/index.ts'
import { fromBase64Url, toBase64Url } from '../../src/lib/crypto.ts'
import { newId } from '../../src/lib/ids.ts'
import { notifier } from '../../src/notifications/context.ts'
import { attemptDeliveries } from '../../src/notifications/delivery/deliver.ts'
import { deliveryIdsOf, type DeliveryMessage } from '../../src/notifications/delivery/enqueue.ts'
import { withResultWords } from '../../src/notifications/kinds/result-words.ts'
import { savePushSubscription } from '../../src/users/push-subscriptions.ts'
import { clearContests } from './contests.ts'
import { verifyPhone } from './phone.ts'
import { standIn, standInUrl } from './stand-in.ts'
import { api, createUser, type TestUser } from './users.ts'

// Real VAPID keys (ECDSA P-256), made once per test file.
const vapid = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
  'sign',
  'verify',
])) as CryptoKeyPair
export const VAPID_PUBLIC_KEY = toBase64Url(
  new Uint8Array((await crypto.subtle.exportKey('raw', vapid.publicKey)) as ArrayBuffer),
)
const vapidJwk = (await crypto.subtle.exportKey('jwk', vapid.privateKey)) as JsonWebKey
export const VAPID_PRIVATE_KEY = vapidJwk.d!

/** Credentials for every provider; their URLs already point at the stand-in. */
export const PROVIDERS: Partial<Env> = {
  RESEND_API_KEY: 're_test_key',
  WHATSAPP_TOKEN: 'wa-test-token',
  WHATSAPP_PHONE_NUMBER_ID: '1098765',
  VAPID_PUBLIC_KEY,
  VAPID_PRIVATE_KEY,
  VAPID_SUBJECT: 'mailto:ops@example.test',
  TELEGRAM_BOT_TOKEN: '123456:telegram-test-token',
  TELEGRAM_BOT_USERNAME: 'ContestAlertTestBot',
  TELEGRAM_WEBHOOK_SECRET: 'telegram-webhook-test-secret',
  TELEGRAM_API_URL: `${standInUrl}/telegram`,
}

// Queues' longest delay: the real queue takes every message, and its consumer (which runs with
// the bindings of wrangler.toml, not a test's) never sees them; the tests feed queue() instead.
const PARKED_SECONDS = 43_200

export interface RecordingQueue extends Queue {
  /** Every message body enqueued, in order. */
  bodies: DeliveryMessage[]
  /** How many sendBatch calls were made, and the largest batch. */
  batches: number[]
  /** The delay asked for each body, in the same order (undefined: none). */
  delays: (number | undefined)[]
}

/** The real notifications queue, wrapped to record what the app enqueues. */
export function recordingQueue(): RecordingQueue {
  const real = env.NOTIFICATIONS_QUEUE
  const bodies: DeliveryMessage[] = []
  const batches: number[] = []
  const delays: (number | undefined)[] = []
  return {
    bodies,
    batches,
    delays,
    async send(body: unknown, options?: QueueSendOptions) {
      bodies.push(body as DeliveryMessage)
      delays.push(options?.delaySeconds)
      batches.push(1)
      await real.send(body, { ...options, delaySeconds: PARKED_SECONDS })
    },
    async sendBatch(messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) {
      const list = [...messages]
      bodies.push(...list.map((m) => m.body as DeliveryMessage))
      delays.push(...list.map((m) => m.delaySeconds ?? options?.delaySeconds))
      batches.push(list.length)
      await real.sendBatch(
        list.map((m) => ({ ...m, delaySeconds: PARKED_SECONDS })),
        options,
      )
    },
  } as unknown as RecordingQueue
}

/**
 * The Worker's env with every provider configured and a recording queue. It is a local run
 * (ALLOW_LOCAL_TARGETS), as the push service is the stand-in on http://127.0.0.1; the real
 * services' hosts are tested in security-outbound.test.ts.
 */
export function testEnv(over: Partial<Env> = {}): Env & { NOTIFICATIONS_QUEUE: RecordingQueue } {
  const local = { ALLOW_LOCAL_TARGETS: 'true' }
  // The recording queue comes last, so no override can take it away from what the type promises.
  return { ...env, ...PROVIDERS, ...local, ...over, NOTIFICATIONS_QUEUE: recordingQueue() }
}

/** Fires the half-hourly Cron Trigger through the Worker's scheduled() handler. */
export async function runScheduler(e: Env, at = Date.now()) {
  const ctx = createExecutionContext()
  await worker.scheduled(
    createScheduledController({ cron: '*/30 * * * *', scheduledTime: at }),
    e,
    ctx,
  )
  await waitOnExecutionContext(ctx)
}

let messageSeq = 0

export interface QueuedMessage {
  body: unknown
  attempts: number
}

/** Hands messages to the Worker's queue() handler and returns what it acked and retried. */
export async function consume(e: Env, messages: QueuedMessage[], queue = 'notifications') {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({
      id: `msg-${++messageSeq}`,
      timestamp: new Date(),
      body: m.body,
      attempts: m.attempts,
    })),
  )
  // getQueueResult reports which messages were retried but not their delays; record them.
  const delays = new Map<string, number | undefined>()
  for (const message of batch.messages) {
    const retry = message.retry.bind(message)
    Object.defineProperty(message, 'retry', {
      value: (options?: QueueRetryOptions) => {
        delays.set(message.id, options?.delaySeconds)
        retry(options)
      },
    })
  }
  const ctx = createExecutionContext()
  // The handler does its work before it returns; the context only lets getQueueResult read it.
  await worker.queue(batch, e)
  const result = await getQueueResult(batch, ctx)
  const ids = batch.messages.map((m) => m.id)
  const retried = new Set(result.retryMessages.map((r: { msgId: string }) => r.msgId))
  return messages.map((m, i) => ({
    ...m,
    acked: result.ackAll || result.explicitAcks.includes(ids[i]),
    retried: retried.has(ids[i]),
    delaySeconds: delays.get(ids[i]),
  }))
}

/**
 * Attempts a queue message's deliveries as its consumer would at `now` (a time after a wait the
 * consumer asked for, which the queue cannot be made to skip); what became of each.
 */
export async function attemptAt(e: Env, body: unknown, now: number) {
  const outcomes = await attemptDeliveries(notifier(e), [deliveryIdsOf(body) ?? []], { now })
  return [...outcomes.values()]
}

/** Delivers every message the app enqueued so far (first attempts), then forgets them. */
export async function deliverQueued(e: Env & { NOTIFICATIONS_QUEUE: RecordingQueue }) {
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  e.NOTIFICATIONS_QUEUE.delays.splice(0)
  if (bodies.length === 0) return []
  return consume(
    e,
    bodies.map((body) => ({ body, attempts: 1 })),
  )
}

export interface PushKeys {
  endpoint: string
  p256dh: string
  auth: string
  privateKey: CryptoKey
}

/** A browser's subscription keys (ECDH P-256 and a 16-byte secret) at a stand-in endpoint. */
export async function pushKeys(): Promise<PushKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
    'deriveBits',
  ])) as CryptoKeyPair
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer)
  return {
    endpoint: `${standInUrl}/push/${newId()}`,
    p256dh: toBase64Url(raw),
    auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    privateKey: pair.privateKey,
  }
}

export interface RecipientOptions {
  platforms?: string[]
  alertFrequency?: 'immediate' | 'daily' | 'weekly'
  contestTypes?: string[]
  channels?: { email?: boolean; whatsapp?: boolean; push?: boolean }
  notifyBefore?: number
  /** Minutes; sent instead of notifyBefore when given. */
  leadTimes?: number[]
  quietHours?: { start: string; end: string } | null
  filters?: { minDuration?: number | null; maxDuration?: number | null; excludeWords?: string[] }
  timezone?: string
  phoneNumber?: string
  name?: string
  /** Verify the email address (default true). */
  verified?: boolean
  /** Verify phoneNumber over WhatsApp through the API (default true when one is given). */
  phoneVerified?: boolean
  /** Register a push subscription at the stand-in. */
  push?: boolean
}

export interface Recipient extends TestUser {
  push?: PushKeys
}

/** A user made through the API: signed up, verified (email, phone if given), preferences set. */
export async function recipient(options: RecipientOptions = {}): Promise<Recipient> {
  const verified = options.verified !== false
  const user = await createUser({ name: options.name ?? 'Ada Lovelace', verified })
  const channels = options.channels ?? { email: true, whatsapp: false, push: false }
  const res = await api('PUT', '/users/profile', {
    token: user.accessToken,
    body: {
      ...(options.phoneNumber && { phoneNumber: options.phoneNumber }),
      preferences: {
        platforms: options.platforms ?? ['codeforces'],
        alertFrequency: options.alertFrequency ?? 'immediate',
        contestTypes: options.contestTypes ?? [],
        notificationChannels: {
          email: channels.email ?? false,
          whatsapp: channels.whatsapp ?? false,
          push: channels.push ?? false,
        },
        ...(options.leadTimes
          ? { leadTimes: options.leadTimes }
          : { notifyBefore: options.notifyBefore ?? 24 }),
        ...(options.quietHours !== undefined && { quietHours: options.quietHours }),
        ...(options.filters && { filters: options.filters }),
        timezone: options.timezone ?? 'UTC',
      },
    },
  })
  expect(res.status).toBe(200)
  if (options.phoneNumber && options.phoneVerified !== false) {
    await verifyPhone(user, options.phoneNumber)
  }
  if (!options.push) return user
  const keys = await pushKeys()
  await savePushSubscription(
    createDb(env.DB),
    user.id,
    { endpoint: keys.endpoint, keys },
    Date.now(),
  )
  return { ...user, push: keys }
}

/**
 * Starts each test from no contests and no live recipients: earlier users are deactivated (their
 * tokens keep working), so a scheduler run only finds the test's own.
 */
export async function resetNotifications() {
  await clearContests()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM notifications'),
    env.DB.prepare('DELETE FROM contest_reschedules'),
    env.DB.prepare('DELETE FROM job_locks'),
    env.DB.prepare('UPDATE users SET is_active = 0'),
  ])
  await standIn.reset()
}

export interface StoredDelivery {
  id: string
  notificationId: string
  channel: string
  status: string
  retryCount: number
  attempts: number
  error: string | null
  queuedAt: number | null
}

/** The user's notifications with their deliveries, oldest first. */
export async function notificationsOf(userId: string): Promise<Record<string, any>[]> {
  const { results } = await env.DB.prepare(
    `SELECT n.id, n.contest_id AS contestId, n.type,
       coalesce(nullif(n.title, ''), c.title) AS title,
       coalesce(nullif(n.message, ''), c.message) AS message,
       coalesce(n.payload, c.payload) AS payload, c.payload AS contentPayload, channels, status,
       coalesce(c.dedupe_key, n.dedupe_key) AS dedupeKey, scheduled_at AS scheduledAt,
       sent_at AS sentAt
     FROM notifications n LEFT JOIN notification_contents c ON c.id = n.content_id
     WHERE user_id = ? ORDER BY created_at, n.id`,
  )
    .bind(userId)
    .all<Record<string, any>>()
  const out = []
  for (const n of results) {
    const { results: deliveries } = await env.DB.prepare(
      `SELECT id, notification_id AS notificationId, channel, status, retry_count AS retryCount,
         attempts, error, queued_at AS queuedAt
       FROM notification_deliveries WHERE notification_id = ? ORDER BY channel`,
    )
      .bind(n.id)
      .all<StoredDelivery>()
    const { contentPayload, ...row } = n
    // A result alert keeps its numbers only: its words are made on read, as the API does.
    const read = withResultWords(
      {
        ...row,
        type: String(row.type),
        title: String(row.title),
        message: String(row.message),
        payload: JSON.parse(row.payload ?? 'null'),
      },
      JSON.parse(contentPayload ?? 'null'),
    )
    out.push({ ...read, channels: JSON.parse(n.channels), deliveries })
  }
  return out
}

/**
 * Notification mail the stand-in received for `email`, parsed, with its request headers. Only
 * deliveries carry an Idempotency-Key, so sign-up codes are not counted.
 */
export async function mailsTo(email: string) {
  const sent = await standIn.requests('/resend/emails')
  // A batch call carries many emails under one set of headers: each is a mail of its own here.
  return sent
    .filter((r) => r.headers['idempotency-key'])
    .flatMap((r) => {
      const body = JSON.parse(r.body)
      return (Array.isArray(body) ? body : [body]).map((message) => ({
        headers: r.headers,
        message,
      }))
    })
    .filter((m) => (m.message.to as string[]).includes(email))
}

/** WhatsApp Cloud API calls of the stand-in, parsed. */
export async function whatsappRequests() {
  const sent = await standIn.requests('/whatsapp/')
  return sent.map((r) => ({ path: r.path, headers: r.headers, body: JSON.parse(r.body) }))
}

/**
 * Decrypts a Web Push body (RFC 8291, aes128gcm) with the browser's private key and auth
 * secret, as a browser would; throws if it was not encrypted for them.
 */
export async function decryptPush(body: Uint8Array, keys: PushKeys): Promise<unknown> {
  const salt = body.slice(0, 16)
  const idLength = body[20]
  const serverKey = body.slice(21, 21 + idLength)
  const ciphertext = body.slice(21 + idLength)
  const serverPublic = await crypto.subtle.importKey(
    'raw',
    serverKey,
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  )
  const shared = await crypto.subtle.deriveBits(
    // workers-types spells the member `$public`; the runtime reads `public`.
    { name: 'ECDH', public: serverPublic } as unknown as SubtleCryptoDeriveKeyAlgorithm,
    keys.privateKey,
    256,
  )
  const hkdf = async (
    saltBytes: Uint8Array,
    ikm: ArrayBuffer | Uint8Array,
    info: Uint8Array,
    n: number,
  ) => {
    const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits'])
    return new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: 'HKDF', hash: 'SHA-256', salt: saltBytes, info },
        key,
        n * 8,
      ),
    )
  }
  const text = new TextEncoder()
  const uaPublic = fromBase64Url(keys.p256dh)
  const keyInfo = new Uint8Array([...text.encode('WebPush: info\0'), ...uaPublic, ...serverKey])
  const ikm = await hkdf(fromBase64Url(keys.auth), shared, keyInfo, 32)
  const cek = await hkdf(salt, ikm, text.encode('Content-Encoding: aes128gcm\0'), 16)
  const nonce = await hkdf(salt, ikm, text.encode('Content-Encoding: nonce\0'), 12)
  const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt'])
  const padded = new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, aes, ciphertext),
  )
  // RFC 8188: the last record's data ends at the 0x02 delimiter; zeros after it are padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  expect(padded[end]).toBe(2)
  return JSON.parse(new TextDecoder().decode(padded.slice(0, end)))
}

/**
 * Records the raw bodies the Worker POSTs to push endpoints while `fn` runs (the stand-in keeps
 * bodies as text, which a binary aes128gcm body does not survive).
 */
export async function capturePushBodies<T>(fn: () => Promise<T>) {
  const original = globalThis.fetch
  const bodies = new Map<string, Uint8Array>()
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    if (url.includes('/push/') && init?.body instanceof Uint8Array)
      bodies.set(url, init.body.slice())
    return original(input, init)
  }) as typeof fetch
  try {
    return { result: await fn(), bodies }
  } finally {
    globalThis.fetch = original
  }
}

/**
 * `count` verified users following Codeforces with a day's lead time, inserted in SQL as the bench
 * does (the API makes one in about 100 ms); every `whatsappEvery`-th has a verified number and
 * WhatsApp on. Returns the 8 hex digits their ids start with, new to this database.
 */
export async function seedRecipients(count: number, { whatsappEvery = 0 } = {}) {
  const tag = crypto.getRandomValues(new Uint32Array(1))[0].toString(16).padStart(8, '0')
  const now = Date.now()
  const whatsapp = whatsappEvery > 0 ? `i % ${whatsappEvery} = 0` : '0'
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1 - 1)
      INSERT INTO users (id, email, name, password_hash, platforms, alert_frequency,
        contest_types, notify_email, notify_whatsapp, notify_push, notify_before, timezone,
        is_active, email_verified_at, phone_number, phone_verified_number, created_at,
        updated_at, lead_times)
      SELECT printf('%s%016x', ?2, i), 'seeded-' || ?2 || '-' || i || '@example.test',
        'User ' || i, 'x', '["codeforces"]', 'immediate', '[]', 1, ${whatsapp}, 0, 24, 'UTC', 1,
        ?3, CASE WHEN ${whatsapp} THEN printf('+1555%07d', i) END,
        CASE WHEN ${whatsapp} THEN printf('+1555%07d', i) END, ?3, ?3, '[1440]'
      FROM seq`,
    ).bind(count, tag, now),
    env.DB.prepare(
      `INSERT INTO user_platforms (user_id, platform)
      SELECT id, 'codeforces' FROM users WHERE id LIKE ?1 || '%'`,
    ).bind(tag),
  ])
  return tag
}
