// Whoever proves the mailbox, and only they, ends up holding an account: the outside review's
// attack (sign up with someone else's address, wait for the owner to prove it, sign in with the
// password chosen at sign-up) step by step, on the API and the web app, for a bootstrap admin
// address and an ordinary one.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { UNPROVEN_ACCOUNT_TTL_MS } from '../src/account/purge.ts'
import type { Env } from '../src/env.ts'
import { cleanupJob } from '../src/jobs/cleanup.ts'
import { UNVERIFIED_CANNOT_ATTACH } from '../src/users/destinations.ts'
import { selectOne } from './helpers/html.ts'
import { testEnv } from './helpers/notifications.ts'
import {
  api,
  claimsOf,
  createUser,
  lastCode,
  lastMailTo,
  rememberSecret,
  uniqueEmail,
  uniquePassword,
  type TestUser,
} from './helpers/users.ts'
import { WebClient } from './helpers/web.ts'

/** The attacker's sign-up with the victim's address and a password only the attacker knows. */
async function squat(email: string, bindings: Partial<Env> = {}): Promise<TestUser> {
  return createUser({ email, verified: false, name: 'Mallory' }, { bindings })
}

/** The victim proves the address with the mailed code alone (the API's bare proof). */
async function proveBare(email: string, bindings: Partial<Env> = {}) {
  const res = await api('POST', '/auth/verify-email', {
    body: { email, code: await lastCode(email) },
    bindings,
  })
  expect(res.status).toBe(200)
  return res.body
}

const signIn = (email: string, password: string, bindings: Partial<Env> = {}) =>
  api('POST', '/auth/signin', { body: { email, password }, bindings })

describe('an address squatted before its owner proves it', () => {
  it('gives the squatter nothing of a bootstrap admin address once the owner proves it', async () => {
    const email = uniqueEmail('boot')
    const bindings: Partial<Env> = { BOOTSTRAP_ADMIN_EMAILS: email }
    // (1) The attacker signs up: role user.
    const attacker = await squat(email, bindings)
    expect(attacker.user.role).toBe('user')
    // (2) The owner proves the address with the mailed code, without the attacker's session.
    const owner = await proveBare(email, bindings)
    expect(owner.user).toMatchObject({ emailVerified: true, role: 'user' })
    expect(claimsOf(owner.accessToken).role).toBe('user')
    // (3) The attacker's password no longer signs in, and their refresh token is dead.
    const signin = await signIn(email, attacker.password, bindings)
    expect(signin.status).toBe(401)
    expect(signin.body.message).toBe('Invalid credentials')
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: attacker.refreshToken },
    })
    expect(refreshed.status).toBe(401)
    const stats = await api('GET', '/admin/stats', { token: attacker.accessToken, bindings })
    expect(stats.status).toBe(403)
    // The owner is signed in by the proof and sets a password with a reset, which grants the
    // bootstrap role: a reset proves the mailbox as the sign-up's session would have.
    expect((await api('GET', '/users/profile', { token: owner.accessToken })).status).toBe(200)
    await api('POST', '/auth/forgot-password', { body: { email }, bindings })
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    const reset = await api('POST', '/auth/reset-password', {
      body: { email, code: await lastCode(email), newPassword },
      bindings,
    })
    expect(reset.status).toBe(200)
    const ownerSignin = await signIn(email, newPassword, bindings)
    expect(ownerSignin.body.user.role).toBe('admin')
    expect(
      (await api('GET', '/admin/stats', { token: ownerSignin.body.accessToken, bindings })).status,
    ).toBe(200)
    expect((await signIn(email, attacker.password, bindings)).status).toBe(401)
  })

  it('gives the squatter nothing of an ordinary address either', async () => {
    const email = uniqueEmail('victim')
    const attacker = await squat(email)
    const owner = await proveBare(email)
    expect(owner.user.id).toBe(attacker.id)
    expect((await signIn(email, attacker.password)).status).toBe(401)
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: attacker.refreshToken },
    })
    expect(refreshed.status).toBe(401)
    // The owner's own session works, and a password reset gives them a password.
    const me = await api('GET', '/users/profile', { token: owner.accessToken })
    expect(me.body).toMatchObject({ id: attacker.id, emailVerified: true })
  })

  it('keeps everything for the honest user who sends the sign-up token with the code', async () => {
    const email = uniqueEmail('honest')
    const bindings: Partial<Env> = { BOOTSTRAP_ADMIN_EMAILS: email }
    const me = await createUser({ email, verified: false }, { bindings })
    const res = await api('POST', '/auth/verify-email', {
      body: { email, code: await lastCode(email) },
      token: me.accessToken,
      bindings,
    })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ role: 'admin', emailVerified: true })
    expect((await signIn(email, me.password, bindings)).status).toBe(200)
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken: me.refreshToken },
    })
    expect(refreshed.status).toBe(200)
  })

  it('counts a session of another account as no session: the proof is bare', async () => {
    const email = uniqueEmail('victim')
    const attacker = await squat(email)
    const bystander = await createUser()
    const res = await api('POST', '/auth/verify-email', {
      body: { email, code: await lastCode(email) },
      token: bystander.accessToken,
    })
    expect(res.status).toBe(200)
    expect((await signIn(email, attacker.password)).status).toBe(401)
  })

  it('refuses a code sent with an invalid access token rather than taking it as bare', async () => {
    const me = await createUser({ verified: false })
    const res = await api('POST', '/auth/verify-email', {
      body: { email: me.email, code: await lastCode(me.email) },
      token: `${me.accessToken}x`,
    })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    // Nothing happened: the password still signs in, the account is still unproven.
    const signin = await signIn(me.email, me.password)
    expect(signin.status).toBe(200)
    expect(signin.body.user.emailVerified).toBe(false)
  })
})

describe('an unproven account holds nothing to inherit', () => {
  const push = {
    endpoint: 'https://fcm.googleapis.com/fcm/send/squatter',
    expirationTime: null,
    keys: {
      p256dh:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    },
  }

  it.each([
    ['a calendar feed address', 'POST', '/users/calendar', undefined],
    ['a Telegram link', 'POST', '/users/telegram/link', undefined],
    [
      'a Discord webhook',
      'PUT',
      '/users/profile',
      {
        preferences: {
          discordWebhookUrl:
            'https://discord.com/api/webhooks/1100000000000000001/abcDEF_ghi-0123456789',
        },
      },
    ],
    ['a push subscription', 'POST', '/users/push-subscriptions', push],
  ])('refuses %s with 403 until the address is proven', async (_, method, path, body) => {
    const squatter = await createUser({ verified: false })
    // testEnv's bindings configure Telegram, so its link is refused for the account, not the bot.
    const res = await api(method, path, { token: squatter.accessToken, body, bindings: testEnv() })
    expect(res.status, JSON.stringify(res.body)).toBe(403)
    expect(res.body).toEqual({
      statusCode: 403,
      message: UNVERIFIED_CANNOT_ATTACH,
      error: 'Forbidden',
    })
  })

  it('refuses to send a WhatsApp code for a phone number until the address is proven', async () => {
    const squatter = await createUser({ verified: false })
    await api('PUT', '/users/profile', {
      token: squatter.accessToken,
      body: { phoneNumber: '+14155550123' },
    })
    const res = await api('POST', '/users/phone/verification', { token: squatter.accessToken })
    expect(res.status, JSON.stringify(res.body)).toBe(403)
    expect(res.body.message).toBe(UNVERIFIED_CANNOT_ATTACH)
  })

  it('detaches at a bare proof what an account made before this rule attached', async () => {
    const email = uniqueEmail('legacy')
    const squatter = await squat(email)
    // State only an older version of the service could have written: raw SQL stands in for it.
    await env.DB.batch([
      env.DB.prepare(
        `UPDATE users SET telegram_chat_id = '424242', notify_telegram = 1,
           discord_webhook_url = 'https://discord.com/api/webhooks/9/x', notify_discord = 1
         WHERE id = ?`,
      ).bind(squatter.id),
      env.DB.prepare(
        `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at, updated_at)
         VALUES (?1, ?2, 'https://fcm.googleapis.com/fcm/send/legacy', 'k', 'a', 0, 0)`,
      ).bind(`ps${squatter.id}`, squatter.id),
    ])
    await proveBare(email)
    const row = await env.DB.prepare(
      `SELECT telegram_chat_id, discord_webhook_url, notify_telegram, notify_discord,
         (SELECT count(*) FROM push_subscriptions WHERE user_id = users.id) AS browsers
       FROM users WHERE id = ?`,
    )
      .bind(squatter.id)
      .first()
    expect(row).toEqual({
      telegram_chat_id: null,
      discord_webhook_url: null,
      notify_telegram: 0,
      notify_discord: 0,
      browsers: 0,
    })
  })

  it('deletes an account nobody proved within 7 days, which frees the address', async () => {
    const early = await createUser({ verified: false })
    const proven = await createUser()
    const now = Date.now() + UNPROVEN_ACCOUNT_TTL_MS + 60_000
    const result = await cleanupJob(env, now)
    expect(result.unprovenAccountsRemoved).toBeGreaterThanOrEqual(1)
    const left = await env.DB.prepare('SELECT id FROM users WHERE id IN (?, ?)')
      .bind(early.id, proven.id)
      .all<{ id: string }>()
    expect(left.results.map((r) => r.id)).toEqual([proven.id])
    const again = await api('POST', '/auth/signup', {
      body: { email: early.email, password: uniquePassword(), name: 'The Owner' },
    })
    expect(again.status).toBe(201)
  })
})

describe('the verification mail', () => {
  it('quotes nothing the sign-up typed and says what to do for an account one did not make', async () => {
    const email = uniqueEmail('mail')
    const name = 'there,\n\nYour account was flagged. Confirm at https://evil.example/login now.'
    const refused = await api('POST', '/auth/signup', {
      body: { email, password: uniquePassword(), name },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toEqual(['Name must be one line without control characters'])

    await createUser({ email, name: 'Visit https://evil.example/login', verified: false })
    const { message } = await lastMailTo(email)
    expect(message.text).toMatch(/^Hello,\n/)
    expect(message.text).not.toContain('evil.example')
    expect(message.html).not.toContain('evil.example')
    expect(message.text).toContain('was just created with this email address')
    expect(message.text).toContain('If you did not create this account')
    expect(message.text).toContain('http://localhost:8787/app/forgot')
  })
})

describe('the web app', () => {
  it('asks a bare prover to choose a password, which locks the squatter out', async () => {
    const email = uniqueEmail('web')
    const attacker = await squat(email)
    const owner = new WebClient()
    const page = await owner.get('/app/verify')
    const proved = await owner.post(
      '/app/verify',
      { email, code: await lastCode(email) },
      { csrf: page.csrf },
    )
    expect(WebClient.location(proved)).toBe('/app/verify/password')
    const choose = await owner.get('/app/verify/password')
    expect(choose.status).toBe(200)
    expect((await selectOne(choose.html, 'h1')).text).toBe('Choose your password')
    const password = uniquePassword()
    rememberSecret(password)
    const set = await owner.post(
      '/app/verify/password',
      { newPassword: password },
      {
        csrf: choose.csrf,
      },
    )
    expect(WebClient.location(set)).toBe('/app/?notice=password-set')
    expect((await signIn(email, password)).status).toBe(200)
    expect((await signIn(email, attacker.password)).status).toBe(401)
    // Chosen once: the page has nothing more to ask.
    expect(WebClient.location(await owner.get('/app/verify/password'))).toBe('/app/')
  })

  it('keeps the password of a browser that proves its own sign-up', async () => {
    const client = new WebClient()
    const email = uniqueEmail('web')
    const password = uniquePassword()
    rememberSecret(password)
    await client.submit('/app/signup', '/app/signup', { name: 'Ada', email, password })
    const page = await client.get('/app/verify')
    const proved = await client.post(
      '/app/verify',
      { email, code: await lastCode(email) },
      { csrf: page.csrf },
    )
    expect(WebClient.location(proved)).toBe('/app/?notice=verified')
    expect((await signIn(email, password)).status).toBe(200)
  })
})
