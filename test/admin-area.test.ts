// The admin area of the second API: its session middleware, statistics (with the intelligence
// stand-in up and down), the user list and search, role changes, hard deletion, session revocation.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { newId } from '../src/lib/ids.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { api, createAdmin, createUser, nextIp, type TestUser } from './helpers/users.ts'
import { call, countingD1 } from './helpers/worker.ts'

const FORBIDDEN = { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' }
const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' }

async function intelligence(action: string) {
  const res = await fetch(`${env.INTELLIGENCE_URL}/__control/${action}`, { method: 'POST' })
  if (!res.ok) throw new Error(`intelligence stand-in control ${action} failed: ${res.status}`)
}

let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

const stats = async () => {
  const res = await api('GET', '/admin/stats', { token: admin.accessToken })
  expect(res.status).toBe(200)
  return res.body
}

const signIn = async (user: TestUser) => {
  const res = await api('POST', '/auth/signin', {
    body: { email: user.email, password: user.password },
  })
  expect(res.status).toBe(200)
  return res.body as { accessToken: string; refreshToken: string }
}

const count = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>())!.n

/** A conversation of `userId` with `messages` messages; no API writes them yet. */
async function addConversation(userId: string, messages: number) {
  const id = newId()
  const now = Date.now()
  await env.DB.batch([
    env.DB.prepare(
      'INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).bind(id, userId, 'Graphs', now, now),
    ...Array.from({ length: messages }, (_, i) =>
      env.DB.prepare(
        'INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
      ).bind(newId(), id, i % 2 ? 'assistant' : 'user', `message ${i}`, now),
    ),
  ])
  return id
}

describe('the session middleware of the admin area', () => {
  it('answers 401 without a token or with a bad one', async () => {
    expect((await api('GET', '/admin/stats')).body).toEqual(UNAUTHORIZED)
    const forged = await api('GET', '/admin/stats', { token: `${admin.accessToken}x` })
    expect(forged.status).toBe(401)
  })

  it('answers 401 once the token’s session has ended, though the token itself is unexpired', async () => {
    const other = await createAdmin()
    expect((await api('GET', '/admin/stats', { token: other.accessToken })).status).toBe(200)
    expect((await api('POST', '/auth/signout', { token: other.accessToken })).status).toBe(200)
    const after = await api('GET', '/admin/stats', { token: other.accessToken })
    expect(after.status).toBe(401)
    expect(after.body).toEqual(UNAUTHORIZED)
  })

  it('answers 403 to a user from the role claim, with no database read', async () => {
    const user = await createUser()
    const { d1, counter } = countingD1(env.DB)
    const res = await call(
      '/admin/stats',
      { headers: { Authorization: `Bearer ${user.accessToken}`, 'CF-Connecting-IP': nextIp() } },
      { DB: d1 },
    )
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual(FORBIDDEN)
    expect(counter.statements).toBe(0)
  })
})

describe('GET /admin/stats', () => {
  beforeEach(() => intelligence('reset'))

  it('counts users not soft-deleted, users created in the last 24 hours, conversations and messages', async () => {
    const before = await stats()
    const fresh = await createUser()
    const old = await createUser()
    await env.DB.prepare('UPDATE users SET created_at = ? WHERE id = ?')
      .bind(Date.now() - 2 * DAY_MS, old.id)
      .run()
    const gone = await createUser()
    expect((await api('DELETE', '/user/delete-account', { token: gone.accessToken })).status).toBe(
      200,
    )
    await addConversation(fresh.id, 3)
    await addConversation(old.id, 2)

    const after = await stats()
    expect(after.total_users - before.total_users).toBe(2)
    expect(after.active_today - before.active_today).toBe(1)
    expect(after.total_conversations - before.total_conversations).toBe(2)
    expect(after.total_messages - before.total_messages).toBe(5)
  })

  it('reports the intelligence service’s resource count from ListResources', async () => {
    for (const title of ['One', 'Two']) {
      const added = await api('POST', '/resources', {
        token: admin.accessToken,
        body: { title, type: 'text', content: 'Dijkstra with a binary heap.' },
      })
      expect(added.status).toBe(201)
    }
    const body = await stats()
    expect(body).toMatchObject({ total_resources: 2, intelligence_available: true })
    expect(Object.keys(body).sort()).toEqual([
      'active_today',
      'intelligence_available',
      'total_conversations',
      'total_messages',
      'total_resources',
      'total_users',
    ])
  })

  it('still answers while the intelligence service is down, with total_resources null', async () => {
    await intelligence('down')
    try {
      const body = await stats()
      expect(body.total_resources).toBeNull()
      expect(body.intelligence_available).toBe(false)
      expect(typeof body.total_users).toBe('number')
    } finally {
      await intelligence('up')
    }
  })

  it('says total_resources is unknown when no intelligence service is configured', async () => {
    const res = await api('GET', '/admin/stats', {
      token: admin.accessToken,
      bindings: { INTELLIGENCE_URL: undefined },
    })
    expect(res.body).toMatchObject({ total_resources: null, intelligence_available: false })
  })
})

describe('GET /admin/users', () => {
  it('lists users newest first in snake_case, with the total and the page bounds', async () => {
    const first = await createUser()
    const second = await createUser()
    const res = await api('GET', '/admin/users?limit=2', { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ limit: 2, offset: 0 })
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([second.id, first.id])
    expect(res.body.total).toBeGreaterThanOrEqual(3)
    expect(Object.keys(res.body.users[0]).sort()).toEqual([
      'created_at',
      'email',
      'email_verified',
      'id',
      'is_active',
      'last_login',
      'name',
      'role',
      'updated_at',
    ])
  })

  it('finds users by part of the email or the name, ignoring letter case', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const byName = await createUser({ name: `Zephyr Quill ${tag}` })
    const byEmail = await createUser({ email: `quill-${tag}@example.test` })
    await createUser({ name: 'Someone Else' })
    const res = await api(
      'GET',
      `/admin/users?search=${encodeURIComponent(` QUILL ${tag.toUpperCase()} `)}`,
      {
        token: admin.accessToken,
      },
    )
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([byName.id])
    expect(res.body.total).toBe(1)
    const both = await api('GET', `/admin/users?search=${tag}`, { token: admin.accessToken })
    expect(both.body.users.map((u: { id: string }) => u.id)).toEqual([byEmail.id, byName.id])
  })

  it('takes % and _ in a search literally', async () => {
    const res = await api('GET', '/admin/users?search=%25', { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ users: [], total: 0 })
    const underscore = await api('GET', '/admin/users?search=_', { token: admin.accessToken })
    expect(underscore.body.total).toBe(0)
  })

  it('leaves soft-deleted users out', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const gone = await createUser({ name: `Leaving ${tag}` })
    await api('DELETE', '/user/delete-account', { token: gone.accessToken })
    const res = await api('GET', `/admin/users?search=${tag}`, { token: admin.accessToken })
    expect(res.body).toMatchObject({ users: [], total: 0 })
  })

  it('answers pagination and search out of range with the API’s messages', async () => {
    const res = await api('GET', '/admin/users?limit=101&offset=-1', { token: admin.accessToken })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'limit must not be greater than 100',
      'offset must not be less than 0',
    ])
    const long = await api('GET', `/admin/users?search=${'a'.repeat(101)}`, {
      token: admin.accessToken,
    })
    expect(long.body.message).toEqual(['search must be at most 100 characters long'])
  })
})

describe('GET /admin/users/{id}', () => {
  it('returns one user, 404 for an unknown or soft-deleted one, 400 for a malformed id', async () => {
    const user = await createUser({ name: 'Edsger Dijkstra' })
    const res = await api('GET', `/admin/users/${user.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: user.id, name: 'Edsger Dijkstra', role: 'user' })
    const unknown = await api('GET', `/admin/users/${newId()}`, { token: admin.accessToken })
    expect(unknown.body).toEqual({ statusCode: 404, message: 'User not found', error: 'Not Found' })
    await api('DELETE', '/user/delete-account', { token: user.accessToken })
    const gone = await api('GET', `/admin/users/${user.id}`, { token: admin.accessToken })
    expect(gone.status).toBe(404)
    const bad = await api('GET', '/admin/users/not-an-id', { token: admin.accessToken })
    expect(bad.body).toMatchObject({ statusCode: 400, message: ['Invalid user ID format'] })
  })

  it('is for admins only', async () => {
    const user = await createUser()
    const res = await api('GET', `/admin/users/${user.id}`, { token: user.accessToken })
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('PATCH /admin/users/{id}/role', () => {
  it('changes the role and says so', async () => {
    const user = await createUser()
    const res = await api('PATCH', `/admin/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'admin' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      name: user.user.name,
      role: 'admin',
      message: 'User role updated to admin successfully',
    })
  })

  it('does not reach the user’s existing session, nor its refreshed tokens, until they sign in again', async () => {
    const user = await createUser()
    await api('PATCH', `/admin/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'admin' },
    })
    expect((await api('GET', '/admin/stats', { token: user.accessToken })).body).toEqual(FORBIDDEN)
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    })
    expect(refreshed.status).toBe(200)
    const stillUser = await api('GET', '/admin/stats', { token: refreshed.body.accessToken })
    expect(stillUser.status).toBe(403)
    const { accessToken } = await signIn(user)
    expect((await api('GET', '/admin/stats', { token: accessToken })).status).toBe(200)
  })

  it('ends a demoted admin’s sessions with the demotion', async () => {
    const other = await createAdmin()
    expect((await api('GET', '/admin/stats', { token: other.accessToken })).status).toBe(200)
    await api('PATCH', `/admin/users/${other.id}/role`, {
      token: admin.accessToken,
      body: { role: 'user' },
    })
    expect((await api('GET', '/admin/stats', { token: other.accessToken })).status).toBe(401)
    const revoked = await api('DELETE', `/admin/users/${other.id}/sessions`, {
      token: admin.accessToken,
    })
    expect(revoked.body).toEqual({ message: 'Sessions revoked successfully', revoked: 0 })
    const { accessToken } = await signIn(other)
    expect((await api('GET', '/admin/stats', { token: accessToken })).body).toEqual(FORBIDDEN)
  })

  it('refuses an unknown role, an unknown user, unknown keys and the caller’s own role', async () => {
    const user = await createUser()
    const bad = await api('PATCH', `/admin/users/${user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'owner', extra: 1 },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual([
      'role must be one of the following values: user, admin',
      'property extra should not exist',
    ])
    const unknown = await api('PATCH', `/admin/users/${newId()}/role`, {
      token: admin.accessToken,
      body: { role: 'user' },
    })
    expect(unknown.status).toBe(404)
    const own = await api('PATCH', `/admin/users/${admin.id}/role`, {
      token: admin.accessToken,
      body: { role: 'user' },
    })
    expect(own.body).toEqual({
      statusCode: 400,
      message: 'You cannot change your own role',
      error: 'Bad Request',
    })
  })

  it('is for admins only', async () => {
    const user = await createUser()
    const res = await api('PATCH', `/admin/users/${user.id}/role`, {
      token: user.accessToken,
      body: { role: 'admin' },
    })
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('DELETE /admin/users/{id}', () => {
  it('removes the user with their sessions, submissions and conversations, for good', async () => {
    const user = await createUser()
    const submitted = await api('POST', '/resources/submissions', {
      token: user.accessToken,
      body: { title: 'Tries', type: 'text', content: 'A trie stores strings by prefix.' },
    })
    expect(submitted.status).toBe(201)
    const conversation = await addConversation(user.id, 2)
    const res = await api('DELETE', `/admin/users/${user.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'User deleted successfully' })
    expect(await count('users', 'id', user.id)).toBe(0)
    expect(await count('sessions', 'user_id', user.id)).toBe(0)
    expect(await count('submissions', 'user_id', user.id)).toBe(0)
    expect(await count('conversations', 'user_id', user.id)).toBe(0)
    expect(await count('messages', 'conversation_id', conversation)).toBe(0)
    const signin = await api('POST', '/auth/signin', {
      body: { email: user.email, password: user.password },
    })
    expect(signin.status).toBe(401)
    expect(
      (await api('DELETE', `/admin/users/${user.id}`, { token: admin.accessToken })).status,
    ).toBe(404)
  })

  it('removes a soft-deleted account too, which can then not be recovered', async () => {
    const user = await createUser()
    await api('DELETE', '/user/delete-account', { token: user.accessToken })
    const res = await api('DELETE', `/admin/users/${user.id}`, { token: admin.accessToken })
    expect(res.status).toBe(200)
    const recover = await api('POST', '/auth/recover-account', {
      body: { email: user.email, password: user.password },
    })
    expect(recover.status).toBe(401)
  })

  it('refuses the caller’s own account and non-admins', async () => {
    const own = await api('DELETE', `/admin/users/${admin.id}`, { token: admin.accessToken })
    expect(own.status).toBe(400)
    const user = await createUser()
    const other = await createUser()
    const res = await api('DELETE', `/admin/users/${other.id}`, { token: user.accessToken })
    expect(res.body).toEqual(FORBIDDEN)
    expect(await count('users', 'id', other.id)).toBe(1)
  })
})

describe('DELETE /admin/users/{id}/sessions', () => {
  it('ends every session of the user: their tokens and refresh tokens stop working', async () => {
    // Unverified, so the sign-up's and the sign-in's are its two sessions.
    const user = await createUser({ verified: false })
    const second = await signIn(user)
    const res = await api('DELETE', `/admin/users/${user.id}/sessions`, {
      token: admin.accessToken,
    })
    expect(res.body).toEqual({ message: 'Sessions revoked successfully', revoked: 2 })
    for (const token of [user.accessToken, second.accessToken]) {
      expect((await api('GET', '/resources/submissions/mine', { token })).status).toBe(401)
    }
    const refresh = await api('POST', '/auth/refresh', {
      body: { refreshToken: second.refreshToken },
    })
    expect(refresh.status).toBe(401)
    // Signing in again works: revocation ends sessions, not the account.
    await signIn(user)
  })

  it('answers 404 for an unknown user', async () => {
    const res = await api('DELETE', `/admin/users/${newId()}/sessions`, {
      token: admin.accessToken,
    })
    expect(res.status).toBe(404)
  })
})

describe('the admin area in the OpenAPI document', () => {
  it('declares the admin, contact, account and resource routes', async () => {
    const doc = await (await call('/openapi.json')).json<{ paths: Record<string, object> }>()
    for (const path of [
      '/admin/stats',
      '/admin/users',
      '/admin/users/{id}',
      '/admin/users/{id}/role',
      '/admin/users/{id}/sessions',
      '/contact',
      '/user/delete-account',
      '/auth/recover-account',
      '/resources',
      '/resources/{id}',
      '/resources/jobs/{jobId}',
      '/resources/submissions',
      '/resources/submissions/mine',
      '/resources/submissions/{id}/review',
    ]) {
      expect(doc.paths, path).toHaveProperty([path])
    }
  })
})
