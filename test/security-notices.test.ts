// The emails that tell an account's owner of a change: a new password (changed or reset, in the
// API and the web app) and a deleted account (with until when it can be recovered). Sent after the
// change is stored; a provider failure neither fails nor undoes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { securityNoticeEmail } from '../src/auth/security-notices.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { standIn } from './helpers/stand-in.ts'
import {
  api,
  createUser,
  lastCode,
  lastMailTo,
  mailCountTo,
  uniquePassword,
  type TestUser,
} from './helpers/users.ts'
import { signedInBrowser } from './helpers/web-app.ts'
import { WebClient } from './helpers/web.ts'

// The stand-in's scripts outlive a test; every test here starts and leaves it plain.
beforeEach(() => standIn.reset())
afterEach(() => standIn.reset())

const PASSWORD_CHANGED = 'Your Contest Alerts password was changed'
const ACCOUNT_DELETED = 'Your Contest Alerts account was deleted'

/** The newest mail to the user: its subject and text, checked to carry no password. */
async function noticeTo(user: TestUser, ...passwords: string[]) {
  const { message } = await lastMailTo(user.email)
  for (const secret of [user.password, ...passwords]) {
    expect(message.text).not.toContain(secret)
    expect(message.html).not.toContain(secret)
  }
  return message as { subject: string; text: string; html: string }
}

const changePassword = (user: TestUser, newPassword: string) =>
  api('PATCH', '/auth/password', {
    token: user.accessToken,
    body: { currentPassword: user.password, newPassword },
  })

describe('a new password', () => {
  it('changed through the API is told to the owner, with where to reset it', async () => {
    const user = await createUser({ name: 'Ada Lovelace' })
    const newPassword = uniquePassword()
    expect((await changePassword(user, newPassword)).status).toBe(200)
    const notice = await noticeTo(user, newPassword)
    expect(notice.subject).toBe(PASSWORD_CHANGED)
    expect(notice.text).toMatch(/^Hello Ada Lovelace,/)
    expect(notice.text).toMatch(/changed on \d{4}-\d\d-\d\d \d\d:\d\d UTC/)
    expect(notice.text).toContain('http://localhost:8787/app/forgot')
  })

  it('reset with a mailed code, in the API or the web app, is told too', async () => {
    const user = await createUser()
    await api('POST', '/auth/forgot-password', { body: { email: user.email } })
    const newPassword = uniquePassword()
    const reset = await api('POST', '/auth/reset-password', {
      body: { email: user.email, code: await lastCode(user.email), newPassword },
    })
    expect(reset.status).toBe(200)
    expect((await noticeTo(user, newPassword)).subject).toBe(PASSWORD_CHANGED)

    const client = new WebClient()
    const sent = await client.submit('/app/forgot', '/app/forgot', { email: user.email })
    const again = uniquePassword()
    const done = await client.post(
      '/app/reset',
      { email: user.email, code: await lastCode(user.email), newPassword: again },
      { csrf: sent.csrf },
    )
    expect(done.status).toBe(303)
    expect((await noticeTo(user, newPassword, again)).subject).toBe(PASSWORD_CHANGED)
  })

  it('a refused change mails nothing', async () => {
    const user = await createUser()
    const before = await mailCountTo(user.email)
    const wrong = await api('PATCH', '/auth/password', {
      token: user.accessToken,
      body: { currentPassword: 'not-the-password-1', newPassword: uniquePassword() },
    })
    expect(wrong.status).toBe(400)
    expect(await mailCountTo(user.email)).toBe(before)
  })

  it('stands when the provider fails to send the notice', async () => {
    const user = await createUser()
    await standIn.script({ pathPrefix: '/resend/emails', responses: [{ status: 500 }] })
    const newPassword = uniquePassword()
    expect((await changePassword(user, newPassword)).status).toBe(200)
    const signin = await api('POST', '/auth/signin', {
      body: { email: user.email, password: newPassword },
    })
    expect(signin.status).toBe(200)
  })
})

describe('a deleted account', () => {
  it('deleted through the API is told to the owner, with until when to recover it', async () => {
    const user = await createUser()
    const res = await api('DELETE', '/user/delete-account', { token: user.accessToken })
    expect(res.status).toBe(200)
    const notice = await noticeTo(user)
    expect(notice.subject).toBe(ACCOUNT_DELETED)
    const until = new Date(res.body.recoverable_until).toISOString().slice(0, 16).replace('T', ' ')
    expect(notice.text).toContain(`until ${until} UTC`)
    expect(notice.text).toContain('http://localhost:8787/app/account/recover')
  })

  it('deleted in the web app is told too', async () => {
    const user = await createUser()
    const browser = await signedInBrowser(user)
    const page = await browser.get('/app/account')
    const answer = await browser.post(
      '/app/account/delete',
      { email: user.email },
      { csrf: page.csrf },
    )
    expect(answer.status).toBe(303)
    expect((await noticeTo(user)).subject).toBe(ACCOUNT_DELETED)
  })
})

describe('the notice', () => {
  it('escapes the name in HTML and links from APP_URL', () => {
    const at = Date.UTC(2026, 10, 23, 20, 51)
    const email = securityNoticeEmail(
      { kind: 'account-deleted', recoverableUntil: at + 30 * DAY_MS },
      { email: 'eve@example.test', name: '<b>Eve</b>', proven: true },
      at,
      'https://alerts.example/',
    )
    expect(email.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,')
    expect(email.text).toContain('deleted on 2026-11-23 20:51 UTC')
    expect(email.text).toContain(
      'until 2026-12-23 20:51 UTC at https://alerts.example/app/account/recover',
    )
  })

  it('quotes no name to an address nobody has proven', () => {
    const email = securityNoticeEmail(
      { kind: 'password-changed', destinations: undefined },
      {
        email: 'eve@example.test',
        name: 'there,\n\nConfirm at https://evil.example',
        proven: false,
      },
      Date.UTC(2026, 10, 23, 20, 51),
      'https://alerts.example',
    )
    expect(email.text).toMatch(/^Hello,\n/)
    // Destinations that could not be listed send the owner to the account page instead.
    expect(email.text).toContain('could not be listed just now')
    expect(email.text).toContain('https://alerts.example/app/account.')
    expect(email.text).not.toContain('evil.example')
    expect(email.html).not.toContain('evil.example')
  })
})
