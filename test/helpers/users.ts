// Accounts for tests, made through the API, and a check that no response ever carries a secret.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import type { Env } from '../../src/env.ts'
import { standIn } from './stand-in.ts'
import { call } from './worker.ts'

/** Mail goes to the stand-in (RESEND_API_URL points at it) once a key is set. */
export const MAIL: Partial<Env> = { RESEND_API_KEY: 're_test_key' }

let seq = 0
const run = crypto.randomUUID().slice(0, 8)

/** A fresh client address, so one test never spends another's per-IP allowance. */
export function nextIp(): string {
  seq++
  return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${run}-${++seq}@example.test`
}

export function uniquePassword(): string {
  return `pw-${crypto.randomUUID()}`
}

// Every secret a test has seen: passwords sent, codes mailed, refresh tokens issued, and every
// hash the database has held. No response may contain any of them.
const secrets = new Set<string>()

export function rememberSecret(value: string) {
  secrets.add(value)
}

async function storedHashes(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT password_hash AS v FROM users UNION ALL SELECT refresh_hash FROM sessions
     UNION ALL SELECT code_hash FROM email_codes UNION ALL SELECT hash FROM rotated_refresh_tokens`,
  ).all<{ v: string }>()
  // A PBKDF2 string is checked whole and by its salt and hash parts. Users seeded in SQL hold the
  // placeholder hash 'x', no secret, which a base64url token could hold standing alone ("-x_").
  return results
    .filter(({ v }) => v.length >= 16)
    .flatMap(({ v }) => [v, ...v.split('$').filter((part) => part.length >= 16)])
}

// A secret counts only where it stands alone, so a six-digit code that happens to occur inside a
// hex id or a signature is not mistaken for a leak.
function occursIn(text: string, secret: string): boolean {
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    const before = text[at - 1] ?? ' '
    const after = text[at + secret.length] ?? ' '
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true
  }
  return false
}

/** Fails the test when `text` holds a known secret other than the refresh token it just issued. */
export async function expectNoSecrets(text: string, issuedRefreshToken?: string) {
  for (const hash of await storedHashes()) secrets.add(hash)
  const leaked = [...secrets].filter((s) => s !== issuedRefreshToken && occursIn(text, s))
  expect(leaked, 'a response carried a secret').toEqual([])
  if (issuedRefreshToken) secrets.add(issuedRefreshToken)
}

export interface ApiOptions {
  body?: unknown
  token?: string
  ip?: string
  bindings?: Partial<Env>
  headers?: Record<string, string>
}

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

/** Calls the Worker and checks the response for secrets before handing it back. */
export async function api<T = any>(
  method: string,
  path: string,
  options: ApiOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    'CF-Connecting-IP': options.ip ?? nextIp(),
    ...options.headers,
  }
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await call(
    path,
    {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    },
    { ...MAIL, ...options.bindings },
  )
  const text = await res.text()
  const body = text ? JSON.parse(text) : undefined
  await expectNoSecrets(
    text,
    typeof body?.refreshToken === 'string' ? body.refreshToken : undefined,
  )
  return { status: res.status, headers: res.headers, body }
}

export interface TestUser {
  id: string
  email: string
  password: string
  accessToken: string
  refreshToken: string
  user: Record<string, any>
}

/**
 * Signs a new user up through the API (mail to the stand-in) and, unless `verified: false`,
 * proves the address with the mailed code sent with the sign-up's access token, as a client does:
 * an unproven account can link no destination.
 */
export async function createUser(
  over: { email?: string; password?: string; name?: string; verified?: boolean } = {},
  options: ApiOptions = {},
): Promise<TestUser> {
  const email = over.email ?? uniqueEmail()
  const password = over.password ?? uniquePassword()
  rememberSecret(password)
  const res = await api('POST', '/auth/signup', {
    ...options,
    body: { email, password, name: over.name ?? 'Test Person' },
  })
  expect(res.status).toBe(201)
  const { accessToken, refreshToken } = res.body
  let user = res.body.user
  if (over.verified !== false) {
    const verified = await api('POST', '/auth/verify-email', {
      ...options,
      token: accessToken,
      body: { email: user.email, code: await lastCode(user.email) },
    })
    expect(verified.status).toBe(200)
    user = verified.body.user
  }
  return { id: user.id, email: user.email, password, accessToken, refreshToken, user }
}

/**
 * An admin: signs up with an address in BOOTSTRAP_ADMIN_EMAILS, then verifies it with the mailed
 * code (the bootstrap role is granted only once the address is proven). Returns the tokens of the
 * session that verification opened, which carry the admin role.
 */
export async function createAdmin(): Promise<TestUser> {
  const email = uniqueEmail('admin')
  const bindings: Partial<Env> = { BOOTSTRAP_ADMIN_EMAILS: email }
  const signedUp = await createUser({ email, verified: false }, { bindings })
  const res = await api('POST', '/auth/verify-email', {
    body: { email, code: await lastCode(email) },
    token: signedUp.accessToken,
    bindings,
  })
  expect(res.status).toBe(200)
  expect(res.body.user.role, 'the verified bootstrap address is an admin').toBe('admin')
  const { user, accessToken, refreshToken } = res.body
  return { ...signedUp, user, accessToken, refreshToken }
}

/**
 * Single sends (POST /resend/emails) the stand-in received for `email`, oldest first. Batch
 * calls (POST /resend/emails/batch) are left out: their body is an array of emails, and the
 * mail these helpers look for (codes, account mail) goes out one at a time.
 */
async function singleMailsTo(email: string) {
  const sent = await standIn.requests('/resend/emails')
  return sent.filter(
    (r) => !r.path.includes('/batch') && (JSON.parse(r.body).to as string[]).includes(email),
  )
}

/** The newest mail the stand-in received for `email`. */
export async function lastMailTo(email: string) {
  const mine = await singleMailsTo(email)
  expect(mine.length, `no mail was sent to ${email}`).toBeGreaterThan(0)
  const last = mine[mine.length - 1]
  return { request: last, message: JSON.parse(last.body) }
}

/** The six-digit code of the newest mail to `email`; remembered as a secret. */
export async function lastCode(email: string): Promise<string> {
  const { message } = await lastMailTo(email)
  const code = (message.text as string).match(/\b(\d{6})\b/)?.[1]
  expect(code, 'the mail carries a six-digit code').toBeDefined()
  rememberSecret(code!)
  return code!
}

export async function mailCountTo(email: string): Promise<number> {
  return (await singleMailsTo(email)).length
}

/** Decodes a JWT's payload without verifying it (tests look at claims only). */
export function claimsOf(token: string): Record<string, any> {
  const payload = token.split('.')[1]
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
  return JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)))
}
