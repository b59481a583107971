// Resend's sending endpoints for the loopback stand-in: POST /emails, and POST /emails/batch with
// its strict and permissive validation and its Idempotency-Key replays. It remembers the emails
// it accepted, so a test can tell a replayed answer from a second send.
import { randomUUID } from 'node:crypto'
import type { ScriptedResponse } from './providers.ts'

/** An email the stand-in created (gave an id), as a test sees it at /__control/emails. */
export interface AcceptedEmail {
  id: string
  endpoint: 'emails' | 'emails/batch'
  to: unknown
  subject: unknown
  /** The Idempotency-Key of the request that created it. */
  idempotencyKey?: string
}

// https://resend.com/docs/api-reference/emails/send-batch-emails: up to 100 emails a call, and
// up to 50 recipients an email.
const BATCH_LIMIT = 100
const MAX_RECIPIENTS = 50
const IDEMPOTENCY_KEY_MAX = 256

const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/

const validationError = (message: string): ScriptedResponse => ({
  status: 422,
  body: { statusCode: 422, name: 'validation_error', message },
})

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Resend refuses `headers` that are not an object of string values. */
function validHeaders(headers: unknown): boolean {
  return (
    headers === undefined ||
    (typeof headers === 'object' &&
      headers !== null &&
      Object.values(headers).every((v) => typeof v === 'string'))
  )
}

/** `email@example.com` or `Name <email@example.com>`, the two forms Resend takes. */
function isAddress(value: unknown): boolean {
  if (typeof value !== 'string') return false
  const named = /^[^<>]*<([^<>]+)>$/.exec(value.trim())
  return ADDRESS.test(named ? named[1] : value.trim())
}

/** Why Resend would not create one email of a batch, or undefined when it would. */
function emailError(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return 'Each email must be an object.'
  }
  const email = item as Record<string, unknown>
  const format = 'follow the `email@example.com` or `Name <email@example.com>` format.'
  if (email.from === undefined || email.from === '') return 'The `from` field is missing.'
  if (!isAddress(email.from)) return `Invalid \`from\` field. The email address needs to ${format}`
  const to = Array.isArray(email.to) ? email.to : email.to === undefined ? [] : [email.to]
  if (to.length === 0) return 'The `to` field is missing.'
  if (to.length > MAX_RECIPIENTS)
    return `The \`to\` field takes at most ${MAX_RECIPIENTS} addresses.`
  if (!to.every(isAddress)) return `Invalid \`to\` field. The email address needs to ${format}`
  if (typeof email.subject !== 'string' || email.subject === '') {
    return 'The `subject` field is missing.'
  }
  if (!validHeaders(email.headers)) return 'Invalid `headers` field'
  return undefined
}

export function createResendStandIn() {
  let accepted: AcceptedEmail[] = []
  // Idempotency-Key → the body it first came with and the answer given. Only answers that
  // created emails are kept: a refused request created nothing and may be corrected and sent
  // again under its key. Resend keeps keys for 24 hours; here until the next reset.
  let keys = new Map<string, { body: string; answer: ScriptedResponse }>()

  function accept(endpoint: AcceptedEmail['endpoint'], email: unknown, key: string | undefined) {
    const id = randomUUID()
    const { to, subject } = email as { to?: unknown; subject?: unknown }
    accepted.push({ id, endpoint, to, subject, ...(key !== undefined && { idempotencyKey: key }) })
    return id
  }

  /** POST /emails: only `headers` is checked, as the tests of single sends expect. */
  function single(headers: Record<string, string>, body: string): ScriptedResponse {
    const email = parse(body) as { headers?: unknown } | undefined
    if (!validHeaders(email?.headers)) return validationError('Invalid `headers` field')
    return { status: 200, body: { id: accept('emails', email, headers['idempotency-key']) } }
  }

  /**
   * POST /emails/batch. Strict mode (no x-batch-validation, or `strict`) refuses the whole
   * batch for one invalid email, naming it; permissive mode creates the valid ones and lists
   * the others under `errors` with their 0-based index
   * (https://resend.com/docs/dashboard/emails/batch-validation-modes).
   */
  function batch(headers: Record<string, string>, body: string): ScriptedResponse {
    const emails = parse(body)
    if (!Array.isArray(emails)) return validationError('The body must be an array of emails.')
    if (emails.length > BATCH_LIMIT) {
      return validationError(
        `Too many emails: a batch takes at most ${BATCH_LIMIT}, this one has ${emails.length}.`,
      )
    }
    const problems = emails.map(emailError)
    const permissive = headers['x-batch-validation']?.toLowerCase() === 'permissive'
    const first = problems.findIndex((p) => p !== undefined)
    if (!permissive && first >= 0) return validationError(`emails[${first}]: ${problems[first]}`)
    const key = headers['idempotency-key']
    const data: { id: string }[] = []
    const errors: { index: number; message: string }[] = []
    emails.forEach((email, index) => {
      const message = problems[index]
      if (message === undefined) data.push({ id: accept('emails/batch', email, key) })
      else errors.push({ index, message })
    })
    return { status: 200, body: permissive ? { data, errors } : { data } }
  }

  /**
   * https://resend.com/docs/dashboard/emails/idempotency-keys: the same key and payload get the
   * first answer again and send nothing; the same key with another payload is a 409.
   */
  function idempotent(
    headers: Record<string, string>,
    body: string,
    handle: () => ScriptedResponse,
  ): ScriptedResponse {
    const key = headers['idempotency-key']
    if (key === undefined) return handle()
    if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) {
      return {
        status: 400,
        body: {
          statusCode: 400,
          name: 'invalid_idempotency_key',
          message: `The idempotency key has to be between 1-${IDEMPOTENCY_KEY_MAX} characters.`,
        },
      }
    }
    const seen = keys.get(key)
    if (seen && seen.body !== body) {
      return {
        status: 409,
        body: {
          statusCode: 409,
          name: 'invalid_idempotent_request',
          message:
            'This idempotency key has already been used on a request with a different payload.',
        },
      }
    }
    if (seen) return seen.answer
    const answer = handle()
    if (answer.status >= 200 && answer.status < 300) keys.set(key, { body, answer })
    return answer
  }

  return {
    /** Resend's answer, or undefined when the request is not for one of its endpoints. */
    respond(
      method: string,
      path: string,
      headers: Record<string, string>,
      body: string,
    ): ScriptedResponse | undefined {
      if (method !== 'POST') return undefined
      // Only the batch endpoint replays by key: POST /emails answers as it did before the
      // stand-in knew keys (a new id per request), which the existing tests were written for.
      if (/\/emails\/batch$/.test(path))
        return idempotent(headers, body, () => batch(headers, body))
      if (/\/emails$/.test(path)) return single(headers, body)
      return undefined
    },
    /** Emails created so far (replays add none), oldest first. */
    accepted: () => accepted,
    /** Forgets created emails and idempotency keys. */
    reset() {
      accepted = []
      keys = new Map()
    },
  }
}
