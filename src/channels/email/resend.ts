// The email channel: Resend's HTTP API when RESEND_API_KEY is set, the local outbox when
// DEV_OUTBOX is on, otherwise disabled. Callers always learn truthfully whether mail went out.
import { settings, type Env } from '../../env.ts'
import { writeOutbox } from '../outbox.ts'

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
  /** The answer in a person's words (define.ts SendResult). */
  said?: string
  /** Worth retrying later (rate limited, provider or network failure). */
  transient?: boolean
  /** Resend's name for the error (`validation_error`, `invalid_idempotent_request`...). */
  code?: string
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

/**
 * Resend's error answer, `{ statusCode, name, message }`: its name (e.g. the idempotency
 * conflicts' `invalid_idempotent_request`) and message, or the raw text when it is not JSON.
 */
export async function readResendError(res: Response): Promise<{ name?: string; message: string }> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { message?: unknown; name?: unknown }
    if (typeof body.message === 'string') {
      return { message: body.message, ...(typeof body.name === 'string' && { name: body.name }) }
    }
  } catch {
    // Not JSON: the raw text (trimmed) says what went wrong.
  }
  return { message: text.slice(0, 200) || res.statusText }
}

/**
 * What a refused call means: the error, Resend's name for it, and whether trying again later can
 * help. https://resend.com/docs/dashboard/emails/idempotency-keys: 409
 * concurrent_idempotent_requests is a request with the same key still in progress ("safe to retry
 * this request later"); 409 invalid_idempotent_request is the key used with another payload.
 */
export async function resendRefusal(res: Response) {
  const { name, message } = await readResendError(res)
  const transient = isTransientStatus(res.status) || name === 'concurrent_idempotent_requests'
  const said = resendWords(res.status, message)
  return {
    transient,
    error: `Resend answered ${res.status}: ${message}`,
    ...(said && { said }),
    ...(name && { code: name }),
  }
}

/** A refusal of Resend's in a person's words; undefined when its message says it better. */
export function resendWords(status: number, message: string): string | undefined {
  if (/`to`/.test(message)) return 'the address was refused'
  if (status === 429) return 'Resend asked to slow down'
  if (status === 401 || status === 403) return 'the mail service refused our key or domain'
  if (status >= 500) return 'the mail service is having trouble'
  return undefined
}

/** Resend's base URL (RESEND_API_URL, without a trailing slash). */
export function resendApiUrl(env: Env): string {
  return settings(env).RESEND_API_URL.replace(/\/+$/, '')
}

/** The headers every Resend call carries: the API key and a JSON body. */
export function resendHeaders(env: Env): Record<string, string> {
  return {
    Authorization: `Bearer ${settings(env).RESEND_API_KEY}`,
    'Content-Type': 'application/json',
  }
}

/**
 * One email as Resend takes it: the body of POST /emails and one item of POST /emails/batch
 * (the batch endpoint takes the same fields, headers included; only attachments and
 * scheduled_at are not supported there). The idempotency key is a request header instead.
 */
export function resendEmailBody(from: string, message: EmailMessage) {
  return {
    from,
    to: Array.isArray(message.to) ? message.to : [message.to],
    subject: message.subject,
    html: message.html,
    ...(message.text && { text: message.text }),
    ...(message.replyTo && { reply_to: message.replyTo }),
    ...(message.headers && { headers: message.headers }),
  }
}

async function sendWithResend(env: Env, message: EmailMessage): Promise<SendResult> {
  const headers = resendHeaders(env)
  if (message.idempotencyKey) headers['Idempotency-Key'] = message.idempotencyKey
  const body = resendEmailBody(settings(env).FROM_EMAIL, message)
  let res: Response
  try {
    res = await fetch(`${resendApiUrl(env)}/emails`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (error) {
    return { ok: false, provider: 'resend', transient: true, error: `Resend unreachable: ${error}` }
  }
  if (!res.ok) return { ok: false, provider: 'resend', ...(await resendRefusal(res)) }
  const data = (await res.json().catch(() => ({}))) as { id?: unknown }
  return { ok: true, provider: 'resend', ...(typeof data.id === 'string' && { id: data.id }) }
}

export async function sendEmail(env: Env, message: EmailMessage): Promise<SendResult> {
  const provider = emailProvider(env)
  if (provider === 'resend') return sendWithResend(env, message)
  if (provider === 'outbox') return writeEmailToOutbox(env, message)
  return emailDisabled()
}

/** One outbox record per email (DEV_OUTBOX), as it would have gone to Resend. */
export async function writeEmailToOutbox(env: Env, message: EmailMessage): Promise<SendResult> {
  const record = { channel: 'email' as const, from: settings(env).FROM_EMAIL, ...message }
  const id = await writeOutbox(env.KV, record, Date.now())
  return { ok: true, provider: 'outbox', id }
}

/** The answer when there is neither a Resend key nor the outbox: retrying will not change it. */
export function emailDisabled(): SendResult {
  return {
    ok: false,
    provider: 'none',
    transient: false,
    error: 'The email channel is disabled: RESEND_API_KEY is not set and DEV_OUTBOX is off',
  }
}
