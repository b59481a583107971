// The web app's account pages in headless Chromium: sign-up, the emailed code (read from the local
// outbox) and the signed-in page; the session cookie out of scripts' reach; a form without its
// CSRF token, or posted from another site, refused; Sign in with Google against a stand-in; and
// axe-core, the CSP and a quiet console on every page.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  codeFromOutbox,
  inlineContent,
  sessionCookie as sessionCookieAt,
  severeViolations,
  signIn as signInAt,
  submit,
  uniqueEmail,
  unexpectedConsoleErrors,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

let harness
/** An account made through the API, for the tests that only need to sign in. */
let account

before(
  async () => {
    harness = await startHarness({ outbox: true, google: true })
    account = { name: 'Ada Lovelace', email: uniqueEmail('ada'), password: `pw-${randomUUID()}` }
    const res = await fetch(`${harness.base}/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(account),
    })
    assert.equal(res.status, 201, await res.text())
  },
  { timeout: 150_000 },
)
after(async () => harness?.stop(), { timeout: 30_000 })

const appTest = appTestOf(() => harness)
const signIn = (page, who) => signInAt(page, harness.base, who)
const sessionCookie = (page) => sessionCookieAt(page, harness.base)

appTest(
  'sign up, verify with the emailed code, and be signed in with an HttpOnly cookie',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser)
    try {
      const email = uniqueEmail('web')
      await page.goto(`${harness.base}/app/signup`)
      await page.getByLabel('Name').fill('Grace Hopper')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(`pw-${randomUUID()}`)
      await submit(page, 'Create account')
      assert.equal(new URL(page.url()).pathname, '/app/verify')
      assert.match(await page.locator('#notice').textContent(), /emailed you a 6-digit code/)
      assert.equal(await page.getByLabel('Email').inputValue(), email)

      await page.getByLabel('Code').fill(await codeFromOutbox(harness.base, email))
      await submit(page, 'Verify')
      assert.equal(new URL(page.url()).pathname, '/app/')
      assert.match(await page.locator('#signed-in-as').textContent(), /Grace Hopper/)
      assert.match(await page.locator('#signed-in-as').textContent(), new RegExp(email))

      // The session is out of every script's reach, and the cookie says so itself.
      assert.equal(await page.evaluate(() => document.cookie), '')
      const cookie = await sessionCookie(page)
      assert.ok(cookie, 'the browser holds __Host-session')
      assert.equal(cookie.httpOnly, true)
      assert.equal(cookie.secure, true)
      assert.equal(cookie.sameSite, 'Lax')
      assert.equal(cookie.path, '/')
      assertQuiet(report, await cspViolations())

      // Sign out from the header: back to the sign-in page, and the app asks to sign in again.
      await submit(page, 'Sign out')
      assert.match(await page.locator('#notice').textContent(), /signed out/)
      await page.goto(`${harness.base}/app/`)
      assert.equal(new URL(page.url()).pathname, '/app/signin')
      assert.equal(await sessionCookie(page), undefined)
    } finally {
      await close()
    }
  },
)

appTest(
  'a form without its CSRF token, or posted from another site, is refused (403)',
  async () => {
    const { page, close } = await openPage(harness.browser)
    try {
      await signIn(page, account)
      // The sign-out form of the header, stripped of its token.
      await page.evaluate(() => document.querySelector('form.signout input[name="_csrf"]').remove())
      const refused = await submit(page, 'Sign out')
      assert.equal(refused.status(), 403)
      assert.equal(await page.locator('h1').textContent(), 'This form was refused')

      // Another site's page that posts to us, with a token it somehow learned: still refused.
      await page.goto(`${harness.base}/app/`)
      const token = await page.locator('meta[name="csrf-token"]').getAttribute('content')
      await page.context().route('http://evil.test/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>Win a prize</title><form method="post" action="${harness.base}/app/signout"><input type="hidden" name="_csrf" value="${token}"><button>Claim</button></form>`,
        }),
      )
      await page.goto('http://evil.test/')
      const crossSite = await submit(page, 'Claim')
      assert.equal(crossSite.status(), 403)

      await page.goto(`${harness.base}/app/`)
      assert.equal(new URL(page.url()).pathname, '/app/', 'still signed in')
    } finally {
      await close()
    }
  },
)

appTest('Sign in with Google against the stand-in signs the browser in', async () => {
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  try {
    const email = uniqueEmail('google')
    await harness.google.script({
      sub: String(Date.now()),
      email,
      email_verified: true,
      name: 'Katherine Johnson',
    })
    await page.goto(`${harness.base}/app/signin`)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/app/' && url.origin === harness.base),
      page.getByRole('link', { name: 'Sign in with Google' }).click(),
    ])
    assert.match(await page.locator('#notice').textContent(), /Signed in with Google/)
    assert.match(await page.locator('#signed-in-as').textContent(), new RegExp(email))
    assert.equal((await sessionCookie(page))?.httpOnly, true)
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

/** Every page of the account flow, as a person meets it; `signedIn` pages need the account. */
const PAGES = [
  { path: '/app/signup' },
  { path: '/app/signin' },
  { path: '/app/verify' },
  { path: '/app/forgot' },
  { path: '/app/reset' },
  {
    path: '/app/signin',
    label: 'sign-in with an error',
    status: 401,
    act: async (page) => {
      await page.getByLabel('Email').fill(account.email)
      await page.getByLabel('Password').fill('not the password')
      await submit(page, 'Sign in')
      await page.locator('#form-errors').waitFor()
    },
  },
  {
    path: '/app/signup',
    label: 'sign-up with field errors',
    status: 400,
    act: async (page) => {
      await page.getByLabel('Email').fill('not-an-email')
      await submit(page, 'Create account')
      await page.locator('#field-email-error').waitFor()
    },
  },
  {
    path: '/app/forgot',
    label: 'a refused form',
    status: 403,
    act: async (page) => {
      await page.evaluate(() => document.querySelector('input[name="_csrf"]').remove())
      await page.getByLabel('Email').fill(account.email)
      await submit(page, 'Email me a code')
      await page.getByRole('heading', { name: 'This form was refused' }).waitFor()
    },
  },
  { path: '/app/', signedIn: true },
]

async function openAt(page, { path, signedIn, act }) {
  if (signedIn) await signIn(page, account)
  await page.goto(`${harness.base}${path}`)
  if (act) await act(page)
}

for (const colorScheme of ['light', 'dark']) {
  appTest(
    `axe-core finds no serious or critical violations on each page (${colorScheme})`,
    async () => {
      // axe is injected as an inline script, which the pages' CSP refuses: this context alone
      // bypasses it (the CSP is judged in the next test).
      const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
      try {
        for (const entry of PAGES) {
          await openAt(page, entry)
          const severe = await severeViolations(page)
          assert.deepEqual(
            severe,
            [],
            `${entry.label ?? entry.path}: ${JSON.stringify(severe, null, 2)}`,
          )
        }
      } finally {
        await close()
      }
    },
  )
}

appTest(
  'every page loads under its strict CSP with same-origin scripts and a quiet console',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser)
    try {
      for (const entry of PAGES) {
        await openAt(page, entry)
        const name = entry.label ?? entry.path
        const inline = await inlineContent(page)
        assert.deepEqual(inline, { scripts: 0, styles: 0, handlers: [] }, name)
        assert.deepEqual(await cspViolations(), [], `${name}: CSP violations`)
      }
      const origin = new URL(harness.base).origin
      for (const src of report.scripts) assert.equal(new URL(src).origin, origin, src)
      const statuses = PAGES.filter((p) => p.status).map((p) => p.status)
      assert.deepEqual(unexpectedConsoleErrors(report, statuses), [], 'console errors')
      assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
    } finally {
      await close()
    }
  },
)
