// DELETE /user/delete-account (soft delete, sessions end) and POST /auth/recover-account (within
// 30 days, signing the user in), with the daily purge of accounts past their recovery period.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../src/lib/time.ts'
import { api, claimsOf, createUser, nextIp, uniqueEmail, type TestUser } from './helpers/users.ts'
import { runDailyCleanup } from './helpers/worker.ts'

const INVALID = { statusCode: 401, message: 'Invalid credentials', error: 'Unauthorized' }

const deleteAccount = (user: TestUser) =>
  api('DELETE', '/user/delete-account', { token: user.accessToken })

const recover = (email: string, password: string, ip?: string) =>
  api('POST', '/auth/recover-account', { body: { email, password }, ip })

const userRow = (id: string) =>
  env.DB.prepare('SELECT deleted_at, updated_at FROM users WHERE id = ?')
    .bind(id)
    .first<{ deleted_at: number | null; updated_at: number }>()

/** The account is still there, marked deleted: neither purged nor recovered. */
async function expectSoftDeleted(id: string) {
  const row = await userRow(id)
  expect(row, 'the account row is still there').not.toBeNull()
  expect(row!.deleted_at, 'the account is marked deleted').toEqual(expect.any(Number))
}

/** Moves the account's deletion `days` further into the past. */
const backdateDeletion = (id: string, days: number) =>
  env.DB.prepare('UPDATE users SET deleted_at = deleted_at - ? WHERE id = ?')
    .bind(days * DAY_MS, id)
    .run()

describe('DELETE /user/delete-account', () => {
  it('soft-deletes the account and says until when it can be recovered', async () => {
    const user = await createUser()
    const before = Date.now()
    const res = await deleteAccount(user)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Account deleted; it can be recovered within 30 days')
    const row = await userRow(user.id)
    expect(row?.deleted_at).toBeGreaterThanOrEqual(before)
    expect(Date.parse(res.body.recoverable_until)).toBe(row!.deleted_at! + 30 * DAY_MS)
  })

  it('ends every session: tokens, refresh tokens and sign-in stop working', async () => {
    const user = await createUser()
    await deleteAccount(user)
    expect((await deleteAccount(user)).status).toBe(401)
    expect((await api('GET', '/users/profile', { token: user.accessToken })).status).toBe(401)
    const refresh = await api('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    })
    expect(refresh.status).toBe(401)
    const signin = await api('POST', '/auth/signin', {
      body: { email: user.email, password: user.password },
    })
    expect(signin.body).toEqual(INVALID)
  })

  it('needs a token', async () => {
    expect((await api('DELETE', '/user/delete-account')).status).toBe(401)
  })

  it('keeps the email taken while the account can still be recovered', async () => {
    const user = await createUser()
    await deleteAccount(user)
    const again = await api('POST', '/auth/signup', {
      body: { email: user.email, password: 'another-password', name: 'Someone' },
    })
    expect(again.status).toBe(409)
  })
})

describe('POST /auth/recover-account', () => {
  it('restores the account within 30 days and signs the user in', async () => {
    const user = await createUser({ name: 'Barbara Liskov' })
    await deleteAccount(user)
    await backdateDeletion(user.id, 29)
    const res = await recover(user.email, user.password)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Account recovered successfully')
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, name: 'Barbara Liskov' })
    expect(claimsOf(res.body.accessToken)).toMatchObject({ sub: user.id, role: 'user' })
    expect((await userRow(user.id))?.deleted_at).toBeNull()
    const profile = await api('GET', '/users/profile', { token: res.body.accessToken })
    expect(profile.status).toBe(200)
    const mine = await api('GET', '/resources/submissions/mine', { token: res.body.accessToken })
    expect(mine.status).toBe(200)
    // The old sessions stay ended; only the new one is live.
    expect(
      (await api('GET', '/resources/submissions/mine', { token: user.accessToken })).status,
    ).toBe(401)
    const signin = await api('POST', '/auth/signin', {
      body: { email: user.email, password: user.password },
    })
    expect(signin.status).toBe(200)
  })

  it('accepts the email in any letter case, as sign-in does', async () => {
    const user = await createUser()
    await deleteAccount(user)
    expect((await recover(` ${user.email.toUpperCase()} `, user.password)).status).toBe(200)
  })

  it('answers 404 after 30 days, and the account stays deleted', async () => {
    const user = await createUser()
    await deleteAccount(user)
    await backdateDeletion(user.id, 30)
    const res = await recover(user.email, user.password)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      statusCode: 404,
      message: 'The 30-day recovery period has ended; the account can no longer be recovered',
      error: 'Not Found',
    })
    await expectSoftDeleted(user.id)
  })

  it('answers 401 Invalid credentials for a wrong password or an unknown email, telling nothing more', async () => {
    const user = await createUser()
    await deleteAccount(user)
    await backdateDeletion(user.id, 40)
    expect((await recover(user.email, 'wrong-password')).body).toEqual(INVALID)
    expect((await recover(uniqueEmail('nobody'), 'whatever-password')).body).toEqual(INVALID)
    await expectSoftDeleted(user.id)
  })

  it('answers 409 for an account that is not deleted', async () => {
    const user = await createUser()
    const res = await recover(user.email, user.password)
    expect(res.status).toBe(409)
    expect(res.body.message).toBe('Account is not deleted; sign in instead')
  })

  it('refuses a malformed body with the validation messages', async () => {
    const res = await api('POST', '/auth/recover-account', {
      body: { email: 'a@example.test', password: '', remember: true },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'password should not be empty',
      'property remember should not exist',
    ])
  })

  it('shares sign-in’s limit of 5 failures per email and address in 15 minutes', async () => {
    const user = await createUser()
    await deleteAccount(user)
    const ip = nextIp()
    for (let i = 0; i < 3; i++) {
      expect((await recover(user.email, 'wrong-password', ip)).status).toBe(401)
    }
    for (let i = 0; i < 2; i++) {
      const signin = await api('POST', '/auth/signin', {
        ip,
        body: { email: user.email, password: 'wrong-password' },
      })
      expect(signin.status).toBe(401)
    }
    const limited = await recover(user.email, user.password, ip)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    // The owner's other address is not refused for a stranger's failures.
    expect((await recover(user.email, user.password, nextIp())).status).toBe(200)
  })
})

describe('the daily purge of deleted accounts', () => {
  it('removes accounts deleted more than 30 days ago for good and frees their email', async () => {
    const expired = await createUser()
    const recent = await createUser()
    await deleteAccount(expired)
    await deleteAccount(recent)
    await backdateDeletion(expired.id, 31)
    await backdateDeletion(recent.id, 10)
    await runDailyCleanup(Date.now())
    expect(await userRow(expired.id)).toBeNull()
    await expectSoftDeleted(recent.id)
    expect((await recover(expired.email, expired.password)).body).toEqual(INVALID)
    const signup = await api('POST', '/auth/signup', {
      body: { email: expired.email, password: 'a-new-password', name: 'New Owner' },
    })
    expect(signup.status).toBe(201)
  })
})
