// POST /contact: the stored message, the email the operators receive (escaped, to the right
// address), the form's own bodies, and the strict token bucket per client address.
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { takeToken } from '../src/rate-limit/token-bucket.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, lastMailTo, mailCountTo, nextIp, uniqueEmail } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

const SENT = { success: true, message: 'Message sent successfully.' }
const REQUIRED = { success: false, message: 'All fields are required.' }
const FAILED = { success: false, message: 'Failed to send message. Please try again later.' }

const form = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: `Question ${crypto.randomUUID()}`,
  message: 'Is the AtCoder Heuristic Contest listed?',
  ...over,
})

/** Posts the form with the operators' address set to a fresh one, so its mail can be found. */
async function send(
  body: unknown,
  options: { ip?: string; bindings?: Record<string, unknown> } = {},
) {
  const inbox = uniqueEmail('operators')
  const res = await api('POST', '/contact', {
    body,
    ip: options.ip,
    bindings: { CONTACT_EMAIL: inbox, ...options.bindings },
  })
  return { ...res, inbox }
}

const stored = (subject: string) =>
  env.DB.prepare('SELECT * FROM contact_messages WHERE subject = ?')
    .bind(subject)
    .all<Record<string, unknown>>()
    .then((r) => r.results)

function limiter(key: string) {
  const ns = env.RATE_LIMITER
  return ns.get(ns.idFromName(key))
}

afterEach(() => standIn.reset())

describe('POST /contact', () => {
  it('emails the message to CONTACT_EMAIL as an HTML table and answers the spec’s body', async () => {
    const body = form()
    const res = await send(body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(SENT)
    const { message } = await lastMailTo(res.inbox)
    expect(message.to).toEqual([res.inbox])
    expect(message.subject).toBe(`[Contest Alerts Contact] ${body.subject}`)
    expect(message.html).toContain('<table')
    for (const label of ['Name', 'Email', 'Subject', 'Message']) {
      expect(message.html).toContain(`>${label}</th>`)
    }
    expect(message.html).toContain('<td style="padding: 6px 0">Ada Lovelace</td>')
    expect(message.html).toContain(
      '<pre style="white-space: pre-wrap">Is the AtCoder Heuristic Contest listed?</pre>',
    )
    expect(message.reply_to).toBe('ada@example.com')
  })

  it('HTML-escapes every value the visitor typed, so nothing they send becomes markup', async () => {
    const body = form({
      name: '<script>alert("name")</script>',
      email: '"><img src=x onerror=alert(1)>@example.com',
      subject: 'Tom & Jerry <b>bold</b> "quoted"',
      message: 'line one\n</pre><iframe src="https://evil.example"></iframe>\n  indented & done',
    })
    const res = await send(body)
    expect(res.status).toBe(200)
    const { html, subject } = (await lastMailTo(res.inbox)).message
    expect(html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;')
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.com')
    expect(html).toContain('Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; &quot;quoted&quot;')
    expect(html).toContain(
      '<pre style="white-space: pre-wrap">line one\n&lt;/pre&gt;&lt;iframe src=&quot;https://evil.example&quot;&gt;&lt;/iframe&gt;\n  indented &amp; done</pre>',
    )
    for (const raw of ['<script', '<img', '<iframe', '<b>', '</pre><iframe']) {
      expect(html).not.toContain(raw)
    }
    // The subject line is not HTML: it carries the text as typed, on one line.
    expect(subject).toBe('[Contest Alerts Contact] Tom & Jerry <b>bold</b> "quoted"')
  })

  it('keeps the subject line on one line whatever line breaks the visitor’s subject holds', async () => {
    const res = await send(form({ subject: 'first\r\nBcc: victim@example.com\tthird' }))
    expect(res.status).toBe(200)
    const { message } = await lastMailTo(res.inbox)
    expect(message.subject).toBe('[Contest Alerts Contact] first Bcc: victim@example.com third')
  })

  it('sends to FROM_EMAIL when CONTACT_EMAIL is not set', async () => {
    const from = uniqueEmail('sender')
    const res = await api('POST', '/contact', {
      body: form(),
      bindings: { CONTACT_EMAIL: undefined, FROM_EMAIL: from },
    })
    expect(res.status).toBe(200)
    expect((await lastMailTo(from)).message.to).toEqual([from])
  })

  it('stores the message with its address and marks it sent', async () => {
    const body = form()
    const ip = nextIp()
    await send(body, { ip })
    const [row] = await stored(body.subject)
    expect(row).toMatchObject({
      name: body.name,
      email: body.email,
      message: body.message,
      ip,
      email_status: 'sent',
      email_error: null,
    })
  })

  it('trims the fields and does not check the email format', async () => {
    const body = form({ name: '  Grace  ', email: 'not an email' })
    const res = await send(body)
    expect(res.status).toBe(200)
    const { message } = await lastMailTo(res.inbox)
    expect(message.html).toContain('<td style="padding: 6px 0">Grace</td>')
    expect(message.html).toContain('<td style="padding: 6px 0">not an email</td>')
    // A malformed Reply-To would make the provider refuse the whole message.
    expect(message.reply_to).toBeUndefined()
  })

  it.each([
    [
      'a missing field',
      (() => {
        const { message: _, ...rest } = form()
        return rest
      })(),
    ],
    ['a blank field', form({ subject: '   \n\t ' })],
    ['an empty field', form({ name: '' })],
    ['a number', form({ name: 42 })],
    ['null', form({ email: null })],
    ['an object', form({ message: { text: 'hi' } })],
    ['an array body', [form()]],
    ['a string body', 'hello'],
    ['an empty object', {}],
  ])('answers 400 All fields are required for %s, storing and sending nothing', async (_, body) => {
    const res = await send(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(REQUIRED)
    expect(await mailCountTo(res.inbox)).toBe(0)
  })

  it('answers 400 All fields are required for malformed JSON, 415 for a body that is not JSON', async () => {
    const headers = { 'CF-Connecting-IP': nextIp(), 'Content-Type': 'application/json' }
    const malformed = await call('/contact', { method: 'POST', headers, body: '{"name": "Ada",' })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual(REQUIRED)
    const text = await call('/contact', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': nextIp(), 'Content-Type': 'text/plain' },
      body: 'name=Ada',
    })
    expect(text.status).toBe(415)
    expect(await text.json()).toEqual({
      success: false,
      message: 'Content-Type must be application/json.',
    })
    const none = await call('/contact', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': nextIp() },
    })
    expect(none.status).toBe(400)
    expect(await none.json()).toEqual(REQUIRED)
  })

  it('refuses an unknown field by name, in the form’s own body', async () => {
    const body = form({ website: 'https://spam.example' })
    const res = await send(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, message: 'property website should not exist' })
    expect(await stored(body.subject)).toEqual([])
  })

  it('refuses fields over their caps and names the field', async () => {
    const long = await send(form({ message: 'x'.repeat(10_001) }))
    expect(long.status).toBe(400)
    expect(long.body).toEqual({
      success: false,
      message: 'message must be at most 10000 characters long',
    })
    const fits = await send(form({ message: 'x'.repeat(10_000) }))
    expect(fits.status).toBe(200)
  })

  it('answers 500 with the spec’s body when the provider fails, and keeps the message', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 500, body: { message: 'provider is down' } }],
    })
    const body = form()
    const res = await send(body)
    expect(res.status).toBe(500)
    expect(res.body).toEqual(FAILED)
    const [row] = await stored(body.subject)
    expect(row.email_status).toBe('failed')
    expect(row.email_error).toContain('provider is down')
  })

  it('answers 500 without pretending when no email provider is configured', async () => {
    const body = form()
    const res = await send(body, { bindings: { RESEND_API_KEY: undefined, DEV_OUTBOX: 'false' } })
    expect(res.status).toBe(500)
    expect(res.body).toEqual(FAILED)
    const [row] = await stored(body.subject)
    expect(row.email_status).toBe('failed')
    expect(await standIn.requests('/resend/emails')).toEqual([])
  })
})

describe('the contact token bucket', () => {
  it('lets 3 messages through from one address and refuses the 4th with 429 and Retry-After', async () => {
    const ip = nextIp()
    for (let i = 1; i <= 3; i++) {
      const res = await send(form(), { ip })
      expect(res.status).toBe(200)
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3')
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(3 - i))
    }
    const before = Math.floor(Date.now() / 1000)
    const body = form()
    const refused = await send(body, { ip })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      statusCode: 429,
      message: 'Too Many Requests',
      error: 'Too Many Requests',
    })
    const retryAfter = Number(refused.headers.get('Retry-After'))
    // The next token comes 20 seconds after the first was taken, rounded up, never early.
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(21)
    expect(refused.headers.get('X-RateLimit-Remaining')).toBe('0')
    const reset = Number(refused.headers.get('X-RateLimit-Reset'))
    expect(reset).toBeGreaterThan(before + retryAfter - 2)
    expect(await stored(body.subject)).toEqual([])
    expect(await mailCountTo(refused.inbox)).toBe(0)
  })

  it('counts each address on its own', async () => {
    const ip = nextIp()
    for (let i = 0; i < 3; i++) await send(form(), { ip })
    expect((await send(form(), { ip })).status).toBe(429)
    expect((await send(form(), { ip: nextIp() })).status).toBe(200)
  })

  it('allows one more message 20 seconds after the burst, and no more (Durable Object clock)', async () => {
    const bucket = limiter(`contact-test:${nextIp()}`)
    const t0 = Date.now()
    for (let i = 0; i < 3; i++) expect((await bucket.take(3, 20_000, t0)).allowed).toBe(true)
    const fourth = await bucket.take(3, 20_000, t0 + 1_000)
    expect(fourth).toMatchObject({ allowed: false, remaining: 0, limit: 3 })
    expect(fourth.retryAt).toBe(Math.ceil((t0 + 20_000) / 1000))
    expect(fourth.reset).toBe(Math.ceil((t0 + 60_000) / 1000))
    expect((await bucket.take(3, 20_000, t0 + 19_999)).allowed).toBe(false)
    expect((await bucket.take(3, 20_000, t0 + 20_000)).allowed).toBe(true)
    expect((await bucket.take(3, 20_000, t0 + 20_001)).allowed).toBe(false)
    // A full minute later the whole burst is back.
    const later = t0 + 80_000
    for (let i = 0; i < 3; i++) expect((await bucket.take(3, 20_000, later)).allowed).toBe(true)
    expect((await bucket.take(3, 20_000, later)).allowed).toBe(false)
  })

  it('never mints tokens when the clock steps back', () => {
    const t0 = 1_700_000_000_000
    let state = undefined as Parameters<typeof takeToken>[0]
    for (let i = 0; i < 3; i++) state = takeToken(state, 3, 20_000, t0).state
    const back = takeToken(state, 3, 20_000, t0 - 60_000)
    expect(back.result.allowed).toBe(false)
    expect(takeToken(back.state, 3, 20_000, t0 + 19_999).result.allowed).toBe(false)
    expect(takeToken(back.state, 3, 20_000, t0 + 20_000).result.allowed).toBe(true)
  })

  it('frees the object’s storage once the bucket has refilled', async () => {
    const bucket = limiter(`contact-test:${nextIp()}`)
    await bucket.take(3, 20_000)
    // Moved into the past rather than waited for: the bucket is full again.
    await runInDurableObject(bucket, (_, state) => {
      state.storage.sql.exec('UPDATE token_bucket SET updated_at = updated_at - ?', 21_000)
    })
    expect(await runDurableObjectAlarm(bucket)).toBe(true)
    const tables = await runInDurableObject(bucket, (_, state) =>
      state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE name = 'token_bucket'")
        .toArray(),
    )
    expect(tables).toEqual([])
  })
})
