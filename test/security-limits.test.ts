// Limits from the security review: failure budgets on passwords and codes, bounded bodies.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app.ts'
import type { Env } from '../src/env.ts'
import { proxyHeaderSetting } from '../src/env.ts'
import { socketClientAddress } from '../src/http/client-address.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import { api, createUser, lastCode, nextIp, uniqueEmail } from './helpers/users.ts'
import { BASE, call } from './helpers/worker.ts'

function limiter(key: string) {
  const ns = env.RATE_LIMITER
  return ns.get(ns.idFromName(key))
}

const signIn = (email: string, password: string, ip: string) =>
  api('POST', '/auth/signin', { ip, body: { email, password } })

const retryAfter = (headers: Headers) => Number(headers.get('Retry-After'))

describe('sign-in failure budget', () => {
  it('lets the owner sign in from their own address after strangers failed from others', async () => {
    const owner = await createUser()
    for (let client = 0; client < 4; client++) {
      const ip = nextIp()
      for (let i = 0; i < 5; i++) {
        expect((await signIn(owner.email, 'wrong-password', ip)).status).toBe(401)
      }
    }
    expect((await signIn(owner.email, owner.password, nextIp())).status).toBe(200)
  })

  it('refuses a client after five failures for one account, even with the right password', async () => {
    const owner = await createUser()
    const ip = nextIp()
    for (let i = 0; i < 5; i++) {
      expect((await signIn(owner.email, 'wrong-password', ip)).status).toBe(401)
    }
    const refused = await signIn(owner.email, owner.password, ip)
    expect(refused.status).toBe(429)
    expect(retryAfter(refused.headers)).toBeGreaterThan(0)
    expect(retryAfter(refused.headers)).toBeLessThanOrEqual(15 * 60 + 1)
    // The same letters in another case are the same account.
    const variant = await signIn(` ${owner.email.toUpperCase()}`, owner.password, ip)
    expect(variant.status).toBe(429)
    expect((await signIn(owner.email, owner.password, nextIp())).status).toBe(200)
  })

  it('does not count successful sign-ins', async () => {
    const owner = await createUser()
    const ip = nextIp()
    for (let i = 0; i < 8; i++) {
      expect((await signIn(owner.email, owner.password, ip)).status).toBe(200)
    }
    for (let i = 0; i < 5; i++) {
      expect((await signIn(owner.email, 'wrong-password', ip)).status).toBe(401)
    }
    expect((await signIn(owner.email, owner.password, ip)).status).toBe(429)
  })

  it('counts failures in flight, so concurrent guesses from one address get exactly five', async () => {
    const owner = await createUser()
    const ip = nextIp()
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => signIn(owner.email, 'wrong-password', ip)),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429])
  })

  it('refuses every address once the account’s hourly failure budget is spent', async () => {
    const owner = await createUser()
    // 99 of the account's 100 failures an hour are spent straight on its counter object.
    const stub = limiter(`signin-failures:subject:${owner.email}`)
    for (let i = 0; i < 99; i += 33) {
      await Promise.all(Array.from({ length: 33 }, () => stub.reserve(100, HOUR_MS)))
    }
    expect((await signIn(owner.email, 'wrong-password', nextIp())).status).toBe(401)
    const refused = await signIn(owner.email, owner.password, nextIp())
    expect(refused.status).toBe(429)
    expect(retryAfter(refused.headers)).toBeGreaterThan(15 * 60)
  })
})

/** One failed code check, alternating the two endpoints that check emailed codes. */
function failCheck(email: string, ip: string, i: number) {
  return i % 2
    ? api('POST', '/auth/verify-email', { ip, body: { email, code: '000000' } })
    : api('POST', '/auth/reset-password', {
        ip,
        body: { email, code: '000000', newPassword: 'long-enough-1' },
      })
}

async function freshResetCode(email: string): Promise<string> {
  expect((await api('POST', '/auth/forgot-password', { body: { email } })).status).toBe(200)
  return lastCode(email)
}

describe('code guessing budget', () => {
  it('refuses the 21st failed check of a day for an account, even with a new code', async () => {
    const { email } = await createUser()
    let refusal: Awaited<ReturnType<typeof api>> | undefined
    let failures = 0
    const clients = Array.from({ length: 6 }, nextIp)
    for (let i = 0; i < 30 && !refusal; i++) {
      // A new code every five checks (four codes; the fifth an hour is the one tried last).
      if (i % 5 === 0 && i < 20) await freshResetCode(email)
      const res = await failCheck(email, clients[Math.floor(i / 5)], i)
      if (res.status === 429) refusal = res
      else {
        expect(res.status).toBe(400)
        failures++
      }
    }
    // The budget spans a day, so waiting an hour does not buy more guesses.
    expect(retryAfter(refusal!.headers)).toBeGreaterThan(23 * 3600)
    expect(failures).toBe(20)
    const code = await freshResetCode(email)
    const withNewCode = await api('POST', '/auth/reset-password', {
      body: { email, code, newPassword: 'long-enough-2' },
    })
    expect(withNewCode.status).toBe(429)
    expect(retryAfter(withNewCode.headers)).toBeGreaterThan(23 * 3600)
  })

  it('lets the owner use their code from their own address after strangers failed', async () => {
    const { email } = await createUser({ verified: false })
    const strangers = Array.from({ length: 3 }, nextIp)
    for (let i = 0; i < 15; i++) {
      expect((await failCheck(email, strangers[Math.floor(i / 5)], i)).status).toBe(400)
    }
    expect((await api('POST', '/auth/resend-verification', { body: { email } })).status).toBe(200)
    const code = await lastCode(email)
    const res = await api('POST', '/auth/verify-email', { body: { email, code } })
    expect(res.status).toBe(200)
  })

  it('refuses one client after five failed checks for one account', async () => {
    const { email } = await createUser()
    const ip = nextIp()
    for (let i = 0; i < 5; i++) expect((await failCheck(email, ip, i)).status).toBe(400)
    const code = await freshResetCode(email)
    const body = { email, code, newPassword: 'long-enough-3' }
    const refused = await api('POST', '/auth/reset-password', { ip, body })
    expect(refused.status).toBe(429)
    expect(retryAfter(refused.headers)).toBeGreaterThan(23 * 3600)
    expect((await api('POST', '/auth/reset-password', { body })).status).toBe(200)
  })

  it('gives a successful check back, so it never counts against the account', async () => {
    const { email } = await createUser()
    const ip = nextIp()
    for (let i = 0; i < 5; i++) {
      const code = await freshResetCode(email)
      const body = { email, code, newPassword: `long-enough-${i}` }
      expect((await api('POST', '/auth/reset-password', { ip, body })).status).toBe(200)
    }
    for (let i = 0; i < 5; i++) expect((await failCheck(email, ip, i)).status).toBe(400)
    expect((await failCheck(email, ip, 5)).status).toBe(429)
  })
})

/** An admin made in the database, then signed in, so the token carries the role. */
async function signedInAdmin() {
  const user = await createUser()
  await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(user.id).run()
  const res = await signIn(user.email, user.password, nextIp())
  expect(res.status).toBe(200)
  return { ...user, accessToken: res.body.accessToken as string }
}

const TOO_LARGE = { statusCode: 413, message: expect.any(String), error: 'Payload Too Large' }

/** A Durable Object binding that records the names of the objects asked for. */
function recordingLimiter() {
  const names: string[] = []
  const binding = new Proxy(env.RATE_LIMITER, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (prop === 'idFromName') {
        return (name: string) => {
          names.push(name)
          return target.idFromName(name)
        }
      }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { binding, names }
}

const bigSignin = () => JSON.stringify({ email: uniqueEmail(), password: 'x'.repeat(100 * 1024) })

describe('request body limit', () => {
  it('refuses a 100 KB sign-in body with 413 before the rate limiter reads it', async () => {
    const body = bigSignin()
    const { binding, names } = recordingLimiter()
    const res = await call(
      '/auth/signin',
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          'CF-Connecting-IP': nextIp(),
        },
        body,
      },
      { RATE_LIMITER: binding },
    )
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(TOO_LARGE)
    expect(names).toEqual([])
  })

  it('bounds a body sent without Content-Length', async () => {
    const bytes = new TextEncoder().encode(bigSignin())
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) {
          controller.enqueue(bytes.slice(at, at + 8192))
        }
        controller.close()
      },
    })
    const request = new Request('https://api.test/auth/signin', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp() },
      body: stream,
    })
    expect(request.headers.has('Content-Length')).toBe(false)
    const res = await call('/auth/signin', request)
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(TOO_LARGE)
  })

  it('still reads a small body sent without Content-Length', async () => {
    const owner = await createUser()
    const bytes = new TextEncoder().encode(
      JSON.stringify({ email: owner.email, password: owner.password }),
    )
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10))
        controller.enqueue(bytes.slice(10))
        controller.close()
      },
    })
    const res = await call(
      '/auth/signin',
      new Request('https://api.test/auth/signin', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp() },
        body: stream,
      }),
    )
    expect(res.status).toBe(200)
  })

  it('accepts a bulk of 100 contests larger than the default limit', async () => {
    const admin = await signedInAdmin()
    const start = Date.now() + 10 * HOUR_MS
    const run = crypto.randomUUID().slice(0, 8)
    const contests = Array.from({ length: 100 }, (_, i) => ({
      platformId: `big-${run}-${i}`,
      name: `Large Round ${i}`,
      platform: 'codeforces',
      type: 'CF',
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 2 * HOUR_MS).toISOString(),
      description: 'd'.repeat(2000),
    }))
    expect(JSON.stringify({ contests }).length).toBeGreaterThan(150 * 1024)
    const res = await api('POST', '/contests/bulk', {
      token: admin.accessToken,
      body: { contests },
    })
    expect(res.status).toBe(201)
    expect(res.body.created).toBe(100)
  })

  it('bounds the bulk route too, at its own larger limit', async () => {
    const body = JSON.stringify({ contests: [{ description: 'd'.repeat(2 * 1024 * 1024) }] })
    const res = await call('/contests/bulk', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      body,
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(TOO_LARGE)
  })

  it('keeps the contact form’s own 413 body', async () => {
    const res = await api('POST', '/contact', {
      body: { name: 'A', email: 'a@example.test', subject: 'S', message: 'm'.repeat(200 * 1024) },
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, message: 'Message is too large.' })
  })
})

/** The app as a runtime other than Workers runs it: the client address is the socket's peer. */
function appOnSocket(socket: string, bindings: Partial<Env> = {}) {
  const app = createApp({ clientAddress: socketClientAddress(() => socket) })
  return async (path: string, init: RequestInit) => {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...bindings }, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
}

/** A refresh with a token that does not exist: 401, counted per client address (60 a window). */
const badRefresh = (headers: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify({ refreshToken: 'no-such-refresh-token' }),
})

const remaining = (res: Response) => res.headers.get('X-RateLimit-Remaining')

describe('client address', () => {
  it('keys per-address limits on the socket address, whatever CF-Connecting-IP claims', async () => {
    const fetch = appOnSocket(nextIp())
    const spoofed = () => ({ 'CF-Connecting-IP': nextIp(), 'X-Forwarded-For': nextIp() })
    const first = await fetch('/auth/refresh', badRefresh(spoofed()))
    expect(first.status).toBe(401)
    expect(remaining(first)).toBe('59')
    expect(remaining(await fetch('/auth/refresh', badRefresh(spoofed())))).toBe('58')
    // The anonymous general window (KV) counts the same address.
    const profile = () => fetch('/users/profile', { headers: spoofed() })
    expect(remaining(await profile())).toBe('97')
    expect(remaining(await profile())).toBe('96')
  })

  it('counts the X-Forwarded-For hop the proxy appended, whatever CF-Connecting-IP the client adds', async () => {
    const fetch = appOnSocket(nextIp(), { TRUST_PROXY_HEADER: 'X-Forwarded-For' })
    const [client, other] = [nextIp(), nextIp()]
    // An nginx-style proxy appends the address it saw and passes the client's own headers on.
    const via = (hop: string, forged: Record<string, string> = {}) =>
      badRefresh({ 'X-Forwarded-For': `${nextIp()}, ${hop}`, ...forged })
    expect(remaining(await fetch('/auth/refresh', via(client)))).toBe('59')
    const forged = via(client, { 'CF-Connecting-IP': nextIp(), 'X-Real-IP': nextIp() })
    expect(remaining(await fetch('/auth/refresh', forged))).toBe('58')
    // Another client behind the same proxy has its own count.
    expect(remaining(await fetch('/auth/refresh', via(other)))).toBe('59')
  })

  it('takes the X-Forwarded-For entry TRUSTED_PROXY_HOPS from the right', async () => {
    const fetch = appOnSocket(nextIp(), {
      TRUST_PROXY_HEADER: 'x-forwarded-for',
      TRUSTED_PROXY_HOPS: '2',
    })
    const [client, cdn] = [nextIp(), nextIp()]
    const chain = () => badRefresh({ 'X-Forwarded-For': `${nextIp()}, ${client}, ${cdn}` })
    expect(remaining(await fetch('/auth/refresh', chain()))).toBe('59')
    expect(remaining(await fetch('/auth/refresh', chain()))).toBe('58')
    // The same client through the other hop still counts as itself.
    const direct = badRefresh({ 'X-Forwarded-For': `${client}, ${nextIp()}` })
    expect(remaining(await fetch('/auth/refresh', direct))).toBe('57')
  })

  it('takes CF-Connecting-IP only when it is the header named, and then no X-Forwarded-For', async () => {
    const fetch = appOnSocket(nextIp(), { TRUST_PROXY_HEADER: 'CF-Connecting-IP' })
    const client = nextIp()
    const from = (forwarded: string) =>
      badRefresh({ 'CF-Connecting-IP': client, 'X-Forwarded-For': forwarded })
    expect(remaining(await fetch('/auth/refresh', from(nextIp())))).toBe('59')
    expect(remaining(await fetch('/auth/refresh', from(nextIp())))).toBe('58')
  })

  it('refuses the old TRUST_PROXY_HEADER=true, and counts the socket while it is set', async () => {
    expect(proxyHeaderSetting('true').refused).toMatch(
      /^TRUST_PROXY_HEADER=true is not accepted: set it to the one header your proxy writes/,
    )
    expect(proxyHeaderSetting(' X-Real-IP ')).toEqual({ header: 'x-real-ip' })
    expect(proxyHeaderSetting('false')).toEqual({})
    const fetch = appOnSocket(nextIp(), { TRUST_PROXY_HEADER: 'true' })
    const spoofed = () => badRefresh({ 'CF-Connecting-IP': nextIp(), 'X-Forwarded-For': nextIp() })
    expect(remaining(await fetch('/auth/refresh', spoofed()))).toBe('59')
    expect(remaining(await fetch('/auth/refresh', spoofed()))).toBe('58')
  })

  it('counts the socket when the named header holds no address', async () => {
    const fetch = appOnSocket(nextIp(), { TRUST_PROXY_HEADER: 'X-Real-IP' })
    const junk = () => badRefresh({ 'X-Real-IP': `not-an-address-${nextIp()}` })
    expect(remaining(await fetch('/auth/refresh', junk()))).toBe('59')
    expect(remaining(await fetch('/auth/refresh', junk()))).toBe('58')
  })
})
