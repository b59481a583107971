// A session that has ended ends its access tokens too, at once, on every route that reads or
// changes an account: the second outside review's finding (a squatter's sign-up token still
// writing after the owner's bare proof, a thief's after a reset or a sign-out everywhere).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { testEnv } from './helpers/notifications.ts'
import {
  api,
  createAdmin,
  createUser,
  lastCode,
  rememberSecret,
  uniqueEmail,
  uniquePassword,
  type TestUser,
} from './helpers/users.ts'

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' }

const PUSH = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/ended-session',
  expirationTime: null,
  keys: {
    p256dh:
      'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
}
const DISCORD = 'https://discord.com/api/webhooks/1100000000000000002/abcDEF_ghi-0123456789'

/** Requests that read or change an account: profile, destinations, feeds, communities, history. */
const ACCOUNT_REQUESTS: [string, string, unknown?][] = [
  ['GET', '/users/profile'],
  ['PUT', '/users/profile', { name: 'Mallory' }],
  ['PUT', '/users/profile', { preferences: { discordWebhookUrl: DISCORD } }],
  ['POST', '/users/telegram/link'],
  ['POST', '/users/push-subscriptions', PUSH],
  ['POST', '/users/calendar'],
  ['GET', '/users/contests/subscriptions'],
  ['GET', '/communities'],
  ['GET', '/notifications/notifications'],
]

/** Every account request answers 401 in the error shape to `token`. */
async function expectRefusedEverywhere(token: string) {
  for (const [method, path, body] of ACCOUNT_REQUESTS) {
    // testEnv configures Telegram, so a refusal of the link is the token's, not the bot's.
    const res = await api(method, path, { token, body, bindings: testEnv() })
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(401)
    expect(res.body).toEqual(UNAUTHORIZED)
  }
}

/** What the account has attached: a Discord webhook, push subscriptions, a Telegram link. */
async function attached(userId: string) {
  return env.DB.prepare(
    `SELECT discord_webhook_url AS discord,
       (SELECT count(*) FROM push_subscriptions WHERE user_id = users.id) AS browsers,
       (SELECT count(*) FROM telegram_links WHERE user_id = users.id) AS telegramLinks
     FROM users WHERE id = ?`,
  )
    .bind(userId)
    .first()
}

const profileStatus = async (token: string) =>
  (await api('GET', '/users/profile', { token })).status

/** A second sign-in of the account (the thief's, holding the password). */
async function signInAgain(user: TestUser) {
  const res = await api('POST', '/auth/signin', {
    body: { email: user.email, password: user.password },
  })
  expect(res.status).toBe(200)
  return res.body.accessToken as string
}

describe('an access token whose session has ended', () => {
  it('is refused on the profile and every destination route once the owner proves a squatted address bare', async () => {
    const email = uniqueEmail('victim')
    const squatter = await createUser({ email, verified: false, name: 'Mallory' })
    const proof = await api('POST', '/auth/verify-email', {
      body: { email, code: await lastCode(email) },
    })
    expect(proof.status).toBe(200)
    // The address is proven now: only the ended session stands between the squatter's token
    // and the owner's account.
    await expectRefusedEverywhere(squatter.accessToken)
    expect(await attached(squatter.id)).toEqual({ discord: null, browsers: 0, telegramLinks: 0 })
    // The owner's token, from the proof, works.
    const me = await api('GET', '/users/profile', { token: proof.body.accessToken })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: squatter.id, emailVerified: true })
  })

  it('is refused once a password reset ended every session, and the new sign-in works', async () => {
    const owner = await createUser()
    const thief = await signInAgain(owner)
    expect(await profileStatus(thief)).toBe(200)
    await api('POST', '/auth/forgot-password', { body: { email: owner.email } })
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    const reset = await api('POST', '/auth/reset-password', {
      body: { email: owner.email, code: await lastCode(owner.email), newPassword },
    })
    expect(reset.status).toBe(200)
    await expectRefusedEverywhere(thief)
    await expectRefusedEverywhere(owner.accessToken)
    const again = await signInAgain({ ...owner, password: newPassword })
    expect(await profileStatus(again)).toBe(200)
  })

  it('is refused once a sign-out everywhere ended every session, the caller’s too', async () => {
    const owner = await createUser()
    const thief = await signInAgain(owner)
    const res = await api('POST', '/user/sign-out-everywhere', { token: owner.accessToken })
    expect(res.status).toBe(200)
    await expectRefusedEverywhere(thief)
    await expectRefusedEverywhere(owner.accessToken)
  })

  it('is refused once a sign-out, a deletion or an admin’s revocation ended its session', async () => {
    const admin = await createAdmin()
    const ends: [string, (user: TestUser) => Promise<{ status: number }>][] = [
      ['sign-out', (user) => api('POST', '/auth/signout', { token: user.accessToken })],
      ['deletion', (user) => api('DELETE', '/user/delete-account', { token: user.accessToken })],
      [
        'admin revocation',
        (user) => api('DELETE', `/admin/users/${user.id}/sessions`, { token: admin.accessToken }),
      ],
    ]
    for (const [name, end] of ends) {
      const user = await createUser()
      expect(await profileStatus(user.accessToken), name).toBe(200)
      expect((await end(user)).status, name).toBe(200)
      const res = await api('PUT', '/users/profile', {
        token: user.accessToken,
        body: { name: 'Someone Else' },
      })
      expect(res.status, name).toBe(401)
      expect(await profileStatus(user.accessToken), name).toBe(401)
      // The second area's guard is the same one.
      const mine = await api('GET', '/resources/submissions/mine', { token: user.accessToken })
      expect(mine.body, name).toEqual(UNAUTHORIZED)
    }
  })
})

describe('an access token of a live session', () => {
  it('keeps working, and a password change keeps the caller’s session while ending the others', async () => {
    const owner = await createUser()
    const other = await signInAgain(owner)
    const newPassword = uniquePassword()
    rememberSecret(newPassword)
    const changed = await api('PATCH', '/auth/password', {
      token: owner.accessToken,
      body: { currentPassword: owner.password, newPassword },
    })
    expect(changed.status).toBe(200)
    expect(await profileStatus(owner.accessToken)).toBe(200)
    const put = await api('PUT', '/users/profile', {
      token: owner.accessToken,
      body: { preferences: { discordWebhookUrl: DISCORD } },
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(await profileStatus(other)).toBe(401)
  })
})
