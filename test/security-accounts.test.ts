// Account security: the bootstrap admin needs a proven address, admin power ends with the session
// or the role, nobody changes their own role, and code emails do not reveal who has an account.
import { env } from 'cloudflare:test'
import {
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest'
import type { Env } from '../src/env.ts'
import { newId } from '../src/lib/ids.ts'
import { standIn } from './helpers/stand-in.ts'
import {
  api,
  claimsOf,
  createAdmin,
  createUser,
  lastCode,
  mailCountTo,
  nextIp,
  rememberSecret,
  uniqueEmail,
  uniquePassword,
  type TestUser,
} from './helpers/users.ts'
import { call, countingD1 } from './helpers/worker.ts'

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' }
const OWN_ROLE = {
  statusCode: 400,
  message: 'You cannot change your own role',
  error: 'Bad Request',
}

let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(() => standIn.reset())

const liveSessions = async (userId: string) =>
  (await env.DB.prepare(
    'SELECT count(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL',
  )
    .bind(userId)
    .first<{ n: number }>())!.n

describe('the bootstrap admin', () => {
  /** A sign-up with an address that BOOTSTRAP_ADMIN_EMAILS names, and those bindings to reuse. */
  async function bootstrapSignup() {
    const email = uniqueEmail('boot')
    const bindings: Partial<Env> = { BOOTSTRAP_ADMIN_EMAILS: email }
    // Mixed case, as in the review: the address is compared after normalisation.
    const user = await createUser({ email: email.toUpperCase(), verified: false }, { bindings })
    return { user, email, bindings }
  }

  it('does not make a bootstrap address admin until the address is verified', async () => {
    const { user, email, bindings } = await bootstrapSignup()
    expect(user.user.role).toBe('user')
    expect(claimsOf(user.accessToken).role).toBe('user')
    const early = await api('GET', '/users', { token: user.accessToken, bindings })
    expect(early.status).toBe(403)

    // With the sign-up's session: the honest path.
    const verified = await api('POST', '/auth/verify-email', {
      body: { email, code: await lastCode(email) },
      token: user.accessToken,
      bindings,
    })
    expect(verified.status).toBe(200)
    expect(verified.body.user).toMatchObject({ role: 'admin', emailVerified: true })
    expect(claimsOf(verified.body.accessToken).role).toBe('admin')
    const list = await api('GET', '/users', { token: verified.body.accessToken, bindings })
    expect(list.status).toBe(200)
  })

  it('grants the bootstrap role when a password reset by emailed code proves the address', async () => {
    const { user, email, bindings } = await bootstrapSignup()
    await api('POST', '/auth/forgot-password', { body: { email }, bindings })
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    const reset = await api('POST', '/auth/reset-password', {
      body: { email, code: await lastCode(email), newPassword },
      bindings,
    })
    expect(reset.status).toBe(200)
    const signin = await api('POST', '/auth/signin', {
      body: { email, password: newPassword },
      bindings,
    })
    expect(signin.body.user).toMatchObject({ id: user.id, role: 'admin', emailVerified: true })
    expect(claimsOf(signin.body.accessToken).role).toBe('admin')
  })

  it('grants it only when the address is first proven, not again after a demotion', async () => {
    const { user, email, bindings } = await bootstrapSignup()
    const verified = await api('POST', '/auth/verify-email', {
      body: { email, code: await lastCode(email) },
      token: user.accessToken,
      bindings,
    })
    const demoted = await api('PATCH', `/users/${verified.body.user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'user' },
    })
    expect(demoted.status).toBe(200)
    await api('POST', '/auth/forgot-password', { body: { email }, bindings })
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    await api('POST', '/auth/reset-password', {
      body: { email, code: await lastCode(email), newPassword },
      bindings,
    })
    const signin = await api('POST', '/auth/signin', {
      body: { email, password: newPassword },
      bindings,
    })
    expect(signin.body.user.role).toBe('user')
  })
})

describe('admin power ends with the session', () => {
  it('refuses a revoked admin token on every admin route and on admin reads of mixed routes', async () => {
    const other = await createAdmin()
    const victim = await createUser()
    const revoked = await api('DELETE', `/admin/users/${other.id}/sessions`, {
      token: admin.accessToken,
    })
    expect(revoked.status).toBe(200)
    // Bodies are left empty or invalid: a guard that let the token through would answer 400/404.
    const attempts: [string, string, unknown?][] = [
      ['GET', '/users'],
      ['GET', `/users/${victim.id}`],
      ['PATCH', `/users/${victim.id}/role`, { role: 'admin' }],
      ['DELETE', `/users/${newId()}`],
      ['POST', '/contests', {}],
      ['POST', '/contests/sync/nowhere'],
      ['POST', '/notifications/test/email', {}],
      ['POST', '/notifications/emails/custom', {}],
      ['POST', '/notifications/emails/bulk', {}],
      ['GET', `/notifications/notifications?userId=${victim.id}`],
      ['GET', '/webhooks'],
      ['GET', '/admin/stats'],
      ['PATCH', `/admin/users/${victim.id}/role`, { role: 'admin' }],
      ['GET', '/resources/submissions'],
    ]
    const answers: Record<string, number> = {}
    for (const [method, path, body] of attempts) {
      const res = await api(method, path, { token: other.accessToken, body })
      answers[`${method} ${path}`] = res.status
    }
    const expected = Object.fromEntries(Object.keys(answers).map((k) => [k, 401]))
    expect(answers).toEqual(expected)
  })

  it('counts a revoked admin token against the general limit of its address', async () => {
    const other = await createAdmin()
    const live = await api('GET', '/webhooks', { token: other.accessToken })
    expect(live.status).toBe(200)
    expect(live.headers.get('X-RateLimit-Limit')).toBeNull()
    const revoked = await api('DELETE', `/admin/users/${other.id}/sessions`, {
      token: admin.accessToken,
    })
    expect(revoked.status).toBe(200)
    const after = await api('GET', '/webhooks', { token: other.accessToken })
    expect(after.status).toBe(401)
    expect(after.headers.get('X-RateLimit-Limit')).toBe('100')
  })

  it.each(['/users', '/admin/users'])(
    'revokes every session of an admin demoted through PATCH %s/{id}/role, at once',
    async (base) => {
      const other = await createAdmin()
      expect(await liveSessions(other.id)).toBeGreaterThan(0)
      const res = await api('PATCH', `${base}/${other.id}/role`, {
        token: admin.accessToken,
        body: { role: 'user' },
      })
      expect(res.status).toBe(200)
      expect(res.body.role).toBe('user')
      expect(await liveSessions(other.id)).toBe(0)
      const after = await api('GET', '/users', { token: other.accessToken })
      expect(after.body).toEqual(UNAUTHORIZED)
      const refreshed = await api('POST', '/auth/refresh', {
        body: { refreshToken: other.refreshToken },
      })
      expect(refreshed.status).toBe(401)
    },
  )

  it('does not end the sessions of a user who is promoted; the role arrives at sign-in', async () => {
    const user = await createUser()
    const before = await liveSessions(user.id)
    expect(before).toBeGreaterThan(0)
    const res = await api('PATCH', `/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'admin' },
    })
    expect(res.status).toBe(200)
    expect(await liveSessions(user.id)).toBe(before)
    expect((await api('GET', '/users/profile', { token: user.accessToken })).status).toBe(200)
    expect((await api('GET', '/users', { token: user.accessToken })).status).toBe(403)
  })

  it('never refreshes a session into a role its user no longer has', async () => {
    const other = await createAdmin()
    // A demotion that left the sessions live (written before revocation on demotion existed).
    await env.DB.prepare("UPDATE users SET role = 'user' WHERE id = ?").bind(other.id).run()
    expect((await api('GET', '/users', { token: other.accessToken })).status).toBe(401)
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: other.refreshToken },
    })
    expect(refreshed.status).toBe(200)
    expect(claimsOf(refreshed.body.accessToken).role).toBe('user')
    expect(refreshed.body.user.role).toBe('user')
    const promoted = await api('PATCH', `/users/${other.id}/role`, {
      token: refreshed.body.accessToken,
      body: { role: 'admin' },
    })
    expect(promoted.status).toBe(403)
  })

  it.each(['/users', '/admin/users'])(
    'refuses an admin changing their own role through PATCH %s/{id}/role',
    async (base) => {
      const self = await createAdmin()
      for (const role of ['user', 'admin']) {
        const res = await api('PATCH', `${base}/${self.id}/role`, {
          token: self.accessToken,
          body: { role },
        })
        expect(res.body).toEqual(OWN_ROLE)
      }
      expect((await api('GET', '/users', { token: self.accessToken })).status).toBe(200)
    },
  )

  it.each(['/users', '/admin/stats'])(
    'answers 403 to a non-admin on %s without reading the database',
    async (path) => {
      const user = await createUser()
      const { d1, counter } = countingD1(env.DB)
      const res = await call(
        path,
        { headers: { Authorization: `Bearer ${user.accessToken}`, 'CF-Connecting-IP': nextIp() } },
        { DB: d1 },
      )
      expect(res.status).toBe(403)
      expect(counter.statements).toBe(0)
    },
  )
})

describe('code emails do not reveal who has an account', () => {
  let errors: MockInstance<typeof console.error>

  beforeEach(() => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  })

  afterEach(() => {
    errors.mockRestore()
  })

  const failProvider = () =>
    standIn.script({ pathPrefix: '/resend/emails', responses: [{ status: 500 }] })

  it.each([
    ['/auth/forgot-password', 'reset_password'],
    ['/auth/resend-verification', 'verify_email'],
  ])(
    'answers %s the same for an existing and an unknown address while the provider fails',
    async (path, purpose) => {
      const { email } = await createUser({ verified: false })
      await failProvider()
      errors.mockClear()
      const known = await api('POST', path, { body: { email } })
      const unknown = await api('POST', path, { body: { email: uniqueEmail('nobody') } })
      expect(known.status).toBe(200)
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: known.status,
        body: known.body,
      })
      // The failed send is not lost: it is logged as one JSON line.
      const logged = errors.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)))
      expect(logged).toContainEqual(
        expect.objectContaining({ event: 'code-email-not-sent', purpose }),
      )
    },
  )

  it('still mails the reset code to an existing account when the provider works', async () => {
    const { email } = await createUser()
    const before = await mailCountTo(email)
    const res = await api('POST', '/auth/forgot-password', { body: { email } })
    expect(res.status).toBe(200)
    expect(await mailCountTo(email)).toBe(before + 1)
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    const reset = await api('POST', '/auth/reset-password', {
      body: { email, code: await lastCode(email), newPassword },
    })
    expect(reset.status).toBe(200)
  })

  it('keeps the 503 when email is off, for every address', async () => {
    const { email } = await createUser()
    const off: Partial<Env> = { RESEND_API_KEY: '', DEV_OUTBOX: 'false' }
    const known = await api('POST', '/auth/forgot-password', { body: { email }, bindings: off })
    const unknown = await api('POST', '/auth/forgot-password', {
      body: { email: uniqueEmail('nobody') },
      bindings: off,
    })
    expect(known.status).toBe(503)
    expect(unknown.body).toEqual(known.body)
  })
})
