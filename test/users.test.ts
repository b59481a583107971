// User endpoints: own profile and preferences, account state, push subscriptions, admin management.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../src/lib/ids.ts'
import {
  api,
  createAdmin,
  createUser,
  expectNoSecrets,
  lastCode,
  type TestUser,
} from './helpers/users.ts'

let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

const platformsOf = async (userId: string) => {
  const { results } = await env.DB.prepare(
    'SELECT platform FROM user_platforms WHERE user_id = ? ORDER BY platform',
  )
    .bind(userId)
    .all<{ platform: string }>()
  return results.map((r) => r.platform)
}

const countRows = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>())!.n

// A valid RFC 8291 key pair shape: a 65-byte uncompressed point and a 16-byte secret.
const p256dh = btoa(String.fromCharCode(4, ...new Array(64).fill(7)))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '')
const auth = btoa(String.fromCharCode(...new Array(16).fill(9))).replace(/=+$/, '')
const subscription = (endpoint = `https://fcm.googleapis.com/fcm/send/${newId()}`) => ({
  endpoint,
  expirationTime: null,
  keys: { p256dh, auth },
})

describe('GET /users/profile', () => {
  it('returns the caller’s own profile with lastLogin and no secrets', async () => {
    const me = await createUser({ name: 'Grace Hopper', verified: false })
    const res = await api('GET', '/users/profile', { token: me.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: me.id,
      email: me.email,
      name: 'Grace Hopper',
      isActive: true,
      role: 'user',
      emailVerified: false,
      phoneVerified: false,
      // No channel the service turned off: an empty status.
      channelStatus: {},
    })
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'channelStatus',
        'createdAt',
        'discord',
        'email',
        'emailVerified',
        'id',
        'isActive',
        'lastLogin',
        'name',
        'phoneVerified',
        'preferences',
        'role',
        'slack',
        'telegram',
        'updatedAt',
      ].sort(),
    )
  })

  it('answers 401 without a token', async () => {
    const res = await api('GET', '/users/profile')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  })

  it('answers 404 User not found once the account is gone, though the token is valid', async () => {
    const me = await createUser()
    await api('DELETE', `/users/${me.id}`, { token: admin.accessToken })
    const res = await api('GET', '/users/profile', { token: me.accessToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'User not found', error: 'Not Found' })
    const put = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { name: 'Ghost' },
    })
    expect(put.status).toBe(404)
  })
})

describe('PUT /users/profile', () => {
  it('changes only the fields sent and answers the spec’s fields', async () => {
    const me = await createUser({ name: 'Before' })
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { name: 'After', phoneNumber: '+441234567890' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: me.id,
      email: me.email,
      name: 'After',
      phoneNumber: '+441234567890',
      preferences: me.user.preferences,
    })
  })

  it('merges a partial preferences update with the stored values', async () => {
    const me = await createUser()
    await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { alertFrequency: 'daily', contestTypes: ['div2'] } },
    })
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { notifyBefore: 6 } },
    })
    expect(res.body.preferences).toEqual({
      platforms: ['codeforces', 'leetcode'],
      alertFrequency: 'daily',
      contestTypes: ['div2'],
      notificationChannels: {
        whatsapp: true,
        email: true,
        push: false,
        telegram: false,
        discord: false,
        slack: false,
      },
      notifyBefore: 6,
      leadTimes: [360],
      quietHours: null,
      filters: { minDuration: null, maxDuration: null, excludeWords: [] },
      timezone: 'UTC',
    })
  })

  it('replaces an array or object field whole, as the spec says', async () => {
    const me = await createUser()
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { platforms: ['atcoder'], notificationChannels: { push: true } } },
    })
    expect(res.body.preferences.platforms).toEqual(['atcoder'])
    expect(res.body.preferences.notificationChannels).toEqual({
      whatsapp: false,
      email: false,
      push: true,
      telegram: false,
      discord: false,
      slack: false,
    })
  })

  it('keeps user_platforms in step with preferences.platforms', async () => {
    const me = await createUser()
    expect(await platformsOf(me.id)).toEqual(['codeforces', 'leetcode'])
    await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { platforms: ['codechef', 'atcoder', 'codechef'] } },
    })
    expect(await platformsOf(me.id)).toEqual(['atcoder', 'codechef'])
    await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { platforms: [] } },
    })
    expect(await platformsOf(me.id)).toEqual([])
  })

  it('accepts an IANA time zone in its canonical spelling and refuses anything else', async () => {
    const me = await createUser()
    const ok = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { timezone: 'europe/berlin' } },
    })
    expect(ok.body.preferences.timezone).toBe('Europe/Berlin')
    const alias = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { timezone: 'Asia/Kolkata' } },
    })
    expect(alias.body.preferences.timezone).toBe('Asia/Kolkata')
    for (const timezone of ['Mars/Olympus_Mons', '+05:30', '']) {
      const bad = await api('PUT', '/users/profile', {
        token: me.accessToken,
        body: { preferences: { timezone } },
      })
      expect(bad.status).toBe(400)
      expect(bad.body.message).toEqual(['timezone must be a valid IANA time zone'])
    }
  })

  it('answers 400 with the spec’s messages as an array, and changes nothing', async () => {
    const me = await createUser({ name: 'Unchanged' })
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: {
        name: 'A',
        preferences: { notifyBefore: 169, platforms: ['codeforces', 'nosuchjudge'] },
      },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Bad Request')
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'Name must be at least 2 characters long',
        'notifyBefore must be between 1 and 168',
        'platforms must contain valid platform names',
      ]),
    )
    const profile = await api('GET', '/users/profile', { token: me.accessToken })
    expect(profile.body.name).toBe('Unchanged')
    expect(profile.body.preferences).toEqual(me.user.preferences)
  })

  it('words the other preference errors the class-validator way', async () => {
    const me = await createUser()
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: {
        preferences: {
          alertFrequency: 'hourly',
          notifyBefore: 0,
          contestTypes: [1],
          notificationChannels: { email: 'yes' },
        },
      },
    })
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'alertFrequency must be one of the following values: immediate, daily, weekly',
        'notifyBefore must be between 1 and 168',
        'contestTypes must be an array of strings',
        'notificationChannels.email must be a boolean value',
      ]),
    )
    const notObjects = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: null },
    })
    expect(notObjects.body.message).toEqual(['preferences must be an object'])
    const channels = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { notificationChannels: ['email'] } },
    })
    expect(channels.body.message).toEqual(['notificationChannels must be an object'])
  })

  it.each(['email', 'password', 'role', 'isActive', 'refreshToken', 'createdAt', 'lastLogin'])(
    'refuses the read-only field %s with 400 and changes nothing',
    async (field) => {
      const me = await createUser()
      const res = await api('PUT', '/users/profile', {
        token: me.accessToken,
        body: { name: 'Tried', [field]: field === 'isActive' ? false : 'admin' },
      })
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual([`property ${field} should not exist`])
      const profile = await api('GET', '/users/profile', { token: me.accessToken })
      expect(profile.body).toMatchObject({ name: 'Test Person', role: 'user', isActive: true })
    },
  )

  it('refuses unknown keys inside preferences', async () => {
    const me = await createUser()
    const res = await api('PUT', '/users/profile', {
      token: me.accessToken,
      body: { preferences: { isAdmin: true } },
    })
    expect(res.body.message).toEqual(['property preferences.isAdmin should not exist'])
  })

  it('sets updatedAt on each update', async () => {
    const me = await createUser()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await api('PUT', '/users/profile', { token: me.accessToken, body: { name: 'Later' } })
    const profile = await api('GET', '/users/profile', { token: me.accessToken })
    expect(Date.parse(profile.body.updatedAt)).toBeGreaterThan(Date.parse(me.user.updatedAt))
  })
})

describe('DELETE /users/profile and PUT /users/activate', () => {
  it('deactivates and reactivates the caller’s account', async () => {
    const me = await createUser()
    const off = await api('DELETE', '/users/profile', { token: me.accessToken })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ message: 'Account deactivated successfully' })
    expect((await api('GET', '/users/profile', { token: me.accessToken })).body.isActive).toBe(
      false,
    )
    const on = await api('PUT', '/users/activate', { token: me.accessToken })
    expect(on.body).toEqual({ message: 'Account activated successfully' })
    expect((await api('GET', '/users/profile', { token: me.accessToken })).body.isActive).toBe(true)
  })

  it('needs a token', async () => {
    expect((await api('DELETE', '/users/profile')).status).toBe(401)
    expect((await api('PUT', '/users/activate')).status).toBe(401)
  })
})

describe('GET /users/:id', () => {
  it('shows a user their own record without role or lastLogin', async () => {
    const me = await createUser()
    const res = await api('GET', `/users/${me.id}`, { token: me.accessToken })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(
      ['createdAt', 'email', 'id', 'isActive', 'name', 'preferences', 'updatedAt'].sort(),
    )
  })

  it('answers 403 to another user, whether or not the id exists, showing nothing', async () => {
    const first = await createUser({ name: 'First Owner' })
    const second = await createUser()
    for (const id of [first.id, newId()]) {
      const res = await api('GET', `/users/${id}`, { token: second.accessToken })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({
        statusCode: 403,
        message: 'Forbidden resource',
        error: 'Forbidden',
      })
    }
  })

  it('lets an admin read anyone, with 404 User not found for an unknown id', async () => {
    const someone = await createUser()
    const res = await api('GET', `/users/${someone.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body.email).toBe(someone.email)
    const missing = await api('GET', `/users/${newId()}`, { token: admin.accessToken })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('User not found')
  })

  it('answers 400 for an id that is not 24 hex characters, and 401 without a token', async () => {
    const me = await createUser()
    const bad = await api('GET', '/users/not-an-id', { token: me.accessToken })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual(['Invalid user ID format'])
    expect((await api('GET', `/users/${me.id}`)).status).toBe(401)
  })
})

describe('a second user', () => {
  it('cannot change or remove the first user’s data', async () => {
    const first = await createUser({ name: 'Owner' })
    const second = await createUser()
    await api('POST', '/users/push-subscriptions', {
      token: first.accessToken,
      body: subscription('https://fcm.googleapis.com/fcm/send/owner'),
    })

    const updated = await api('PUT', '/users/profile', {
      token: second.accessToken,
      body: { name: 'Intruder' },
    })
    expect(updated.body.id).toBe(second.id)
    const role = await api('PATCH', `/users/${first.id}/role`, {
      token: second.accessToken,
      body: { role: 'user' },
    })
    expect(role.status).toBe(403)
    expect((await api('DELETE', `/users/${first.id}`, { token: second.accessToken })).status).toBe(
      403,
    )
    const unsubscribe = await api('DELETE', '/users/push-subscriptions', {
      token: second.accessToken,
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/owner' },
    })
    expect(unsubscribe.status).toBe(404)

    const profile = await api('GET', '/users/profile', { token: first.accessToken })
    expect(profile.body.name).toBe('Owner')
    expect(await countRows('push_subscriptions', 'user_id', first.id)).toBe(1)
  })
})

describe('GET /users (admin)', () => {
  it('lists users newest first with the total and the page bounds', async () => {
    const a = await createUser()
    const b = await createUser()
    const res = await api('GET', '/users?limit=2', { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ limit: 2, offset: 0 })
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([b.id, a.id])
    expect(res.body.users[0]).toMatchObject({ role: 'user', email: b.email, isActive: true })
    const { n } = (await env.DB.prepare(
      'SELECT count(*) AS n FROM users WHERE deleted_at IS NULL',
    ).first<{
      n: number
    }>())!
    expect(res.body.total).toBe(n)
    const next = await api('GET', '/users?limit=1&offset=1', { token: admin.accessToken })
    expect(next.body.users[0].id).toBe(a.id)
  })

  it('defaults to 20 per page from offset 0', async () => {
    const res = await api('GET', '/users', { token: admin.accessToken })
    expect(res.body).toMatchObject({ limit: 20, offset: 0 })
    expect(res.body.users.length).toBeLessThanOrEqual(20)
  })

  it('answers pagination out of range with the spec’s messages', async () => {
    const cases: [string, string][] = [
      ['limit=101', 'limit must not be greater than 100'],
      ['limit=0', 'limit must not be less than 1'],
      ['offset=-1', 'offset must not be less than 0'],
      ['limit=abc', 'limit must be an integer number'],
    ]
    for (const [query, message] of cases) {
      const res = await api('GET', `/users?${query}`, { token: admin.accessToken })
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual([message])
    }
  })

  it('is for admins only: 403 Forbidden resource for a user, 401 without a token', async () => {
    const user = await createUser()
    const res = await api('GET', '/users', { token: user.accessToken })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })
    expect((await api('GET', '/users')).status).toBe(401)
  })
})

describe('PATCH /users/:id/role (admin)', () => {
  it('changes the role and says so', async () => {
    const user = await createUser({ name: 'Promoted' })
    const res = await api('PATCH', `/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'admin' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      name: 'Promoted',
      role: 'admin',
      message: 'User role updated to admin successfully',
    })
  })

  it('rejects an unknown role and an unknown user', async () => {
    const user = await createUser()
    const bad = await api('PATCH', `/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'owner' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual(['role must be one of the following values: user, admin'])
    const missing = await api('PATCH', `/users/${newId()}/role`, {
      token: admin.accessToken,
      body: { role: 'user' },
    })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('User not found')
  })
})

describe('DELETE /users/:id (admin)', () => {
  it('removes the user and everything they own in one go', async () => {
    const user = await createUser()
    await api('POST', '/users/push-subscriptions', {
      token: user.accessToken,
      body: subscription(),
    })
    await api('POST', '/auth/forgot-password', { body: { email: user.email } })
    await lastCode(user.email)
    await api('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })

    const res = await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'User deleted successfully' })
    for (const [table, column] of [
      ['users', 'id'],
      ['sessions', 'user_id'],
      ['email_codes', 'user_id'],
      ['push_subscriptions', 'user_id'],
      ['user_platforms', 'user_id'],
    ]) {
      expect(await countRows(table, column, user.id), table).toBe(0)
    }
    expect(
      (await env.DB.prepare('SELECT count(*) AS n FROM rotated_refresh_tokens').first<{
        n: number
      }>())!.n,
    ).toBe(
      (await env.DB.prepare(
        'SELECT count(*) AS n FROM rotated_refresh_tokens r JOIN sessions s ON s.id = r.session_id',
      ).first<{ n: number }>())!.n,
    )
    const again = await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    expect(again.status).toBe(404)
    expect(again.body.message).toBe('User not found')
  })

  it('frees the email address for a new signup', async () => {
    const user = await createUser()
    await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    const again = await createUser({ email: user.email })
    expect(again.id).not.toBe(user.id)
  })
})

describe('push subscriptions', () => {
  it('registers a subscription once and updates it when the browser sends it again', async () => {
    const me = await createUser()
    const body = subscription()
    const created = await api('POST', '/users/push-subscriptions', { token: me.accessToken, body })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ endpoint: body.endpoint })
    const again = await api('POST', '/users/push-subscriptions', { token: me.accessToken, body })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(created.body.id)
    expect(await countRows('push_subscriptions', 'user_id', me.id)).toBe(1)
  })

  it('removes a subscription by endpoint, then answers 404 for it', async () => {
    const me = await createUser()
    const body = subscription()
    await api('POST', '/users/push-subscriptions', { token: me.accessToken, body })
    const removed = await api('DELETE', '/users/push-subscriptions', {
      token: me.accessToken,
      body: { endpoint: body.endpoint },
    })
    expect(removed.body).toEqual({ message: 'Push subscription removed' })
    const again = await api('DELETE', '/users/push-subscriptions', {
      token: me.accessToken,
      body: { endpoint: body.endpoint },
    })
    expect(again.status).toBe(404)
    expect(again.body.message).toBe('Push subscription not found')
  })

  it('refuses a non-https endpoint and malformed keys', async () => {
    const me = await createUser()
    const res = await api('POST', '/users/push-subscriptions', {
      token: me.accessToken,
      body: { endpoint: 'ftp://fcm.googleapis.com/x', keys: { p256dh: 'short', auth: 'x' } },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'endpoint must be an https URL',
      'keys.p256dh must be a base64url-encoded P-256 public key',
      'keys.auth must be a base64url-encoded 16-byte secret',
    ])
    // http passes the body's form check (a local run admits it) and is refused with the settings.
    const http = await api('POST', '/users/push-subscriptions', {
      token: me.accessToken,
      body: subscription('http://fcm.googleapis.com/fcm/send/x'),
    })
    expect(http.status).toBe(400)
    expect(http.body.message).toEqual(['endpoint must be an https URL'])
    expect((await api('POST', '/users/push-subscriptions', { body: subscription() })).status).toBe(
      401,
    )
  })
})

describe('data model', () => {
  it('answers "who follows this platform" from the (platform, user_id) index', async () => {
    const { results } = await env.DB.prepare(
      'EXPLAIN QUERY PLAN SELECT user_id FROM user_platforms WHERE platform = ?',
    )
      .bind('codeforces')
      .all<{ detail: string }>()
    expect(results.map((r) => r.detail).join('\n')).toContain(
      'USING COVERING INDEX user_platforms_platform_user',
    )
  })

  it('has a secret check that really catches a stored hash in a response', async () => {
    await createUser()
    const row = await env.DB.prepare('SELECT password_hash FROM users LIMIT 1').first<{
      password_hash: string
    }>()
    await expect(expectNoSecrets(JSON.stringify({ leak: row!.password_hash }))).rejects.toThrow()
  })
})
