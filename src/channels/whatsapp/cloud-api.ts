// The WhatsApp channel: Cloud API template messages (alerts, and the authentication template that
// carries phone verification codes) when WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set, the
// local outbox when DEV_OUTBOX is on, otherwise disabled.
import { settings, type Env } from '../../env.ts'
import { writeOutbox } from '../outbox.ts'

export type WhatsAppProvider = 'cloud-api' | 'outbox' | 'none'

export interface WhatsAppMessage {
  /** The recipient's phone number as the user typed it. */
  to: string
  /** The template's body variables, in order. */
  params: string[]
  /** Echoed back in status webhooks; the delivery id, so a send can be traced. */
  reference?: string
}

export interface WhatsAppResult {
  ok: boolean
  id?: string
  error?: string
  /** The answer in a person's words (define.ts SendResult). */
  said?: string
  transient?: boolean
  provider: WhatsAppProvider
}

const SEND_TIMEOUT_MS = 10_000
// Graph API error codes: rate limits and temporary outages are worth a retry; an
// unknown or unreachable recipient, a bad template or a revoked token will not get better.
const TRANSIENT_CODES = new Set([130429, 131056, 1, 2])
const PERMANENT_CODES = new Set([131026, 131047, 100, 132000, 132001, 190, 368])
// The Graph API's codes of a refused message, in a person's words
// (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
const WHATSAPP_WORDS = new Map<number, string>([
  [131026, 'the number is not on WhatsApp'],
  [131047, 'the number has not written to us in 24 hours, so only templates reach it'],
  [131030, 'the number is not on the allowed list of a test account'],
  [131049, 'Meta held the message back to keep engagement healthy'],
  [131050, 'the person stopped marketing messages'],
  [130429, 'WhatsApp asked to slow down'],
  [131056, 'too many messages to this number; try later'],
  [132000, 'the template does not fit the message'],
  [132001, 'the template does not exist in this language'],
  [190, 'the access token expired or was revoked'],
  [368, 'the business account is restricted'],
])
// Template variables may not hold line breaks, tabs or more than four spaces in a row.
const MAX_PARAM_LENGTH = 1000

export function whatsappProvider(env: Env): WhatsAppProvider {
  const s = settings(env)
  if (s.WHATSAPP_TOKEN && s.WHATSAPP_PHONE_NUMBER_ID) return 'cloud-api'
  return s.DEV_OUTBOX ? 'outbox' : 'none'
}

/** Transient when the code says so; otherwise by HTTP status (429 and 5xx). */
export function isTransientWhatsAppError(status: number, code: number | undefined): boolean {
  if (code !== undefined && TRANSIENT_CODES.has(code)) return true
  if (code !== undefined && PERMANENT_CODES.has(code)) return false
  return status === 429 || status >= 500
}

/** The digits the Cloud API wants (country code first), or undefined when it cannot be a number. */
export function toWhatsAppNumber(phone: string): string | undefined {
  const compact = phone.trim().replace(/[\s().-]/g, '')
  if (!/^\+?\d{7,15}$/.test(compact)) return undefined
  return compact.replace(/^\+/, '')
}

export function templateParam(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_PARAM_LENGTH ? `${flat.slice(0, MAX_PARAM_LENGTH - 1)}…` : flat
}

interface GraphError {
  error?: { message?: unknown; code?: unknown; error_subcode?: unknown }
}

interface Template {
  name: string
  components: Record<string, unknown>[]
}

const textParams = (texts: string[]) => texts.map((text) => ({ type: 'text', text }))

async function sendWithCloudApi(env: Env, to: string, template: Template, reference?: string) {
  const s = settings(env)
  const body = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    ...(reference && { biz_opaque_callback_data: reference }),
    template: { ...template, language: { code: s.WHATSAPP_TEMPLATE_LANGUAGE } },
  }
  const url = `${s.WHATSAPP_API_URL.replace(/\/+$/, '')}/${s.WHATSAPP_PHONE_NUMBER_ID}/messages`
  let res: Response
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.WHATSAPP_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
  } catch (error) {
    const result: WhatsAppResult = {
      ok: false,
      provider: 'cloud-api',
      transient: true,
      error: `WhatsApp unreachable: ${error}`,
    }
    return result
  }
  const data = (await res.json().catch(() => ({}))) as GraphError & {
    messages?: { id?: unknown }[]
  }
  if (!res.ok) {
    const code = typeof data.error?.code === 'number' ? data.error.code : undefined
    const detail = typeof data.error?.message === 'string' ? data.error.message : res.statusText
    const result: WhatsAppResult = {
      ok: false,
      provider: 'cloud-api',
      transient: isTransientWhatsAppError(res.status, code),
      ...(code !== undefined && WHATSAPP_WORDS.has(code) && { said: WHATSAPP_WORDS.get(code) }),
      error: `WhatsApp answered ${res.status}${code !== undefined ? ` (code ${code})` : ''}: ${detail}`,
    }
    return result
  }
  const id = data.messages?.[0]?.id
  const result: WhatsAppResult = {
    ok: true,
    provider: 'cloud-api',
    ...(typeof id === 'string' && { id }),
  }
  return result
}

/** Sends `template` through the provider in use, or says why it could not. */
async function sendTemplate(
  env: Env,
  phone: string,
  template: Template,
  bodyParams: string[],
  reference?: string,
): Promise<WhatsAppResult> {
  const provider = whatsappProvider(env)
  if (provider === 'none') {
    return {
      ok: false,
      provider,
      transient: false,
      error:
        'The WhatsApp channel is disabled: WHATSAPP_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set',
    }
  }
  const to = toWhatsAppNumber(phone)
  if (!to) {
    const error = 'The phone number is not valid'
    return { ok: false, provider, transient: false, error, said: 'the number is not valid' }
  }
  if (provider === 'cloud-api') return sendWithCloudApi(env, to, template, reference)
  const s = settings(env)
  const id = await writeOutbox(
    env.KV,
    {
      channel: 'whatsapp',
      from: `whatsapp:${s.WHATSAPP_PHONE_NUMBER_ID ?? 'local'}`,
      to,
      subject: `template ${template.name}`,
      text: bodyParams.join('\n'),
      params: bodyParams,
    },
    Date.now(),
  )
  return { ok: true, provider, id }
}

export function sendWhatsApp(env: Env, message: WhatsAppMessage): Promise<WhatsAppResult> {
  const params = message.params.map(templateParam)
  const template = {
    name: settings(env).WHATSAPP_TEMPLATE_NAME,
    components: [{ type: 'body', parameters: textParams(params) }],
  }
  return sendTemplate(env, message.to, template, params, message.reference)
}

/**
 * Sends a verification code with the authentication template (WHATSAPP_AUTH_TEMPLATE_NAME). Meta
 * wants the code twice: as the body's one parameter and as the parameter of the copy-code (or
 * one-tap) button, which the API models as a URL button at index 0.
 */
export function sendWhatsAppCode(env: Env, phone: string, code: string): Promise<WhatsAppResult> {
  const template = {
    name: settings(env).WHATSAPP_AUTH_TEMPLATE_NAME,
    components: [
      { type: 'body', parameters: textParams([code]) },
      { type: 'button', sub_type: 'url', index: '0', parameters: textParams([code]) },
    ],
  }
  return sendTemplate(env, phone, template, [code])
}
