// What the contract flows share: a JSON client for the service, bounded waits, and accounts made
// the way a person makes them (sign-up, the mailed code, verification).
import assert from 'node:assert/strict'

/** A client of the service at `base`; every answer comes back as {status, headers, body}. */
export function client(base) {
  async function call(method, path, { token, body, headers = {} } = {}) {
    const sent = { ...headers }
    if (token) sent.Authorization = `Bearer ${token}`
    if (body !== undefined) sent['Content-Type'] = 'application/json'
    const res = await fetch(`${base}${path}`, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    })
    const text = await res.text()
    let parsed = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed }
  }
  return {
    call,
    get: (path, options) => call('GET', path, options),
    post: (path, body, options) => call('POST', path, { ...options, body }),
    put: (path, body, options) => call('PUT', path, { ...options, body }),
    patch: (path, body, options) => call('PATCH', path, { ...options, body }),
    delete: (path, options) => call('DELETE', path, options),
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Polls `check` until it answers something truthy, which it returns; fails after `timeoutMs`
 * naming `what`, with the last answer `describe` gives (if any).
 */
export async function waitFor(
  what,
  check,
  { timeoutMs = 15_000, intervalMs = 200, describe } = {},
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() >= deadline) {
      const last = describe ? `; last seen: ${JSON.stringify(await describe())}` : ''
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last}`)
    }
    await pause(intervalMs)
  }
}

/** Fails as soon as `check` stops holding during the next `forMs` (a bounded quiet period). */
export async function holds(what, check, { forMs = 2_500, intervalMs = 250 } = {}) {
  const until = Date.now() + forMs
  do {
    if (!(await check())) throw new Error(`${what} stopped holding`)
    await pause(intervalMs)
  } while (Date.now() < until)
}

/** The moment `hours` from now, as the ISO string the admin API takes. */
export const hoursFromNow = (hours) => new Date(Date.now() + hours * 3_600_000).toISOString()

/** The six-digit code of the newest mail to `email` (mail goes to the Resend stand-in). */
export async function mailedCode(standIn, email) {
  const mails = await waitFor(`a mail to ${email}`, async () => {
    const found = await standIn.mailsTo(email)
    return found.length > 0 && found
  })
  const code = mails.at(-1).message.text?.match(/\b(\d{6})\b/)?.[1]
  assert.ok(code, `the mail to ${email} carries a six-digit code`)
  return code
}

let accounts = 0

/** A fresh address and password for one flow. */
export function newCredentials(label) {
  accounts++
  return {
    email: `${label}-${accounts}@contract.example.test`,
    password: `pw-${crypto.randomUUID()}`,
    name: `Contract ${label}`,
  }
}

/**
 * Signs up, verifies the address with the mailed code sent with the sign-up's access token (as a
 * client does, so the password stays); answers the verified session.
 */
export async function verifiedAccount(api, standIn, credentials) {
  const signup = await api.post('/auth/signup', credentials)
  assert.equal(signup.status, 201, JSON.stringify(signup.body))
  const code = await mailedCode(standIn, credentials.email)
  const verified = await api.post(
    '/auth/verify-email',
    { email: credentials.email, code },
    { token: signup.body.accessToken },
  )
  assert.equal(verified.status, 200, JSON.stringify(verified.body))
  assert.equal(verified.body.user.emailVerified, true)
  return { ...credentials, ...verified.body, id: verified.body.user.id }
}
