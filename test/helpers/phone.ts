// Phone verification for tests, through the API: the code goes to the dev outbox (so the WhatsApp
// stand-in records only what a test itself sends), is read back there and checked.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { readOutbox } from '../../src/channels/outbox.ts'
import type { Env } from '../../src/env.ts'
import { api, type TestUser } from './users.ts'

/** No WhatsApp credentials and the outbox on: the code is kept in KV instead of sent. */
export const WHATSAPP_OUTBOX: Partial<Env> = { WHATSAPP_TOKEN: '', DEV_OUTBOX: 'true' }

let seq = 0
const run = String(Math.floor(Math.random() * 1000)).padStart(3, '0')

/** A number no other test uses, so per-number send limits never carry over between tests. */
export function uniquePhone(): string {
  return `+1555${run}${String(++seq).padStart(4, '0')}`
}

/**
 * The code of the newest verification message the outbox holds for `phoneNumber`. Not added to
 * the secrets no response may carry: GET /dev/outbox shows it to the developer by design.
 */
export async function lastOutboxCode(phoneNumber: string): Promise<string> {
  const to = phoneNumber.replace(/\D/g, '')
  const messages = await readOutbox(env.KV)
  const message = messages.find((m) => m.channel === 'whatsapp' && m.to === to)
  const code = (message?.params as string[] | undefined)?.[0]
  expect(code, `no verification code in the outbox for ${phoneNumber}`).toMatch(/^\d{6}$/)
  return code!
}

/**
 * Verifies the user's current number through the API. Limits are off for the send only: fixtures
 * reuse numbers across tests and files, and the limits have tests of their own.
 */
export async function verifyPhone(user: TestUser, phoneNumber: string) {
  const sent = await api('POST', '/users/phone/verification', {
    token: user.accessToken,
    bindings: { ...WHATSAPP_OUTBOX, RATE_LIMIT_DISABLED: 'true' },
  })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  const code = await lastOutboxCode(phoneNumber)
  const verified = await api('POST', '/users/phone/verify', {
    token: user.accessToken,
    body: { code },
  })
  expect(verified.status, JSON.stringify(verified.body)).toBe(200)
}
