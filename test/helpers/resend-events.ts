// Resend's webhooks as Svix sends them: an event body signed in the Standard Webhooks format with
// a test secret (the `standardwebhooks` package), posted to the service's receiver.
import { Webhook } from 'standardwebhooks'
import { newId } from '../../src/lib/ids.ts'
import { nextIp } from './users.ts'
import { call } from './worker.ts'

/** The receiver's secret in tests: `whsec_` and the base64 of 24 fixed bytes. */
export const RESEND_WEBHOOK_SECRET = `whsec_${btoa('resend-events-test-secret')}`

export const RESEND_EVENTS = '/providers/resend/events'

export type ResendEventType = 'email.delivered' | 'email.bounced' | 'email.complained'

/** An event body shaped as Resend documents it; `bounce` only for email.bounced. */
export function resendEvent(
  type: ResendEventType | string,
  emailId: string,
  bounce?: { type: string; subType: string },
) {
  return JSON.stringify({
    type,
    created_at: new Date().toISOString(),
    data: {
      email_id: emailId,
      from: 'Contest Alerts <alerts@contest-alert.dev>',
      to: ['someone@example.test'],
      subject: 'Reminder',
      created_at: new Date().toISOString(),
      ...(bounce && { bounce: { message: 'The recipient does not exist', ...bounce } }),
    },
  })
}

/** The svix-* headers of `body`, signed with `secret` at `at` (now unless given). */
export function svixHeaders(
  body: string,
  options: { secret?: string; id?: string; at?: Date } = {},
) {
  const id = options.id ?? `msg_${newId()}`
  const at = options.at ?? new Date()
  const signature = new Webhook(options.secret ?? RESEND_WEBHOOK_SECRET).sign(id, at, body)
  return {
    'svix-id': id,
    'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
    'svix-signature': signature,
  }
}

/** Posts a raw body with the given headers to the receiver, configured with the test secret. */
export async function postResendEvent(
  body: string,
  headers: Record<string, string>,
  { configured = true } = {},
) {
  const res = await call(
    RESEND_EVENTS,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp(), ...headers },
      body,
    },
    { RESEND_WEBHOOK_SECRET: configured ? RESEND_WEBHOOK_SECRET : undefined },
  )
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
