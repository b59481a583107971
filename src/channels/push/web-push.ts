// The push channel: Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291)
// when VAPID keys are set, the local outbox when DEV_OUTBOX is on, otherwise disabled.
import { encryptNotification } from '@block65/webcrypto-web-push'
import { importJWK, SignJWT } from 'jose'
import { settings, type Env, type Settings } from '../../env.ts'
import { fromBase64Url, toBase64Url } from '../../lib/crypto.ts'
import { log } from '../../lib/log.ts'
import { writeOutbox } from '../outbox.ts'
import { pushEndpointProblem } from './push-target.ts'

export type PushProvider = 'web-push' | 'outbox' | 'none'

export interface PushTarget {
  endpoint: string
  p256dh: string
  auth: string
}

export interface PushOptions {
  /** Seconds the push service keeps the message for an offline browser (at most a day). */
  ttl?: number
  urgency?: 'very-low' | 'low' | 'normal' | 'high'
  /** Messages with the same topic replace each other while undelivered. */
  topic?: string
}

export interface PushResult {
  ok: boolean
  id?: string
  error?: string
  transient?: boolean
  /** The push service no longer knows the subscription (404/410): it should be deleted. */
  gone?: boolean
  provider: PushProvider
}

const SEND_TIMEOUT_MS = 10_000
const DEFAULT_TTL_SECONDS = 24 * 60 * 60
// RFC 8292 lets a VAPID token live up to a day; a shorter life limits a leaked header's use.
const VAPID_TOKEN_SECONDS = 12 * 60 * 60

export function pushProvider(env: Env): PushProvider {
  const s = settings(env)
  if (s.VAPID_PUBLIC_KEY && s.VAPID_PRIVATE_KEY) return 'web-push'
  return s.DEV_OUTBOX ? 'outbox' : 'none'
}

function decodes(text: string, length: number, first?: number): boolean {
  try {
    const bytes = fromBase64Url(text)
    return bytes.length === length && (first === undefined || bytes[0] === first)
  } catch {
    return false
  }
}

/** True when the VAPID keys have the shapes RFC 8292 needs: a P-256 point and a 32-byte scalar. */
export function vapidKeysValid(s: Settings): boolean {
  return (
    !!s.VAPID_PUBLIC_KEY &&
    !!s.VAPID_PRIVATE_KEY &&
    decodes(s.VAPID_PUBLIC_KEY, 65, 4) &&
    decodes(s.VAPID_PRIVATE_KEY, 32)
  )
}

/** VAPID_SUBJECT, or a mailto: of the sender address so push services can reach the operator. */
export function vapidSubject(s: Settings): string {
  if (s.VAPID_SUBJECT) return s.VAPID_SUBJECT
  const address = /<([^>]+)>/.exec(s.FROM_EMAIL)?.[1] ?? s.FROM_EMAIL
  return `mailto:${address.trim()}`
}

type SigningKey = Awaited<ReturnType<typeof importJWK>>

const signingKeys = new Map<string, Promise<SigningKey>>()

function signingKey(publicKey: string, privateKey: string): Promise<SigningKey> {
  const cacheKey = `${publicKey}.${privateKey}`
  const cached = signingKeys.get(cacheKey)
  if (cached) return cached
  const point = fromBase64Url(publicKey)
  const key = importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: toBase64Url(point.subarray(1, 33)),
      y: toBase64Url(point.subarray(33, 65)),
      d: privateKey,
    },
    'ES256',
  )
  // A key that failed to import is not kept, so fixed settings take effect.
  key.catch(() => signingKeys.delete(cacheKey))
  signingKeys.set(cacheKey, key)
  return key
}

/** The `Authorization: vapid t=..., k=...` value for a push service at `endpoint`. */
export async function vapidAuthorization(s: Settings, endpoint: string, now: number) {
  const key = await signingKey(s.VAPID_PUBLIC_KEY!, s.VAPID_PRIVATE_KEY!)
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setAudience(new URL(endpoint).origin)
    .setExpirationTime(Math.floor(now / 1000) + VAPID_TOKEN_SECONDS)
    .setSubject(vapidSubject(s))
    .sign(key)
  return `vapid t=${token}, k=${s.VAPID_PUBLIC_KEY}`
}

/**
 * 404 and 410 mean the subscription is gone; 429 and 5xx are worth a retry; the rest, redirects
 * included (never followed), are not.
 */
export function classifyPushStatus(status: number): 'ok' | 'gone' | 'transient' | 'permanent' {
  if (status >= 200 && status < 300) return 'ok'
  if (status === 404 || status === 410) return 'gone'
  if (status === 429 || status >= 500) return 'transient'
  return 'permanent'
}

/**
 * What a push service or the network said goes to the log only: the delivery error is shown to
 * the user, and a body (or an error naming hosts) may carry text meant for nobody outside.
 */
function logPushFailure(endpoint: string, event: string, detail: unknown, status?: number) {
  log.warn(event, {
    // The origin only: the endpoint's path is the subscription's bearer capability.
    service: new URL(endpoint).origin,
    ...(status !== undefined && { status }),
    detail: String(detail).slice(0, 500),
  })
}

async function sendWithWebPush(
  env: Env,
  target: PushTarget,
  payload: unknown,
  options: PushOptions,
): Promise<PushResult> {
  const s = settings(env)
  // Checked again at each send: the subscription may predate the rule, or the settings changed.
  const refused = pushEndpointProblem(env, target.endpoint)
  if (refused) {
    return { ok: false, provider: 'web-push', transient: false, error: `Not sent: ${refused}` }
  }
  let body: Uint8Array<ArrayBuffer>
  let authorization: string
  try {
    body = (await encryptNotification(
      { endpoint: target.endpoint, expirationTime: null, keys: target },
      new TextEncoder().encode(JSON.stringify(payload)),
    )) as Uint8Array<ArrayBuffer>
    authorization = await vapidAuthorization(s, target.endpoint, Date.now())
  } catch (error) {
    // Bad subscription keys, a payload over 4 KB or unusable VAPID keys: no retry will help.
    logPushFailure(target.endpoint, 'push-not-built', error)
    return { ok: false, provider: 'web-push', transient: false, error: 'Push message not built' }
  }
  const ttl = Math.min(Math.max(options.ttl ?? DEFAULT_TTL_SECONDS, 0), DEFAULT_TTL_SECONDS)
  const headers: Record<string, string> = {
    Authorization: authorization,
    'Content-Encoding': 'aes128gcm',
    'Content-Type': 'application/octet-stream',
    TTL: String(Math.floor(ttl)),
    Urgency: options.urgency ?? 'normal',
  }
  if (options.topic) headers.Topic = options.topic
  let res: Response
  try {
    res = await fetch(target.endpoint, {
      method: 'POST',
      headers,
      body,
      // A push service never redirects; following one would send the Worker wherever it points.
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (error) {
    logPushFailure(target.endpoint, 'push-unreachable', error)
    return { ok: false, provider: 'web-push', transient: true, error: 'Push service unreachable' }
  }
  const kind = classifyPushStatus(res.status)
  if (kind === 'ok') {
    await res.body?.cancel()
    const id = res.headers.get('Location') ?? undefined
    return { ok: true, provider: 'web-push', ...(id && { id }) }
  }
  const detail = (await res.text().catch(() => '')) || res.statusText
  logPushFailure(target.endpoint, 'push-refused', detail, res.status)
  return {
    ok: false,
    provider: 'web-push',
    transient: kind === 'transient',
    gone: kind === 'gone',
    error: `Push service answered ${res.status}`,
  }
}

export async function sendPush(
  env: Env,
  target: PushTarget,
  payload: { title: string; body: string; [key: string]: unknown },
  options: PushOptions = {},
): Promise<PushResult> {
  const provider = pushProvider(env)
  if (provider === 'web-push') return sendWithWebPush(env, target, payload, options)
  if (provider === 'outbox') {
    const id = await writeOutbox(
      env.KV,
      {
        channel: 'push',
        from: 'web-push',
        to: target.endpoint,
        subject: payload.title,
        text: payload.body,
        payload,
      },
      Date.now(),
    )
    return { ok: true, provider, id }
  }
  return {
    ok: false,
    provider,
    transient: false,
    error: 'The push channel is disabled: VAPID_PUBLIC_KEY or VAPID_PRIVATE_KEY is not set',
  }
}
