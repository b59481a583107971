// The service's own log lines never carry a secret that travels in a URL: a private feed's token, a
// signed link's, Google's code and state, a provider's token in its API's address, a push
// endpoint's capability, a bearer token; whichever field or Error holds it.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import type { Env } from '../src/env.ts'
import { log } from '../src/lib/log.ts'
import { REDACTED, redactSecrets } from '../src/lib/log-redaction.ts'
import { muteToken } from '../src/users/mute-link.ts'
import { unsubscribeToken } from '../src/users/unsubscribe-link.ts'
import { call } from './helpers/worker.ts'

const FEED_TOKEN = 'Zq3vXl9kT0cR2wYh8bN5mJ1fD6sA4gE7uP0oI3yK2xL'
const SIGNATURE = 'Sg9fD2kL4mN6pQ8rT0vX1zB3cE5gH7jK9lM2nP4qR6s'
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'
const DISCORD_TOKEN = 'x9Yz-Hq2Lk4Pm6Nr8Ts0Vw1Xa3Bc5De7Fg9Hj2Kl4Mn6Pq8Rs0Tu2Vw4Xy6Za8Bc0De2F'
const PUSH_ID = 'dGhpcy1pcy1hLXB1c2gtc3Vic2NyaXB0aW9uLWNhcGFiaWxpdHk'
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'

/** Each text a log line might hold, the secret in it, and what must stay of it. */
const CASES: { what: string; text: string; secret: string; kept: string }[] = [
  {
    what: 'a private feed address',
    text: `GET https://alerts.example/calendar/${FEED_TOKEN}.ics failed`,
    secret: FEED_TOKEN,
    kept: `https://alerts.example/calendar/${REDACTED}.ics failed`,
  },
  {
    what: 'a mute link',
    text: `/subscriptions/mute?token=${'a'.repeat(24)}.${'b'.repeat(24)}.${SIGNATURE}`,
    secret: SIGNATURE,
    kept: `/subscriptions/mute?token=${REDACTED}`,
  },
  {
    what: 'an unsubscribe link in a quoted URL',
    text: `"https://alerts.example/unsubscribe?token=${'c'.repeat(24)}.${SIGNATURE}"`,
    secret: SIGNATURE,
    kept: `"https://alerts.example/unsubscribe?token=${REDACTED}"`,
  },
  {
    what: 'Google’s callback',
    text: `/auth/google/callback?state=${SIGNATURE}&code=4/0Ab-${FEED_TOKEN}&scope=email`,
    secret: FEED_TOKEN,
    kept: `/auth/google/callback?state=${REDACTED}&code=${REDACTED}&scope=email`,
  },
  {
    what: 'the Telegram Bot API',
    text: `TypeError: fetch failed: https://api.telegram.org/bot${BOT_TOKEN}/sendMessage`,
    secret: BOT_TOKEN.split(':')[1]!,
    kept: `https://api.telegram.org/bot${REDACTED}/sendMessage`,
  },
  {
    what: 'a Discord webhook',
    text: `POST https://discord.com/api/webhooks/1234567890/${DISCORD_TOKEN}?wait=true`,
    secret: DISCORD_TOKEN,
    kept: `https://discord.com/api/webhooks/1234567890/${REDACTED}?wait=true`,
  },
  {
    what: 'a push endpoint',
    text: `endpoint https://updates.push.services.mozilla.com/wpush/v2/${PUSH_ID} gone`,
    secret: PUSH_ID,
    kept: `https://updates.push.services.mozilla.com/${REDACTED} gone`,
  },
  {
    what: 'a bearer token',
    text: `Authorization: Bearer ${JWT}`,
    secret: JWT.split('.')[2]!,
    kept: `Authorization: Bearer ${REDACTED}`,
  },
]

describe('redactSecrets', () => {
  it.each(CASES)('redacts $what and keeps the rest', ({ text, secret, kept }) => {
    const redacted = redactSecrets(text)
    expect(redacted).not.toContain(secret)
    expect(redacted).toContain(kept)
  })

  it('leaves addresses without a secret as they are', () => {
    const plain = [
      '/contests/calendar.ics?platform=codeforces',
      '/contests/65f0a1b2c3d4e5f6a7b8c9d0/calendar.ics',
      'https://codeforces.com/api/contest.list?gym=false',
      '/users/calendar',
    ]
    for (const text of plain) expect(redactSecrets(text)).toBe(text)
  })
})

let spies: MockInstance<(...args: unknown[]) => void>[]

beforeEach(() => {
  spies = (['debug', 'info', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(() => {}),
  )
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** Everything the service wrote to the console since the test began. */
const written = () =>
  spies.flatMap((spy) => spy.mock.calls.map((args) => args.join(' '))).join('\n')

describe('log lines', () => {
  it('redact every field, nested fields and Errors, whoever put the secret there', () => {
    log.error('delivery-failed', {
      url: CASES[0]!.text,
      attempts: [{ error: new TypeError(CASES[4]!.text) }],
      detail: { response: CASES[5]!.text },
    })
    const output = written()
    for (const { secret } of [CASES[0]!, CASES[4]!, CASES[5]!]) expect(output).not.toContain(secret)
    expect(JSON.parse(output)).toMatchObject({
      level: 'error',
      event: 'delivery-failed',
      url: `GET https://alerts.example/calendar/${REDACTED}.ics failed`,
    })
  })
})

/** A D1 binding that fails every statement, so the request ends in a logged 500. */
function failingDb(): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'prepare' || prop === 'batch' || prop === 'exec') {
        return () => {
          throw new Error('D1_ERROR: the database is unavailable')
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

const failing: Partial<Env> = { DB: failingDb() }

describe('requests whose address holds a secret', () => {
  it('logs a failed private feed request by its path with the token redacted', async () => {
    const res = await call(`/calendar/${FEED_TOKEN}.ics`, {}, failing)
    expect(res.status).toBe(500)
    const output = written()
    expect(output).not.toContain(FEED_TOKEN)
    const line = JSON.parse(output.split('\n').find((l) => l.includes('request-failed'))!)
    expect(line).toMatchObject({
      event: 'request-failed',
      method: 'GET',
      path: `/calendar/${REDACTED}.ics`,
    })
  })

  it('writes no signed link’s token when opening the link fails', async () => {
    const userId = '0123456789abcdef01234567'
    const mute = await muteToken(env, { userId, contestId: '89abcdef0123456789abcdef' })
    const unsubscribe = await unsubscribeToken(env, userId)
    for (const path of [`/subscriptions/mute?token=${mute}`, `/unsubscribe?token=${unsubscribe}`]) {
      const res = await call(path, {}, failing)
      expect(res.status, path).toBeGreaterThanOrEqual(500)
    }
    const output = written()
    expect(output).toContain('request-failed')
    for (const token of [mute, unsubscribe]) {
      expect(output).not.toContain(token.split('.').at(-1))
    }
  })
})
