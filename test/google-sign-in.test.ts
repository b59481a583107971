// Sign in with Google for API clients, against the stand-in playing Google: the redirect to Google,
// the callback's account rules and ID token checks, and the one-time code exchanged for tokens.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { purgeDeletedAccounts } from '../src/account/purge.ts'
import { createDb } from '../src/db/client.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { findUserByEmail } from '../src/users/queries.ts'
import {
  APP_URL,
  atGoogle,
  callback,
  CLIENT_REDIRECT,
  GOOGLE,
  googleProfile,
  LISTED_REDIRECT,
  location,
  redeem,
  scriptGoogle,
  signInWithGoogle,
  start,
  unverifiedAccount,
  verifiedAccount,
} from './helpers/google.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, nextIp, uniqueEmail } from './helpers/users.ts'
import type { GoogleProfile } from './stand-ins/google-client.ts'

beforeEach(() => standIn.reset())

const findUser = (email: string) => findUserByEmail(createDb(env.DB), email)

/** The client's redirect must carry a code and nothing else that signs anyone in. */
function codeOf(redirect: URL): string {
  expect(redirect.origin + redirect.pathname).toBe(CLIENT_REDIRECT)
  expect(redirect.searchParams.get('error')).toBeNull()
  expect([...redirect.searchParams.keys()]).toEqual(['code'])
  return redirect.searchParams.get('code')!
}

function errorOf(redirect: URL): string | null {
  expect(redirect.origin + redirect.pathname).toBe(CLIENT_REDIRECT)
  expect(redirect.searchParams.get('code')).toBeNull()
  return redirect.searchParams.get('error')
}

describe('GET /auth/google/start', () => {
  it('redirects to Google with state, nonce, PKCE S256 and the openid scopes', async () => {
    const res = await start()
    expect(res.status).toBe(302)
    const url = location(res)
    expect(url.origin + url.pathname).toBe(GOOGLE.GOOGLE_AUTH_URL)
    const q = url.searchParams
    expect(q.get('client_id')).toBe(GOOGLE.GOOGLE_CLIENT_ID)
    expect(q.get('redirect_uri')).toBe(`${APP_URL}/auth/google/callback`)
    expect(q.get('response_type')).toBe('code')
    expect(q.get('scope')).toBe('openid email profile')
    expect(q.get('code_challenge_method')).toBe('S256')
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/)
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/)
    expect(q.get('nonce')).not.toBe(q.get('state'))
    expect(res.headers.get('x-ratelimit-limit')).toBe('30')
  })

  it('keeps the flow in KV under a hash of the state, never the state itself', async () => {
    const state = location(await start()).searchParams.get('state')!
    const { keys } = await env.KV.list({ prefix: 'google:flow:' })
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.some((k) => k.name.includes(state))).toBe(false)
  })

  it('accepts a URL listed in GOOGLE_CLIENT_REDIRECTS', async () => {
    expect((await start(LISTED_REDIRECT)).status).toBe(302)
  })

  it.each([
    ['another site', 'https://evil.example/signed-in'],
    ['a look-alike host', 'http://localhost:8787.evil.example/signed-in'],
    ['another port', 'http://localhost:9999/signed-in'],
    ['a listed URL with more on it', `${LISTED_REDIRECT}/more`],
    ['a fragment', `${CLIENT_REDIRECT}#x`],
    ['not a URL', 'signed-in'],
  ])('refuses a redirect_uri on %s with 400', async (_, uri) => {
    const res = await start(uri)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'redirect_uri is not an allowed client URL',
      error: 'Bad Request',
    })
  })

  it('limits each client address to 30 starts in 15 minutes', async () => {
    const ip = nextIp()
    const path = `/auth/google/start?redirect_uri=${encodeURIComponent(CLIENT_REDIRECT)}`
    for (let i = 0; i < 30; i++) {
      expect((await api('GET', path, { ip, bindings: GOOGLE })).status).toBe(302)
    }
    const refused = await api('GET', path, { ip, bindings: GOOGLE })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).not.toBeNull()
  })

  it('refuses unknown query parameters', async () => {
    const res = await api('GET', `/auth/google/start?redirect_uri=${CLIENT_REDIRECT}&x=1`, {
      bindings: GOOGLE,
    })
    expect(res.status).toBe(400)
  })

  it('answers 503 on every step while the client id and secret are not set', async () => {
    const off = { ...GOOGLE, GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' }
    const answers = [
      await start(CLIENT_REDIRECT, off),
      await callback('/auth/google/callback?state=s&code=c', off),
      await redeem('some-code', off),
    ]
    for (const res of answers) {
      expect(res.status).toBe(503)
      expect(res.body).toEqual({
        statusCode: 503,
        message: 'Sign in with Google is not configured on this service',
        error: 'Service Unavailable',
      })
    }
  })
})

describe('Google callback and token exchange', () => {
  it('creates a verified account for a new Google user and signs it in', async () => {
    const profile = googleProfile({ name: 'Grace Hopper' })
    const code = codeOf(await signInWithGoogle(profile))

    const res = await redeem(code)
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ email: profile.email, name: 'Grace Hopper' })
    expect(res.body.user.emailVerified).toBe(true)
    expect(res.headers.get('x-ratelimit-limit')).toBe('30')

    const me = await api('GET', '/users/profile', { token: res.body.accessToken })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: res.body.user.id, email: profile.email })
    expect(me.body.emailVerified).toBe(true)
    // The refresh token is a real one of the sign-in's session.
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: res.body.refreshToken },
    })
    expect(refreshed.status).toBe(200)
  })

  it('makes password sign-in impossible for an account Google created', async () => {
    const profile = googleProfile()
    expect((await redeem(codeOf(await signInWithGoogle(profile)))).status).toBe(200)
    const res = await api('POST', '/auth/signin', {
      body: { email: profile.email, password: 'any password at all' },
    })
    expect(res.status).toBe(401)
  })

  it('gives a bootstrap address its admin role, since Google proved the address', async () => {
    const profile = googleProfile()
    const bindings = { ...GOOGLE, BOOTSTRAP_ADMIN_EMAILS: profile.email }
    const res = await redeem(codeOf(await signInWithGoogle(profile, bindings)), bindings)
    expect(res.status).toBe(200)
    expect(res.body.user.role).toBe('admin')
  })

  it('signs in to the existing account whose address is verified', async () => {
    const existing = await verifiedAccount()
    const code = codeOf(await signInWithGoogle(googleProfile({ email: existing.email })))
    const res = await redeem(code)
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(existing.id)
    const me = await api('GET', '/users/profile', { token: res.body.accessToken })
    expect(me.body.id).toBe(existing.id)
  })

  it('matches the address without regard to case', async () => {
    const existing = await verifiedAccount()
    const profile = googleProfile({ email: existing.email.toUpperCase() })
    const res = await redeem(codeOf(await signInWithGoogle(profile)))
    expect(res.body.user.id).toBe(existing.id)
  })

  it('never signs in to an existing account whose address is unverified', async () => {
    const squatter = await unverifiedAccount()
    const redirect = await signInWithGoogle(googleProfile({ email: squatter.email }))
    expect(errorOf(redirect)).toBe('account_not_verified')
    const still = await findUser(squatter.email)
    expect(still?.id).toBe(squatter.id)
    expect(still?.emailVerifiedAt).toBeNull()
  })

  it('refuses a Google address that Google has not verified, creating nothing', async () => {
    const profile = googleProfile({ email_verified: false })
    expect(errorOf(await signInWithGoogle(profile))).toBe('email_not_verified')
    expect(await findUser(profile.email)).toBeUndefined()
  })

  it('echoes the client state and sends the code to a listed client URL', async () => {
    await scriptGoogle(googleProfile())
    const query = new URLSearchParams({ redirect_uri: LISTED_REDIRECT, state: 'client-xyz' })
    const started = await api('GET', `/auth/google/start?${query}`, { bindings: GOOGLE })
    const res = await callback(await atGoogle(location(started)))
    const redirect = location(res)
    expect(redirect.origin + redirect.pathname).toBe(LISTED_REDIRECT)
    expect(redirect.searchParams.get('state')).toBe('client-xyz')
    expect(redirect.searchParams.get('code')).toMatch(/^[\w-]{43}$/)
  })

  it('accepts a state once: the same callback again is a 400', async () => {
    await scriptGoogle(googleProfile())
    const path = await atGoogle(location(await start()))
    const first = await callback(path)
    expect(first.status).toBe(302)
    codeOf(location(first))
    const again = await callback(path)
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({
      statusCode: 400,
      message: 'Unknown, expired or already used state',
    })
  })

  it('refuses a state it never issued', async () => {
    const res = await callback('/auth/google/callback?state=made-up&code=4/abc')
    expect(res.status).toBe(400)
  })

  it("passes Google's refusal on to the client", async () => {
    const state = location(await start()).searchParams.get('state')!
    const res = await callback(`/auth/google/callback?state=${state}&error=access_denied`)
    expect(errorOf(location(res))).toBe('access_denied')
  })

  const forged: [string, GoogleProfile['overrides']][] = [
    ['another nonce', { nonce: 'not-the-nonce-of-this-flow' }],
    ['another audience', { aud: 'someone-else.apps.googleusercontent.com' }],
    ['another issuer', { iss: 'https://accounts.example.com' }],
    ['an expired token', { expiresIn: -120 }],
    ['a signature by a key Google does not serve', { badSignature: true }],
  ]

  it.each(forged)('refuses an ID token with %s', async (_, overrides) => {
    const profile = googleProfile({ overrides })
    expect(errorOf(await signInWithGoogle(profile))).toBe('invalid_id_token')
    expect(await findUser(profile.email)).toBeUndefined()
  })

  it('accepts the issuer without a scheme, as Google also sends it', async () => {
    const profile = googleProfile({ overrides: { iss: 'accounts.google.com' } })
    expect((await redeem(codeOf(await signInWithGoogle(profile)))).status).toBe(200)
  })

  it('sends the PKCE verifier, so a code from another flow is refused by Google', async () => {
    await scriptGoogle(googleProfile())
    const victim = new URL(await atGoogle(location(await start())), APP_URL)
    const mine = location(await start()).searchParams.get('state')!
    // The victim's code injected into another flow: its verifier does not match the challenge.
    victim.searchParams.set('state', mine)
    const res = await callback(victim.pathname + victim.search)
    expect(errorOf(location(res))).toBe('token_exchange_failed')

    const [exchange] = await standIn.requests('/google/token')
    const form = new URLSearchParams(exchange.body)
    expect(form.get('code_verifier')).toMatch(/^[\w-]{43,128}$/)
    expect(form.get('redirect_uri')).toBe(`${APP_URL}/auth/google/callback`)
    expect(exchange.headers.authorization).toMatch(/^Basic /)
  })

  it('exchanges a code once', async () => {
    const code = codeOf(await signInWithGoogle(googleProfile()))
    expect((await redeem(code)).status).toBe(200)
    const again = await redeem(code)
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ statusCode: 400, message: 'Invalid or expired code' })
    expect(again.body.refreshToken).toBeUndefined()
  })

  it('exchanges a code once even where KV still holds it after the first use', async () => {
    const code = codeOf(await signInWithGoogle(googleProfile()))
    const { keys } = await env.KV.list({ prefix: 'google:code:' })
    const stored = await Promise.all(
      keys.map(async (k) => [k.name, await env.KV.get(k.name)] as const),
    )
    expect((await redeem(code)).status).toBe(200)
    // KV is eventually consistent: another location may still read the deleted record.
    for (const [name, value] of stored) if (value) await env.KV.put(name, value)
    const again = await redeem(code)
    expect(again.status).toBe(400)
    expect(again.body.refreshToken).toBeUndefined()
  })

  it('refuses an unknown code and a body with more than the code', async () => {
    expect((await redeem('never-issued-code')).status).toBe(400)
    const res = await api('POST', '/auth/google/token', {
      body: { code: 'x', redirect_uri: CLIENT_REDIRECT },
      bindings: GOOGLE,
    })
    expect(res.status).toBe(400)
  })

  it('stores the exchange code only as a hash', async () => {
    const code = codeOf(await signInWithGoogle(googleProfile()))
    const { keys } = await env.KV.list({ prefix: 'google:code:' })
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.some((k) => k.name.includes(code))).toBe(false)
  })
})

describe('API description', () => {
  it('documents the three Google endpoints and their answers', async () => {
    const { body } = await api('GET', '/openapi.json')
    const start = body.paths['/auth/google/start'].get
    expect(Object.keys(start.responses).sort()).toEqual(['302', '400', '429', '503'])
    expect(start.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'redirect_uri',
      'state',
    ])
    expect(body.paths['/auth/google/callback'].get.responses).toHaveProperty('302')
    const token = body.paths['/auth/google/token'].post
    expect(token.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AuthResult',
    )
  })
})

describe('the Google account (sub) linked to an account', () => {
  const subjectOf = async (userId: string) =>
    (
      await env.DB.prepare('SELECT google_subject FROM users WHERE id = ?')
        .bind(userId)
        .first<{ google_subject: string | null }>()
    )?.google_subject

  /** Signs `profile` in through the whole API flow; the signed-in user. */
  async function signedIn(profile: GoogleProfile) {
    const res = await redeem(codeOf(await signInWithGoogle(profile)))
    expect(res.status).toBe(200)
    return res.body.user as { id: string; email: string }
  }

  it('stores the sub of the Google account that creates an account', async () => {
    const profile = googleProfile()
    const user = await signedIn(profile)
    expect(await subjectOf(user.id)).toBe(profile.sub)
  })

  it('links an existing verified account to the Google account of its first Google sign-in', async () => {
    const existing = await verifiedAccount()
    expect(await subjectOf(existing.id)).toBeNull()
    const profile = googleProfile({ email: existing.email })
    expect((await signedIn(profile)).id).toBe(existing.id)
    expect(await subjectOf(existing.id)).toBe(profile.sub)
    // The same Google account again: the same account, still linked to it.
    expect((await signedIn(profile)).id).toBe(existing.id)
  })

  it('signs in by the sub after the address changed at Google, even to another account’s address', async () => {
    const profile = googleProfile()
    const user = await signedIn(profile)
    const moved = { ...profile, email: uniqueEmail('moved') }
    expect((await signedIn(moved)).id).toBe(user.id)
    expect(await findUser(moved.email)).toBeUndefined()
    // An address that now names another account (with a Google account of its own) changes nothing.
    const other = await signedIn(googleProfile())
    expect((await signedIn({ ...profile, email: other.email })).id).toBe(user.id)
  })

  it('signs a linked Google account in whatever Google says of its address now', async () => {
    const profile = googleProfile()
    const user = await signedIn(profile)
    expect((await signedIn({ ...profile, email_verified: false })).id).toBe(user.id)
  })

  it('refuses another sub claiming the address of a linked account, with a clear reason', async () => {
    const owner = googleProfile()
    const user = await signedIn(owner)
    const impostor = googleProfile({ email: owner.email })
    expect(impostor.sub).not.toBe(owner.sub)
    const redirect = await signInWithGoogle(impostor)
    expect(errorOf(redirect)).toBe('google_account_mismatch')
    expect(redirect.searchParams.get('error_description')).toMatch(
      /linked to a different Google account/,
    )
    expect(await subjectOf(user.id)).toBe(owner.sub)
    // The owner's Google account still signs in.
    expect((await signedIn(owner)).id).toBe(user.id)
  })

  it('refuses another sub for an account linked at an earlier sign-in with its password', async () => {
    const existing = await verifiedAccount()
    const first = googleProfile({ email: existing.email })
    await signedIn(first)
    const second = googleProfile({ email: existing.email })
    expect(errorOf(await signInWithGoogle(second))).toBe('google_account_mismatch')
    expect(await subjectOf(existing.id)).toBe(first.sub)
  })

  it('keeps the sub of a deleted account until the purge, which frees it', async () => {
    const profile = googleProfile()
    const res = await redeem(codeOf(await signInWithGoogle(profile)))
    const user = res.body.user
    const deleted = await api('DELETE', '/user/delete-account', { token: res.body.accessToken })
    expect(deleted.status).toBe(200)
    // Deleted, under a new address at Google too: no new account while the old one may return.
    const moved = { ...profile, email: uniqueEmail('moved') }
    expect(errorOf(await signInWithGoogle(moved))).toBe('account_unavailable')
    expect(await findUser(moved.email)).toBeUndefined()

    await env.DB.prepare('UPDATE users SET deleted_at = deleted_at - ? WHERE id = ?')
      .bind(31 * DAY_MS, user.id)
      .run()
    expect(await purgeDeletedAccounts(createDb(env.DB), Date.now())).toBeGreaterThan(0)
    const again = await signedIn(moved)
    expect(again.id).not.toBe(user.id)
    expect(await subjectOf(again.id)).toBe(profile.sub)
  })

  it('makes one account of two sign-ins of a new Google account at once', async () => {
    const profile = googleProfile()
    // Through Google one after the other (the stand-in's script serves one sign-in), then both
    // callbacks at once.
    const flows: string[] = []
    for (let i = 0; i < 2; i++) {
      await scriptGoogle(profile)
      flows.push(await atGoogle(location(await start())))
    }
    const redirects = await Promise.all(flows.map(async (path) => location(await callback(path))))
    const users = await Promise.all(redirects.map(async (r) => (await redeem(codeOf(r))).body.user))
    expect(users[0].id).toBe(users[1].id)
    expect(await subjectOf(users[0].id)).toBe(profile.sub)
  })
})
