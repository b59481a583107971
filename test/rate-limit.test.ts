// Rate limits: exact Durable Object windows, approximate KV windows, the rule table and headers.
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { anonymousKey, clientKey } from '../src/http/rate-limit.ts'
import { VERSION_MEMO_MS } from '../src/contests/catalogue-version.ts'
import { MINUTE_MS } from '../src/lib/time.ts'
import { hitKvWindow, READ_EVERY_MS, WRITE_EVERY_MS } from '../src/rate-limit/kv-window.ts'
import type { WindowResult } from '../src/ports/rate-limiter.ts'
import {
  postResendEvent,
  RESEND_WEBHOOK_SECRET,
  resendEvent,
  svixHeaders,
} from './helpers/resend-events.ts'
import { api, createAdmin, createUser, lastCode, nextIp, uniqueEmail } from './helpers/users.ts'
import { PROVIDERS } from './helpers/notifications.ts'
import { uniquePhone, WHATSAPP_OUTBOX } from './helpers/phone.ts'
import { call } from './helpers/worker.ts'
import { countingCalls } from './helpers/counting.ts'

const limitOf = (headers: Headers) => ({
  limit: headers.get('X-RateLimit-Limit'),
  remaining: headers.get('X-RateLimit-Remaining'),
})

const TOO_MANY = { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' }

function limiter(key: string) {
  const ns = env.RATE_LIMITER
  return ns.get(ns.idFromName(key))
}

/** Spends `count` requests of a KV window the way the middleware does, waiting for each write. */
async function spendKvWindow(key: string, count: number) {
  for (let i = 0; i < count; i++) {
    const writes: Promise<unknown>[] = []
    await hitKvWindow(env.KV, key, 100, 15 * MINUTE_MS, Date.now(), (w) => writes.push(w))
    await Promise.all(writes)
  }
}

describe('Durable Object windows', () => {
  it('allows exactly the limit, counting down in the headers, then refuses with 429', async () => {
    const me = await createUser()
    // PUT /users/activate: 10 requests an hour per user (spec).
    for (let i = 1; i <= 10; i++) {
      const res = await api('PUT', '/users/activate', { token: me.accessToken })
      expect(res.status).toBe(200)
      expect(limitOf(res.headers)).toEqual({ limit: '10', remaining: String(10 - i) })
    }
    const before = Math.floor(Date.now() / 1000)
    const refused = await api('PUT', '/users/activate', { token: me.accessToken })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(limitOf(refused.headers)).toEqual({ limit: '10', remaining: '0' })
    const reset = Number(refused.headers.get('X-RateLimit-Reset'))
    expect(reset).toBeGreaterThan(before + 3500)
    expect(reset).toBeLessThanOrEqual(before + 3601)
    const retryAfter = Number(refused.headers.get('Retry-After'))
    // Whole seconds, rounded up, so a client that waits this long is never early.
    expect(retryAfter).toBeGreaterThan(3500)
    expect(retryAfter).toBeLessThanOrEqual(3601)
    expect(before + retryAfter).toBeGreaterThanOrEqual(reset - 1)
  })

  it('counts per user, so another user is not affected', async () => {
    const first = await createUser()
    const second = await createUser()
    for (let i = 0; i < 5; i++) await api('DELETE', '/users/profile', { token: first.accessToken })
    expect((await api('DELETE', '/users/profile', { token: first.accessToken })).status).toBe(429)
    const other = await api('DELETE', '/users/profile', { token: second.accessToken })
    expect(other.status).toBe(200)
    expect(limitOf(other.headers)).toEqual({ limit: '5', remaining: '4' })
  })

  it.each([
    ['GET', '/users/profile', '100'],
    ['PUT', '/users/profile', '20'],
    ['GET', '/users/:id', '100'],
    ['DELETE', '/users/profile', '5'],
    ['PUT', '/users/activate', '10'],
  ])('applies the spec’s limit to %s %s', async (method, path, limit) => {
    const me = await createUser()
    const res = await api(method, path.replace(':id', me.id), {
      token: me.accessToken,
      body: method === 'PUT' && path === '/users/profile' ? { name: 'Limited' } : undefined,
    })
    expect(res.status).toBe(200)
    expect(limitOf(res.headers)).toEqual({ limit, remaining: String(Number(limit) - 1) })
  })

  it('applies GET /users’ own limit per IP to admins, who have no general limit', async () => {
    const admin = await createAdmin()
    const list = await api('GET', '/users', { token: admin.accessToken })
    expect(limitOf(list.headers)).toEqual({ limit: '1000', remaining: '999' })
    const general = await api('POST', '/auth/signout', { token: admin.accessToken })
    expect(general.status).toBe(200)
    expect(general.headers.get('X-RateLimit-Limit')).toBeNull()
  })

  it('limits an authenticated user to 1000 requests in 15 minutes', async () => {
    // Unverified, so no request of the sign-up's session has been counted yet.
    const me = await createUser({ verified: false })
    const first = await api('POST', '/auth/signout', { token: me.accessToken })
    expect(limitOf(first.headers)).toEqual({ limit: '1000', remaining: '999' })
    // The other 999 requests are spent straight on the user's counter object.
    const stub = limiter(`authenticated:user:${me.id}`)
    for (let i = 0; i < 999; i += 111) {
      await Promise.all(Array.from({ length: 111 }, () => stub.hit(1000, 15 * MINUTE_MS)))
    }
    const refused = await api('POST', '/auth/signout', { token: me.accessToken })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
  })
})

describe('strict limits on passwords and codes', () => {
  it('allows 5 failed sign-ins per email and address in 15 minutes', async () => {
    const { email, password } = await createUser()
    const ip = nextIp()
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/auth/signin', {
        ip,
        body: { email, password: 'wrong-password' },
      })
      expect(res.status).toBe(401)
    }
    const refused = await api('POST', '/auth/signin', { ip, body: { email, password } })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // The email counter does not depend on letter case or surrounding spaces.
    const variant = await api('POST', '/auth/signin', {
      ip,
      body: { email: ` ${email.toUpperCase()}`, password },
    })
    expect(variant.status).toBe(429)
    // Another address still has its own allowance for that email.
    expect((await api('POST', '/auth/signin', { body: { email, password } })).status).toBe(200)
  })

  it('allows 20 failed code checks per email a day, so a six-digit code cannot be walked', async () => {
    const { email } = await createUser()
    const code = await lastCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    // Five per address, the most one address may fail for one email in a day.
    const ips = Array.from({ length: 4 }, nextIp)
    for (let i = 0; i < 20; i++) {
      const path = i % 2 ? '/auth/verify-email' : '/auth/reset-password'
      const body =
        i % 2 ? { email, code: wrong } : { email, code: wrong, newPassword: 'long-enough-1' }
      expect((await api('POST', path, { ip: ips[Math.floor(i / 5)], body })).status).toBe(400)
    }
    const refused = await api('POST', '/auth/verify-email', { body: { email, code } })
    expect(refused.status).toBe(429)
  })

  it('limits code emails per address', async () => {
    const { email } = await createUser()
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/auth/forgot-password', { body: { email } })
      expect(res.status).toBe(200)
    }
    expect((await api('POST', '/auth/resend-verification', { body: { email } })).status).toBe(429)
  })

  it('allows 10 signups per IP an hour', async () => {
    const ip = nextIp()
    for (let i = 0; i < 10; i++) await createUser({}, { ip })
    const refused = await api('POST', '/auth/signup', {
      ip,
      body: { email: uniqueEmail(), password: 'long-enough-1', name: 'Eleventh' },
    })
    expect(refused.status).toBe(429)
    expect(limitOf(refused.headers)).toEqual({ limit: '10', remaining: '0' })
  })
})

describe('budgets of sends count accepted sends only', () => {
  it('code mails: bad bodies from one address never spend its 20 an hour', async () => {
    const ip = nextIp()
    for (let i = 0; i < 21; i++) {
      const bad = await api('POST', '/auth/forgot-password', {
        ip,
        body: { email: uniqueEmail(), extra: true },
      })
      expect(bad.status).toBe(400)
    }
    const { email } = await createUser()
    const res = await api('POST', '/auth/forgot-password', { ip, body: { email } })
    expect(res.status).toBe(200)
    // The tightest counter is the address's own 5 an hour; the client address's has 19 left.
    expect(limitOf(res.headers)).toEqual({ limit: '5', remaining: '4' })
  })

  it('phone codes: a send refused for want of a number spends nothing; three real ones do', async () => {
    const user = await createUser()
    const send = () =>
      api('POST', '/users/phone/verification', {
        token: user.accessToken,
        bindings: WHATSAPP_OUTBOX,
      })
    for (let i = 0; i < 4; i++) {
      const refused = await send()
      expect(refused.status).toBe(400)
      expect(limitOf(refused.headers)).toEqual({ limit: '3', remaining: '3' })
    }
    const phoneNumber = uniquePhone()
    const set = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { phoneNumber },
    })
    expect(set.status).toBe(200)
    for (let i = 1; i <= 3; i++) expect((await send()).status).toBe(200)
    const limited = await send()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
  })

  it('test pushes and retries: refusals (400, 404) never reach the 429', async () => {
    const user = await createUser()
    const options = { token: user.accessToken, bindings: { ...PROVIDERS } }
    for (let i = 0; i < 6; i++) {
      const none = await api('POST', '/users/push-subscriptions/test', options)
      expect(none.status).toBe(400)
      expect(limitOf(none.headers)).toEqual({ limit: '5', remaining: '5' })
    }
    for (let i = 0; i < 31; i++) {
      const missing = await api('POST', `/notifications/${'0'.repeat(24)}/retry`, options)
      expect([400, 404]).toContain(missing.status)
    }
  })

  it('admin test sends: 31 bad addresses leave the 30 in 15 minutes whole', async () => {
    const admin = await createAdmin()
    const options = { token: admin.accessToken, bindings: PROVIDERS }
    for (let i = 0; i < 31; i++) {
      const bad = await api('POST', '/notifications/test/email', {
        ...options,
        body: { email: 'not an address' },
      })
      expect(bad.status).toBe(400)
    }
    const res = await api('POST', '/notifications/test/email', {
      ...options,
      body: { email: uniqueEmail('probe') },
    })
    expect(res.status).toBe(200)
    expect(limitOf(res.headers)).toEqual({ limit: '30', remaining: '29' })
  })

  it('the contact form: refused messages give their token back', async () => {
    const ip = nextIp()
    const message = () => ({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: `Budget ${crypto.randomUUID()}`,
      message: 'Counted once sent.',
    })
    const post = (body: unknown) =>
      api('POST', '/contact', { ip, body, bindings: { CONTACT_EMAIL: uniqueEmail('operators') } })
    for (let i = 0; i < 4; i++) {
      const bad = await post({ name: 'Ada' })
      expect(bad.status).toBe(400)
      expect(limitOf(bad.headers)).toEqual({ limit: '3', remaining: '3' })
    }
    for (let i = 1; i <= 3; i++) {
      const sent = await post(message())
      expect(sent.status).toBe(200)
      expect(limitOf(sent.headers)).toEqual({ limit: '3', remaining: String(3 - i) })
    }
    expect((await post(message())).status).toBe(429)
  })

  it('a refunded token never fills a bucket past its capacity (Durable Object)', async () => {
    const bucket = limiter(`refund-test:${nextIp()}`)
    const t0 = Date.now()
    for (let i = 0; i < 3; i++) expect((await bucket.take(3, 20_000, t0)).allowed).toBe(true)
    expect((await bucket.take(3, 20_000, t0)).allowed).toBe(false)
    await bucket.refund(3, 20_000)
    expect((await bucket.take(3, 20_000, t0)).allowed).toBe(true)
    expect((await bucket.take(3, 20_000, t0)).allowed).toBe(false)
    // Refunds beyond what was taken are lost to the cap.
    for (let i = 0; i < 5; i++) await bucket.refund(3, 20_000)
    for (let i = 0; i < 3; i++) expect((await bucket.take(3, 20_000, t0)).allowed).toBe(true)
    expect((await bucket.take(3, 20_000, t0)).allowed).toBe(false)
  })
})

describe('KV windows for anonymous callers', () => {
  it('counts an address’s catalogue reads down from 100 and refuses the 101st', async () => {
    const ip = nextIp()
    const first = await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })
    expect(first.status).toBe(200)
    expect(limitOf(first.headers)).toEqual({ limit: '100', remaining: '99' })
    const second = await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })
    expect(limitOf(second.headers)).toEqual({ limit: '100', remaining: '98' })

    await spendKvWindow(anonymousKey(ip), 98)
    const refused = await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual(TOO_MANY)
    expect(limitOf(refused.headers)).toEqual({ limit: '100', remaining: '0' })
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    const elsewhere = await call('/contests/upcoming', {
      headers: { 'CF-Connecting-IP': nextIp() },
    })
    expect(elsewhere.status).toBe(200)
  })

  it('serves catalogue reads without touching the Durable Object, even with a token', async () => {
    const me = await createUser()
    let objectsUsed = 0
    const counting = new Proxy(env.RATE_LIMITER, {
      get(target, prop) {
        if (prop === 'idFromName' || prop === 'get') objectsUsed++
        const value = Reflect.get(target, prop)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const res = await call(
      '/contests/upcoming',
      { headers: { 'CF-Connecting-IP': nextIp(), Authorization: `Bearer ${me.accessToken}` } },
      { RATE_LIMITER: counting },
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Limit')).toBe('100')
    expect(objectsUsed).toBe(0)
  })

  it('puts anonymous calls outside the catalogue in the same per-address window', async () => {
    const ip = nextIp()
    const res = await api('GET', '/users/profile', { ip })
    expect(res.status).toBe(401)
    expect(limitOf(res.headers)).toEqual({ limit: '100', remaining: '99' })
  })

  it('leaves the health check unlimited', async () => {
    const res = await call('/contests/health', { headers: { 'CF-Connecting-IP': nextIp() } })
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
  })

  it('starts a fresh count in the next window', async () => {
    const key = `test-window:${nextIp()}`
    const writes: Promise<unknown>[] = []
    const defer = (w: Promise<unknown>) => writes.push(w)
    const now = Date.UTC(2026, 10, 22, 10, 0, 0)
    const results: WindowResult[] = []
    for (let i = 0; i < 4; i++) {
      results.push(await hitKvWindow(env.KV, key, 3, MINUTE_MS, now + i, defer))
      await Promise.all(writes)
    }
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ])
    expect(results[0].reset).toBe((now + MINUTE_MS) / 1000)
    const next = await hitKvWindow(env.KV, key, 3, MINUTE_MS, now + MINUTE_MS, defer)
    expect([next.allowed, next.remaining]).toEqual([true, 2])
  })
})

/** env.KV with every call counted (by method, and the keys of reads), as the Worker is handed it. */
function countingKv() {
  const counts: Record<string, number> = {}
  const keysRead: string[] = []
  const kv = countingCalls(env.KV, (method, args) => {
    counts[method] = (counts[method] ?? 0) + 1
    if (method === 'get') keysRead.push(String(args[0]))
  })
  return { kv, counts, keysRead }
}

describe('KV costs of the anonymous window', () => {
  it('a cached public read writes nothing to KV and reads it about once a minute', async () => {
    const { kv, counts, keysRead } = countingKv()
    const ip = nextIp()
    const reads = 60
    const started = Date.now()
    for (let i = 0; i < reads; i++) {
      const res = await call(
        '/contests/upcoming',
        { headers: { 'CF-Connecting-IP': ip } },
        { KV: kv },
      )
      expect(res.status).toBe(200)
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(99 - i))
    }
    const elapsed = Date.now() - started
    expect(counts.put ?? 0).toBe(0)
    // The window's key once; the catalogue version once every few seconds.
    expect(keysRead.filter((k) => k.startsWith('rl:'))).toHaveLength(1)
    const versionReads = keysRead.filter((k) => k === 'catalogue:version').length
    expect(versionReads).toBeLessThanOrEqual(1 + Math.floor(elapsed / VERSION_MEMO_MS))
    expect(keysRead).toHaveLength(1 + versionReads)
  })

  it('a client reading steadily through a whole window costs at most 0.05 writes a read', async () => {
    const { kv, counts } = countingKv()
    const key = `steady:${nextIp()}`
    const windowMs = 15 * MINUTE_MS
    const start = Math.floor(Date.now() / windowMs) * windowMs + windowMs
    const writes: Promise<unknown>[] = []
    // 100 reads, one every 9 seconds, under a limit of 1,000: nothing nears the limit.
    for (let i = 0; i < 100; i++) {
      const r = await hitKvWindow(kv, key, 1000, windowMs, start + i * 9_000, (w) => writes.push(w))
      expect(r.allowed).toBe(true)
    }
    await Promise.all(writes)
    expect(counts.put).toBeLessThanOrEqual(Math.ceil(windowMs / WRITE_EVERY_MS))
    expect(counts.put / 100).toBeLessThanOrEqual(0.05)
    expect(counts.get).toBeLessThanOrEqual(Math.ceil(windowMs / READ_EVERY_MS))
    // What was written is the count so far, for other isolates to read.
    const stored = Number(await env.KV.get(`rl:${key}:${start}`))
    expect(stored).toBeGreaterThan(0)
    expect(stored).toBeLessThanOrEqual(100)
  })

  it('writes at once when a client reaches the limit, and honours another isolate’s count', async () => {
    const { kv, counts } = countingKv()
    const key = `hammer:${nextIp()}`
    const now = Date.UTC(2026, 10, 28, 9, 0, 0)
    const writes: Promise<unknown>[] = []
    const defer = (w: Promise<unknown>) => writes.push(w)
    const results: WindowResult[] = []
    for (let i = 0; i < 12; i++)
      results.push(await hitKvWindow(kv, key, 10, MINUTE_MS * 15, now + i, defer))
    await Promise.all(writes)
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false, false])
    expect(counts.put).toBe(1)
    expect(await env.KV.get(`rl:${key}:${now}`)).toBe('10')

    // Another isolate wrote that a second address spent its window: seen after the next read of KV.
    const other = `elsewhere:${nextIp()}`
    const first = await hitKvWindow(kv, other, 10, MINUTE_MS * 15, now, defer)
    expect(first.remaining).toBe(9)
    await env.KV.put(`rl:${other}:${now}`, '10')
    // A minute on, a request reads KV again, after its answer: the requests after it see the count.
    const reading = await hitKvWindow(kv, other, 10, MINUTE_MS * 15, now + READ_EVERY_MS, defer)
    expect(reading.allowed).toBe(true)
    await Promise.all(writes)
    const later = await hitKvWindow(kv, other, 10, MINUTE_MS * 15, now + READ_EVERY_MS + 1, defer)
    expect(later.allowed).toBe(false)
  })
})

describe('provider webhooks', () => {
  const delivered = () => resendEvent('email.delivered', 'unknown-email-id')

  it('answers every signed Resend event, whatever the address spent of the anonymous window', async () => {
    const ip = nextIp()
    await spendKvWindow(anonymousKey(ip), 100)
    expect((await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })).status).toBe(
      429,
    )
    for (let i = 0; i < 3; i++) {
      const body = delivered()
      const res = await postResendEvent(body, { ...svixHeaders(body), 'CF-Connecting-IP': ip })
      expect(res.status).toBe(200)
    }
  })

  it('answers Telegram’s updates that carry the secret, whatever the anonymous window says', async () => {
    const ip = nextIp()
    await spendKvWindow(anonymousKey(ip), 100)
    const res = await api('POST', '/telegram/webhook', {
      ip,
      body: { update_id: 1 },
      bindings: { TELEGRAM_WEBHOOK_SECRET: 'telegram-secret' },
      headers: { 'X-Telegram-Bot-Api-Secret-Token': 'telegram-secret' },
    })
    expect(res.status).toBe(200)
  })

  it('refuses an address after 30 requests that fail the signature, signed ones too', async () => {
    const ip = nextIp()
    const body = delivered()
    const post = (headers: Record<string, string>) =>
      call(
        '/providers/resend/events',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip, ...headers },
          body,
        },
        { RESEND_WEBHOOK_SECRET },
      )
    const wrong = svixHeaders(body, { secret: `whsec_${btoa('somebody-else')}` })
    for (let i = 1; i <= 30; i++) {
      const res = await post(wrong)
      expect(res.status).toBe(401)
      expect(limitOf(res.headers)).toEqual({ limit: '30', remaining: String(30 - i) })
    }
    const refused = await post(wrong)
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual(TOO_MANY)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // Refused before the check: a correctly signed request from there waits too.
    expect((await post(svixHeaders(body))).status).toBe(429)
    // Another address's events, and this address's other requests, are not affected.
    expect((await postResendEvent(body, svixHeaders(body))).status).toBe(200)
    const catalogue = await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })
    expect(catalogue.status).toBe(200)
  })
})

describe('RATE_LIMIT_DISABLED', () => {
  it('lets every request through without limit headers', async () => {
    const ip = nextIp()
    await spendKvWindow(anonymousKey(ip), 100)
    const limited = await call('/contests/upcoming', { headers: { 'CF-Connecting-IP': ip } })
    expect(limited.status).toBe(429)
    const res = await call(
      '/contests/upcoming',
      { headers: { 'CF-Connecting-IP': ip } },
      { RATE_LIMIT_DISABLED: 'true' },
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
  })
})

describe('client addresses', () => {
  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(clientKey('2001:db8:85a3:1234:aaaa::1')).toBe('2001:db8:85a3:1234::/64')
    expect(clientKey('2001:0db8:85a3:1234:bbbb:cccc:dddd:eeee')).toBe('2001:db8:85a3:1234::/64')
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey(undefined)).toBe('unknown')
  })
})

describe('the RateLimiter object', () => {
  it('frees its storage when the window is over and keeps it while the window runs', async () => {
    const ended = limiter(`test-alarm:${nextIp()}`)
    await ended.hit(5, 60 * MINUTE_MS)
    // The window is moved into the past rather than waited for.
    await runInDurableObject(ended, (_, state) => {
      state.storage.sql.exec('UPDATE fixed_window SET start = start - ?', 61 * MINUTE_MS)
    })
    expect(await runDurableObjectAlarm(ended)).toBe(true)
    const tables = await runInDurableObject(ended, (_, state) =>
      state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE name = 'fixed_window'")
        .toArray(),
    )
    expect(tables).toEqual([])

    const long = limiter(`test-alarm:${nextIp()}`)
    await long.hit(5, 60 * MINUTE_MS)
    expect(await runDurableObjectAlarm(long)).toBe(true)
    const second = await long.hit(5, 60 * MINUTE_MS)
    expect(second.remaining).toBe(3)
  })
})
