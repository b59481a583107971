// /app/account: deactivation and deletion behind their confirmation forms, each ending the web
// session; reactivation; recovery of a deleted account within 30 days (a new web session); the
// API's limits; and the web app's 404 page for addresses under /app that name no page.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../src/lib/time.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'
import {
  expectNotFoundPage,
  expectPage,
  expectRefused,
  formErrors,
  noticeOf,
  SESSION_COOKIE,
  signedInBrowser,
} from './helpers/web-app.ts'
import { WebClient } from './helpers/web.ts'

const userRow = (id: string) =>
  env.DB.prepare('SELECT is_active AS active, deleted_at AS deletedAt FROM users WHERE id = ?')
    .bind(id)
    .first<{ active: number; deletedAt: number | null }>()

const liveSessions = async (id: string) =>
  (await env.DB.prepare(
    'SELECT count(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL',
  )
    .bind(id)
    .first<{ n: number }>())!.n

async function expectSignedOut(browser: WebClient) {
  expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
  const page = await browser.get('/app/account')
  expect(page.status).toBe(303)
  expect(WebClient.location(page)).toBe(`/app/signin?next=${encodeURIComponent('/app/account')}`)
}

async function signedIn(): Promise<{ user: TestUser; browser: WebClient }> {
  const user = await createUser({ name: 'Ada Lovelace' })
  return { user, browser: await signedInBrowser(user) }
}

describe('the account page', () => {
  it('says what deactivation and deletion do, each behind its own confirmation form', async () => {
    const { user, browser } = await signedIn()
    const page = await browser.get('/app/account')
    expectPage(page, 200)
    expect((await selectOne(page.html, 'a[aria-current="page"]')).text).toBe('Account')
    expect((await selectOne(page.html, '#account-summary')).text).toContain(user.email)
    const deactivate = await selectOne(page.html, '#deactivate-form')
    expect(deactivate.attrs).toMatchObject({ method: 'post', action: '/app/account/deactivate' })
    expect(page.html).toMatch(/Everything else is kept/)
    const remove = await selectOne(page.html, '#delete-form')
    expect(remove.attrs).toMatchObject({ method: 'post', action: '/app/account/delete' })
    expect(page.html).toMatch(/For 30 days the account can still be restored/)
    expect((await selectOne(page.html, '#field-email-hint')).text).toBe(
      `Type ${user.email} to confirm.`,
    )
    for (const input of await select(page.html, 'main input:not([type="hidden"])')) {
      expect(await select(page.html, `label[for="${input.attrs.id}"]`)).toHaveLength(1)
    }
  })
})

describe('deactivation', () => {
  it('needs the box ticked, then deactivates, signs the browser out and can be undone', async () => {
    const { user, browser } = await signedIn()
    const page = await browser.get('/app/account')
    const unticked = await browser.post('/app/account/deactivate', {}, { csrf: page.csrf })
    expectPage(unticked, 400)
    expect((await selectOne(unticked.html, '#field-confirm-error')).text).toBe(
      'Tick the box to confirm',
    )
    expect((await userRow(user.id))!.active).toBe(1)

    const answer = await browser.post(
      '/app/account/deactivate',
      { confirm: 'yes' },
      { csrf: page.csrf },
    )
    expect(answer.status, answer.html).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/account/closed?reason=deactivated')
    // The API's limit for deactivation, counted for the user.
    expect(answer.res.headers.get('X-RateLimit-Limit')).toBe('5')
    expect((await userRow(user.id))!.active).toBe(0)
    await expectSignedOut(browser)
    const closed = await browser.get('/app/account/closed?reason=deactivated')
    expectPage(closed, 200)
    expect((await selectOne(closed.html, 'main h1')).text).toBe('Your account is deactivated')
    expect(await noticeOf(closed)).toBe('You are signed out of this browser.')
    // The account and its API session stay, as with the API's deactivation.
    expect((await api('GET', '/users/profile', { token: user.accessToken })).body.isActive).toBe(
      false,
    )

    // A deactivated account may sign in; its page offers reactivation.
    const again = await signedInBrowser(user)
    const deactivated = await again.get('/app/account')
    expect((await selectOne(deactivated.html, '#reactivate-heading')).text).toBe(
      'Your account is deactivated',
    )
    expect(await select(deactivated.html, '#deactivate-form')).toEqual([])
    const activated = await again.post('/app/account/activate', {}, { csrf: deactivated.csrf })
    expect(WebClient.location(activated)).toBe('/app/account?notice=reactivated')
    expect((await userRow(user.id))!.active).toBe(1)
    expect(await noticeOf(await again.get('/app/account?notice=reactivated'))).toMatch(
      /active again/,
    )
  })

  it('shares the API’s limit: 5 an hour per user, whichever way they are spent', async () => {
    const { user, browser } = await signedIn()
    for (let i = 0; i < 5; i++) {
      expect((await api('DELETE', '/users/profile', { token: user.accessToken })).status).toBe(200)
    }
    const page = await browser.get('/app/account')
    const refused = await browser.post(
      '/app/account/deactivate',
      { confirm: 'yes' },
      { csrf: page.csrf },
    )
    expectPage(refused, 429)
    expect(refused.res.headers.get('Retry-After')).toBeTruthy()
    expect((await selectOne(refused.html, 'h1')).text).toBe('Too many attempts')
    expect(browser.cookies.has(SESSION_COOKIE), 'still signed in').toBe(true)
  })
})

describe('deletion', () => {
  it('needs the account’s email typed, then deletes it, ends every session and signs out', async () => {
    const { user, browser } = await signedIn()
    const otherBrowser = await signedInBrowser(user)
    const page = await browser.get('/app/account')
    const wrong = await browser.post(
      '/app/account/delete',
      { email: 'someone@example.test' },
      { csrf: page.csrf },
    )
    expectPage(wrong, 400)
    expect((await selectOne(wrong.html, '#field-email-error')).text).toBe(
      'This is not the email address of this account.',
    )
    const invalid = await browser.post(
      '/app/account/delete',
      { email: 'nope' },
      { csrf: page.csrf },
    )
    expectPage(invalid, 400)
    expect((await selectOne(invalid.html, '#field-email-error')).text).toBe(
      'Email must be an email',
    )
    expect((await userRow(user.id))!.deletedAt).toBeNull()

    const answer = await browser.post(
      '/app/account/delete',
      { email: `  ${user.email.toUpperCase()} ` },
      { csrf: page.csrf },
    )
    expect(answer.status, answer.html).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/account/closed?reason=deleted')
    expect(answer.res.headers.get('X-RateLimit-Limit')).toBe('5')
    expect((await userRow(user.id))!.deletedAt).not.toBeNull()
    expect(await liveSessions(user.id)).toBe(0)
    await expectSignedOut(browser)
    expect((await otherBrowser.get('/app/account')).status, 'the other browser too').toBe(303)
    const closed = await browser.get('/app/account/closed?reason=deleted')
    expect((await selectOne(closed.html, 'main h1')).text).toBe('Your account is deleted')
    expect((await selectOne(closed.html, 'main a[href="/app/account/recover"]')).text).toBe(
      'Recover your account',
    )
    // Signing in no longer works; the sign-in page says nothing about why.
    const signin = await new WebClient().submit('/app/signin', '/app/signin', {
      email: user.email,
      password: user.password,
    })
    expect(signin.status).toBe(401)
  })

  it('refuses a form without its CSRF token (403), deleting nothing', async () => {
    const { user, browser } = await signedIn()
    await expectRefused(await browser.post('/app/account/delete', { email: user.email }))
    await expectRefused(await browser.post('/app/account/deactivate', { confirm: 'yes' }))
    const row = await userRow(user.id)
    expect(row).toEqual({ active: 1, deletedAt: null })
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
  })

  it('is recovered within 30 days with email and password, signing this browser in', async () => {
    const { user, browser } = await signedIn()
    const page = await browser.get('/app/account')
    await browser.post('/app/account/delete', { email: user.email }, { csrf: page.csrf })

    const recover = new WebClient()
    const form = await recover.get('/app/account/recover')
    expectPage(form, 200)
    const wrong = await recover.post(
      '/app/account/recover',
      { email: user.email, password: 'not the password' },
      { csrf: form.csrf },
    )
    expectPage(wrong, 401)
    expect(await formErrors(wrong)).toEqual(['The email or password is not right.'])
    const answer = await recover.post(
      '/app/account/recover',
      { email: user.email, password: user.password },
      { csrf: form.csrf },
    )
    expect(WebClient.location(answer)).toBe('/app/account?notice=recovered')
    expect((await userRow(user.id))!.deletedAt).toBeNull()
    const account = await recover.get('/app/account?notice=recovered')
    expectPage(account, 200)
    expect(await noticeOf(account)).toBe('Your account is restored and you are signed in.')
    const kind = await env.DB.prepare(
      'SELECT kind FROM sessions WHERE user_id = ? AND revoked_at IS NULL',
    )
      .bind(user.id)
      .all<{ kind: string }>()
    expect(kind.results.map((r) => r.kind)).toEqual(['web'])

    // Not deleted any more: 409; deleted over 30 days ago: 404.
    const again = await recover.post(
      '/app/account/recover',
      { email: user.email, password: user.password },
      { csrf: account.csrf },
    )
    expectPage(again, 409)
    expect(await formErrors(again)).toEqual(['This account is not deleted: sign in instead.'])
    await env.DB.prepare('UPDATE users SET deleted_at = ? WHERE id = ?')
      .bind(Date.now() - 31 * DAY_MS, user.id)
      .run()
    const late = await new WebClient().submit('/app/account/recover', '/app/account/recover', {
      email: user.email,
      password: user.password,
    })
    expectPage(late, 404)
    expect(await formErrors(late)).toEqual([
      'The 30 days are over: this account can no longer be recovered.',
    ])
  })
})

describe('the 404 page', () => {
  it('answers an unknown address under /app in HTML, signed in or not, for any method', async () => {
    const anonymous = new WebClient()
    const page = await anonymous.get('/app/no-such-page')
    await expectNotFoundPage(page, /There is no page at \/app\/no-such-page/)
    expect((await select(page.html, 'main .next-steps a')).map((a) => a.attrs.href)).toEqual([
      '/app/signin',
      '/',
    ])

    const { browser } = await signedIn()
    const signedInPage = await browser.get('/app/history/nothing/here')
    await expectNotFoundPage(signedInPage)
    expect(await select(signedInPage.html, 'form.signout')).toHaveLength(1)
    const posted = await browser.post('/app/nowhere', {}, { csrf: signedInPage.csrf })
    await expectNotFoundPage(posted)
    await expectNotFoundPage(await browser.get('/app/account/closed?reason=other'))
    // The pages before it still answer, and the API's own 404 is unchanged.
    expectPage(await browser.get('/app/'), 200)
    expectPage(await browser.get('/app/account'), 200)
    const api404 = await anonymous.fetch('/nowhere')
    expect(api404.status).toBe(404)
    expect(api404.headers.get('Content-Type')).toMatch(/^application\/json/)
  })
})
