// The email channel: Resend's HTTP API when RESEND_API_KEY is set, the local outbox when
// DEV_OUTBOX is on, otherwise disabled. Callers always learn truthfully whether mail went out.
import { settings, type Env } from '../env.ts'
import { writeOutbox } from './outbox.ts'

export interface EmailMessage {
  to: string | string[]
  subject: string
  html: string
  text?: string
  replyTo?: string
  /** Resend de-duplicates sends with the same key for 24 hours (e.g. a delivery id). */
  idempotencyKey?: string
  /** Extra message headers (List-Unsubscribe of non-transactional mail). */
  headers?: Record<string, string>
}

export type EmailProvider = 'resend' | 'outbox' | 'none'

export interface SendResult {
  ok: boolean
  /** The provider's message id. */
  id?: string
  error?: string
  /** Worth retrying later (rate limited, provider or network failure). */
  transient?: boolean
  provider: EmailProvider
}

const SEND_TIMEOUT_MS = 10_000

export function emailProvider(env: Env): EmailProvider {
  const s = settings(env)
  if (s.RESEND_API_KEY) return 'resend'
  return s.DEV_OUTBOX ? 'outbox' : 'none'
}

export function emailChannelStatus(env: Env) {
  const provider = emailProvider(env)
  return { enabled: provider !== 'none', provider }
}

/** Resend answers 429 when rate limited and 5xx when failing; other 4xx will not get better. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500
}

async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { message?: unknown; name?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {
    // Not JSON: the raw text (trimmed) says what went wrong.
  }
  return text.slice(0, 200) || res.statusText
}

async function sendWithResend(env: Env, message: EmailMessage): Promise<SendResult> {
  const s = settings(env)
  const headers: Record<string, string> = {
    Authorization: `Bearer ${s.RESEND_API_KEY}`,
    'Content-Type': 'application/json',
  }
  if (message.idempotencyKey) headers['Idempotency-Key'] = message.idempotencyKey
  const body = {
    from: s.FROM_EMAIL,
    to: Array.isArray(message.to) ? message.to : [message.to],
    subject: message.subject,
    html: message.html,
    ...(message.text && { text: message.text }),
    ...(message.replyTo && { reply_to: message.replyTo }),
    ...(message.headers && { headers: message.headers }),
  }
  let res: Response
  try {
    res = await fetch(`${s.RESEND_API_URL.replace(/\/+$/, '')}/emails`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (error) {
    return { ok: false, provider: 'resend', transient: true, error: `Resend unreachable: ${error}` }
  }
  if (!res.ok) {
    const detail = await errorText(res)
    return {
      ok: false,
      provider: 'resend',
      transient: isTransientStatus(res.status),
      error: `Resend answered ${res.status}: ${detail}`,
    }
  }
  const data = (await res.json().catch(() => ({}))) as { id?: unknown }
  return { ok: true, provider: 'resend', ...(typeof data.id === 'string' && { id: data.id }) }
}

export async function sendEmail(env: Env, message: EmailMessage): Promise<SendResult> {
  const provider = emailProvider(env)
  if (provider === 'resend') return sendWithResend(env, message)
  if (provider === 'outbox') {
    const record = { channel: 'email' as const, from: settings(env).FROM_EMAIL, ...message }
    const id = await writeOutbox(env.KV, record, Date.now())
    return { ok: true, provider, id }
  }
  return {
    ok: false,
    provider,
    transient: false,
    error: 'The email channel is disabled: RESEND_API_KEY is not set and DEV_OUTBOX is off',
  }
}
