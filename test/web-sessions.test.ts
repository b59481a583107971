// Web sessions: the HttpOnly __Host- cookie and what the server keeps of it, the guard of signed-in
// pages, and every way a session ends (sign-out, a password reset or change, deletion, a demotion,
// an admin's revocation, expiry), since a cookie session is a row of `sessions` like the API's.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../src/lib/crypto.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { selectOne } from './helpers/html.ts'
import { api, createAdmin, createUser, lastCode, type TestUser } from './helpers/users.ts'
import { parseSetCookie, setCookies, WebClient } from './helpers/web.ts'

const SESSION_COOKIE = '__Host-session'

/** A browser signed in as `user` through the sign-in page. */
async function signedIn(user: TestUser, client = new WebClient()) {
  const answer = await client.submit('/app/signin', '/app/signin', {
    email: user.email,
    password: user.password,
  })
  expect(answer.status, answer.html).toBe(303)
  return { client, answer }
}

/** The landing page answers this browser: signed in (200) or sent to sign in (303). */
async function landing(client: WebClient) {
  return client.get('/app/')
}

async function expectSignedOut(client: WebClient) {
  const page = await landing(client)
  expect(page.status).toBe(303)
  expect(WebClient.location(page)).toBe('/app/signin')
}

async function storedSession(secret: string) {
  return env.DB.prepare('SELECT * FROM sessions WHERE refresh_hash = ?')
    .bind(await sha256Hex(secret))
    .first<{ id: string; kind: string; revoked_at: number | null; expires_at: number }>()
}

describe('the session cookie', () => {
  it('is __Host-, HttpOnly, Secure, SameSite=Lax, Path=/, for 7 days, and only its hash is kept', async () => {
    const user = await createUser()
    const { client, answer } = await signedIn(user)
    const lines = setCookies(answer.res).map(parseSetCookie)
    const cookie = lines.find((c) => c.name === SESSION_COOKIE)
    expect(cookie, 'the sign-in sets the session cookie').toBeDefined()
    expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookie!.attributes).toEqual({
      'max-age': String((7 * DAY_MS) / 1000),
      path: '/',
      httponly: true,
      secure: true,
      samesite: 'Lax',
    })
    expect(cookie!.attributes.domain, '__Host- cookies name no domain').toBeUndefined()

    const row = await storedSession(cookie!.value)
    expect(row).toMatchObject({ kind: 'web', revoked_at: null })
    expect(row!.expires_at - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000)
    const raw = await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE refresh_hash = ?')
      .bind(cookie!.value)
      .first<{ n: number }>()
    expect(raw!.n, 'the secret itself is never stored').toBe(0)

    const page = await landing(client)
    expect(page.status).toBe(200)
    expect(page.res.headers.get('Cache-Control')).toBe('no-store')
    expect((await selectOne(page.html, '#signed-in-as')).text).toContain(user.email)
  })

  it('sends a browser without a session to sign in, and back to the page it asked for', async () => {
    const client = new WebClient()
    await expectSignedOut(client)
    const user = await createUser()
    const asked = '/app/?notice=verified'
    const page = await client.get(`/app/signin?next=${encodeURIComponent(asked)}`)
    const answer = await client.post(
      `/app/signin?next=${encodeURIComponent(asked)}`,
      { email: user.email, password: user.password },
      { csrf: page.csrf },
    )
    expect(WebClient.location(answer)).toBe(asked)
  })

  it('never sends the browser to another site after sign-in', async () => {
    const user = await createUser()
    for (const next of [
      'https://evil.example/',
      '//evil.example/app/',
      '/\\evil.example',
      '/contests',
    ]) {
      const client = new WebClient()
      const query = `?next=${encodeURIComponent(next)}`
      const page = await client.get(`/app/signin${query}`)
      const answer = await client.post(
        `/app/signin${query}`,
        { email: user.email, password: user.password },
        { csrf: page.csrf },
      )
      expect(WebClient.location(answer), next).toBe('/app/')
    }
  })

  it('ignores a cookie that is not one of ours, without an error', async () => {
    for (const value of ['x', 'a'.repeat(43), '%00%zz', '"quoted"']) {
      const client = new WebClient()
      client.cookies.set(SESSION_COOKIE, value)
      await expectSignedOut(client)
    }
  })

  it('is no refresh token: /auth/refresh refuses it and the web session stays', async () => {
    const user = await createUser()
    const { client } = await signedIn(user)
    const secret = client.cookies.get(SESSION_COOKIE)!
    const refresh = await api('POST', '/auth/refresh', { body: { refreshToken: secret } })
    expect(refresh.status).toBe(401)
    expect((await landing(client)).status).toBe(200)

    // Nor is an API refresh token a cookie.
    const other = new WebClient()
    other.cookies.set(SESSION_COOKIE, user.refreshToken)
    await expectSignedOut(other)
  })

  it('a new sign-in in the same browser ends the session it had', async () => {
    const user = await createUser()
    const { client } = await signedIn(user)
    const first = client.cookies.get(SESSION_COOKIE)!
    // The sign-in page sends a signed-in browser on; a sign-in form still open elsewhere is sent.
    expect(WebClient.location(await client.get('/app/signin'))).toBe('/app/')
    const page = await landing(client)
    const again = await client.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf: page.csrf },
    )
    expect(again.status).toBe(303)
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(first)
    expect((await storedSession(first))!.revoked_at).not.toBeNull()
    expect((await landing(client)).status).toBe(200)
  })
})

describe('the end of a web session', () => {
  it('sign-out revokes it: the old cookie opens nothing', async () => {
    const user = await createUser()
    const { client } = await signedIn(user)
    const secret = client.cookies.get(SESSION_COOKIE)!
    const page = await landing(client)
    const out = await client.post('/app/signout', {}, { csrf: page.csrf })
    expect(out.status).toBe(303)
    expect(WebClient.location(out)).toBe('/app/signin?notice=signed-out')
    const cleared = setCookies(out.res).map(parseSetCookie)
    expect(cleared.find((c) => c.name === SESSION_COOKIE)?.attributes['max-age']).toBe('0')
    expect((await storedSession(secret))!.revoked_at).not.toBeNull()

    // A copy of the cookie kept from before is worth nothing now.
    const copy = new WebClient()
    copy.cookies.set(SESSION_COOKIE, secret)
    await expectSignedOut(copy)
    expect(copy.cookies.has(SESSION_COOKIE), 'the dead cookie is cleared').toBe(false)
  })

  it('a password reset through the pages ends every session, web and API', async () => {
    const user = await createUser()
    const { client: other } = await signedIn(user)
    const resetter = new WebClient()
    const sent = await resetter.submit('/app/forgot', '/app/forgot', { email: user.email })
    expect(sent.status).toBe(200)
    const code = await lastCode(user.email)
    const newPassword = `new-${user.password}`
    const reset = await resetter.post(
      '/app/reset',
      { email: user.email, code, newPassword },
      { csrf: sent.csrf },
    )
    expect(reset.status, reset.html).toBe(303)
    await expectSignedOut(other)
    const refresh = await api('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    })
    expect(refresh.status).toBe(401)
  })

  it('a password reset, a password change, deletion and an admin revocation through the API end it', async () => {
    const admin = await createAdmin()
    const ends: [string, (user: TestUser) => Promise<unknown>][] = [
      [
        'reset',
        async (user) => {
          await api('POST', '/auth/forgot-password', { body: { email: user.email } })
          const code = await lastCode(user.email)
          const body = { email: user.email, code, newPassword: `new-${user.password}` }
          expect((await api('POST', '/auth/reset-password', { body })).status).toBe(200)
        },
      ],
      [
        'change',
        async (user) => {
          const body = { currentPassword: user.password, newPassword: `new-${user.password}` }
          const res = await api('PATCH', '/auth/password', { body, token: user.accessToken })
          expect(res.status).toBe(200)
        },
      ],
      [
        'soft delete',
        async (user) => {
          const res = await api('DELETE', '/user/delete-account', { token: user.accessToken })
          expect(res.status).toBe(200)
        },
      ],
      [
        'admin revocation',
        async (user) => {
          const res = await api('DELETE', `/admin/users/${user.id}/sessions`, {
            token: admin.accessToken,
          })
          expect(res.status).toBe(200)
        },
      ],
      [
        'hard delete',
        async (user) => {
          const res = await api('DELETE', `/admin/users/${user.id}`, { token: admin.accessToken })
          expect(res.status).toBe(200)
        },
      ],
    ]
    for (const [name, end] of ends) {
      const user = await createUser()
      const { client } = await signedIn(user)
      expect((await landing(client)).status, name).toBe(200)
      await end(user)
      await expectSignedOut(client)
    }
  })

  it('a demotion ends an admin web session', async () => {
    const admin = await createAdmin()
    const user = await createUser()
    const promoted = await api('PATCH', `/admin/users/${user.id}/role`, {
      body: { role: 'admin' },
      token: admin.accessToken,
    })
    expect(promoted.status).toBe(200)
    const { client } = await signedIn(user)
    expect((await landing(client)).status).toBe(200)
    const demoted = await api('PATCH', `/admin/users/${user.id}/role`, {
      body: { role: 'user' },
      token: admin.accessToken,
    })
    expect(demoted.status).toBe(200)
    await expectSignedOut(client)
  })

  it('ends 7 days after sign-in, whatever the activity', async () => {
    const user = await createUser()
    const { client } = await signedIn(user)
    const row = await storedSession(client.cookies.get(SESSION_COOKIE)!)
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, row!.id)
      .run()
    await expectSignedOut(client)
  })
})
