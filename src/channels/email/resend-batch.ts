// Many emails per provider call: Resend's POST /emails/batch (up to 100 emails a call), the local
// outbox when DEV_OUTBOX is on, disabled otherwise. Each email learns its own outcome.
import { settings, type Env } from '../../env.ts'
import {
  emailDisabled,
  emailProvider,
  resendRefusal,
  resendWords,
  resendApiUrl,
  resendEmailBody,
  resendHeaders,
  writeEmailToOutbox,
  type EmailMessage,
  type EmailProvider,
  type SendResult,
} from './resend.ts'

/** Resend takes at most 100 emails per batch call (and refuses the whole call above that). */
export const RESEND_BATCH_LIMIT = 100

/** Resend keeps idempotency keys of 1 to 256 characters (400 invalid_idempotency_key otherwise). */
const IDEMPOTENCY_KEY_MAX = 256

// Up to 100 emails in one request take Resend longer to accept than one; a timeout is retried
// with the same idempotency key, so waiting a little longer costs nothing but avoids the retry.
const BATCH_TIMEOUT_MS = 20_000

export interface BatchSendOptions {
  /**
   * Names this batch for Resend, which answers a repeat of the same key and the same emails
   * (for 24 hours) with the first answer instead of sending again. A different list of emails
   * needs a different key: Resend refuses a known key with another payload (409, permanent).
   * The messages' own idempotencyKey fields are not sent: a batch has one key for the call.
   */
  idempotencyKey: string
}

export interface BatchSendResult {
  provider: EmailProvider
  /** One result per message, in the order given: ok with Resend's id, or why not. */
  results: SendResult[]
  /** Requests made to Resend: one per 100 messages (0 for the outbox, when disabled or empty). */
  calls: number
}

/**
 * Sends `messages` in as few provider calls as Resend allows. More than 100 are split into calls
 * of 100 in order, the n-th (from 0) under the key `${idempotencyKey}/${n}`, so the same list
 * with the same key makes the same calls again; up to 100 go under the key unchanged. Throws a
 * RangeError for an empty key or one too long for Resend (a programming error, not an outcome).
 */
export async function sendEmailBatch(
  env: Env,
  messages: EmailMessage[],
  { idempotencyKey }: BatchSendOptions,
): Promise<BatchSendResult> {
  const chunks: EmailMessage[][] = []
  for (let i = 0; i < messages.length; i += RESEND_BATCH_LIMIT) {
    chunks.push(messages.slice(i, i + RESEND_BATCH_LIMIT))
  }
  const keys = chunks.length > 1 ? chunks.map((_, n) => `${idempotencyKey}/${n}`) : [idempotencyKey]
  if (!idempotencyKey || keys.some((k) => k.length > IDEMPOTENCY_KEY_MAX)) {
    throw new RangeError(
      `sendEmailBatch needs an idempotency key of 1 to ${IDEMPOTENCY_KEY_MAX} characters` +
        (chunks.length > 1 ? ` once /<call number> is added for ${chunks.length} calls` : ''),
    )
  }

  const provider = emailProvider(env)
  if (provider === 'outbox') {
    const results = await Promise.all(messages.map((m) => writeEmailToOutbox(env, m)))
    return { provider, results, calls: 0 }
  }
  if (provider === 'none') return { provider, results: messages.map(emailDisabled), calls: 0 }

  // One call at a time: Resend rate-limits per team (2 requests a second by default), so
  // parallel calls would mostly buy 429s.
  const results: SendResult[] = []
  for (const [n, chunk] of chunks.entries()) {
    results.push(...(await sendResendBatch(env, chunk, keys[n])))
  }
  return { provider, results, calls: chunks.length }
}

async function sendResendBatch(
  env: Env,
  messages: EmailMessage[],
  idempotencyKey: string,
): Promise<SendResult[]> {
  const from = settings(env).FROM_EMAIL
  let res: Response
  try {
    res = await fetch(`${resendApiUrl(env)}/emails/batch`, {
      method: 'POST',
      headers: {
        ...resendHeaders(env),
        'Idempotency-Key': idempotencyKey,
        // Strict mode (the default) refuses the whole batch for one bad address; permissive
        // sends the valid emails and names the others, so one recipient cannot block the rest.
        'x-batch-validation': 'permissive',
      },
      body: JSON.stringify(messages.map((m) => resendEmailBody(from, m))),
      signal: AbortSignal.timeout(BATCH_TIMEOUT_MS),
    })
  } catch (error) {
    const unreachable = `Resend unreachable: ${error}`
    return messages.map(() => ({
      ok: false,
      provider: 'resend',
      transient: true,
      error: unreachable,
    }))
  }
  if (!res.ok) {
    const refusal = await resendRefusal(res)
    // One wrong address refuses the whole batch: the others' words must not blame theirs.
    const said =
      refusal.said === 'the address was refused'
        ? 'the mail service refused the batch this email was in'
        : refusal.said
    return messages.map(() => ({ ok: false, provider: 'resend', ...refusal, said }))
  }
  return readBatchAnswer(await res.json().catch(() => ({})), messages.length)
}

/**
 * Maps a 2xx answer of POST /emails/batch to one result per email sent. Resend documents the
 * permissive answer (https://resend.com/docs/dashboard/emails/batch-validation-modes) as
 * `{ data: [{ id }], errors: [{ index, message }] }`: `data` holds the created emails,
 * `errors` those that could not be created for a validation error, `index` being the email's
 * 0-based position in the request. Its example pairs `data` with the emails not in `errors`,
 * in request order, which is how ids are given out here. A validation error will fail again,
 * so it is permanent for that email alone.
 *
 * A 2xx means Resend queued every email not in `errors`, so they are sent even if `data` does
 * not have one id for each (an answer Resend does not give): then no ids are guessed.
 */
export function readBatchAnswer(body: unknown, count: number): SendResult[] {
  const { data, errors } = (body ?? {}) as { data?: unknown; errors?: unknown }
  const failed = new Map<number, string>()
  for (const e of Array.isArray(errors) ? errors : []) {
    const { index, message } = (e ?? {}) as { index?: unknown; message?: unknown }
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
      continue
    }
    failed.set(index, typeof message === 'string' ? message : 'no reason given')
  }
  const ids = (Array.isArray(data) ? data : []).map((d) => (d as { id?: unknown } | null)?.id)
  const paired = ids.length === count - failed.size && ids.every((id) => typeof id === 'string')
  let next = 0
  return Array.from({ length: count }, (_, i): SendResult => {
    const error = failed.get(i)
    if (error !== undefined) {
      const refused = `Resend refused this email: ${error}`
      const said = resendWords(422, error)
      return {
        ok: false,
        provider: 'resend',
        transient: false,
        error: refused,
        ...(said && { said }),
      }
    }
    const id = ids[next++]
    return { ok: true, provider: 'resend', ...(paired && { id: id as string }) }
  })
}
