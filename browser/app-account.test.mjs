// The signed-in web app's own pages in headless Chromium: an account made through the sign-up pages
// (its code from the local outbox) follows a contest from the home page's button, reads its
// notification history (an admin's bulk email put one there) and its account page; axe-core in
// both colour schemes, the CSP, a quiet console and a 375 px phone on every page; local times with
// the zone named; and, last, the account deleted through its page, which signs the browser out.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  callApi,
  inlineContent,
  overflowOf,
  sessionCookie,
  severeViolations,
  signIn,
  signUp,
  startWithAdmin,
  submit,
  uniqueEmail,
  uniquePassword,
  unexpectedConsoleErrors,
} from './app-helpers.mjs'
import { openPage } from './harness.mjs'

const ADMIN = { name: 'Grace Admin', email: uniqueEmail('admin'), password: uniquePassword() }
const PHONE = { width: 375, height: 812 }

let harness
let adminToken
/** The account the tests share, made through the pages by the first test. */
const account = { name: 'Ada Lovelace', email: uniqueEmail('ada'), password: uniquePassword() }
/** The contest it follows from the home page. */
let contestId

const apiCall = (method, path, options) => callApi(harness.base, method, path, options)

before(async () => ({ harness, adminToken } = await startWithAdmin(ADMIN)), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const appTest = appTestOf(() => harness)
const url = (path) => `${harness.base}${path}`

/** An admin's bulk email to the account: one notification in its history. */
async function notifyAccount() {
  const users = await apiCall('GET', '/users?limit=100', { token: adminToken })
  assert.equal(users.status, 200, JSON.stringify(users.body))
  const user = users.body.users.find((u) => u.email === account.email)
  assert.ok(user, 'the account is listed')
  const sent = await apiCall('POST', '/notifications/emails/bulk', {
    token: adminToken,
    body: { userIds: [user.id], subject: 'Welcome to Contest Alerts', html: '<p>Hello</p>' },
  })
  assert.equal(sent.status, 202, JSON.stringify(sent.body))
}

appTest(
  'sign up through the pages, follow a contest from the home page, read history and account',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser)
    try {
      await signUp(page, harness.base, account)
      await notifyAccount()

      // The home page's Follow button leads to the contest's page, which posts the choice.
      await page.goto(url('/'))
      const first = page.locator('#contests li.contest').first()
      const name = (await first.locator('.contest-link').textContent()).trim()
      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        first.getByRole('button', { name: `Follow ${name}` }).click(),
      ])
      const choice = new URL(page.url())
      assert.match(choice.pathname, /^\/app\/subscriptions\/[0-9a-f]{24}$/)
      assert.equal(choice.searchParams.get('mode'), 'follow')
      contestId = choice.pathname.split('/').at(-1)
      assert.equal(await page.locator('main h1').textContent(), `Follow ${name}?`)
      await submit(page, 'Follow this contest')
      assert.equal(new URL(page.url()).pathname, '/app/subscriptions')
      assert.match(await page.locator('#notice').textContent(), /Followed/)
      const item = page.locator(`#subscriptions li[data-contest-id="${contestId}"]`)
      assert.equal(await item.locator('h3').textContent(), name)
      assert.equal(await item.getAttribute('data-mode'), 'follow')

      // The history, from the header's link.
      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('link', { name: 'History' }).click(),
      ])
      const notification = page.locator('#notifications li.notification').first()
      assert.match(await notification.locator('h3').textContent(), /Welcome to Contest Alerts/)
      await submit(page, 'Mark all read')
      assert.match(await page.locator('#notice').textContent(), /marked as read/)
      assert.equal(await page.locator('#notifications .badge').count(), 0)

      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('link', { name: 'Account' }).click(),
      ])
      assert.match(await page.locator('#account-summary').textContent(), /is active/)
      assertQuiet(report, await cspViolations())
    } finally {
      await close()
    }
  },
)

/** Every page of this suite, as a person meets it (all signed in). */
const PAGES = [
  { path: '/app/history' },
  { path: '/app/history?status=LOST', label: 'history with a bad filter', status: 400 },
  { path: '/app/subscriptions' },
  { path: () => `/app/subscriptions/${contestId}?mode=mute`, label: 'a contest’s page' },
  { path: '/app/account' },
  {
    path: '/app/account',
    label: 'deletion with a wrong email',
    status: 400,
    act: async (page) => {
      await page.getByLabel('Email').fill('someone-else@example.test')
      await submit(page, 'Delete my account')
      await page.locator('#field-email-error').waitFor()
    },
  },
  { path: '/app/account/recover' },
  { path: '/app/account/closed?reason=deleted' },
  { path: '/app/no-such-page', label: 'the 404 page', status: 404 },
]

const pathOf = (entry) => (typeof entry.path === 'function' ? entry.path() : entry.path)

async function openAt(page, entry) {
  await page.goto(url(pathOf(entry)))
  if (entry.act) await entry.act(page)
}

for (const colorScheme of ['light', 'dark']) {
  appTest(
    `axe-core finds no serious or critical violations on each page (${colorScheme})`,
    async () => {
      const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
      try {
        await signIn(page, harness.base, account)
        for (const entry of PAGES) {
          await openAt(page, entry)
          const severe = await severeViolations(page)
          const name = entry.label ?? pathOf(entry)
          assert.deepEqual(severe, [], `${name}: ${JSON.stringify(severe, null, 2)}`)
        }
      } finally {
        await close()
      }
    },
  )
}

appTest(
  'every page loads under its strict CSP, fits a 375 px phone and keeps the console quiet',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser, {
      viewport: PHONE,
    })
    try {
      await signIn(page, harness.base, account)
      for (const entry of [...PAGES, { path: '/', label: 'the home page' }]) {
        await openAt(page, entry)
        const name = entry.label ?? pathOf(entry)
        assert.deepEqual(await inlineContent(page), { scripts: 0, styles: 0, handlers: [] }, name)
        assert.deepEqual(await cspViolations(), [], `${name}: CSP violations`)
        const overflow = await overflowOf(page)
        assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the phone`)
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

appTest('times show in the viewer’s zone, named, with the UTC text kept as the title', async () => {
  const { page, close } = await openPage(harness.browser, { timezoneId: 'Asia/Kolkata' })
  try {
    await signIn(page, harness.base, account)
    for (const path of ['/app/history', '/app/subscriptions']) {
      await page.goto(url(path))
      const time = page.locator('main time[datetime]').first()
      assert.match(await time.textContent(), /Kolkata|Calcutta|India|\bIST\b|GMT\+5:30/, path)
      assert.match(await time.getAttribute('title'), /UTC$/, path)
      assert.match(
        await page.locator('#zone-note').textContent(),
        /^Times are in your time zone, Kolkata\.$/,
        path,
      )
    }
  } finally {
    await close()
  }
})

appTest('deleting the account through its page signs the browser out', async () => {
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  try {
    await signIn(page, harness.base, account)
    await page.goto(url('/app/account'))
    await page.getByLabel('Email').fill(account.email)
    await submit(page, 'Delete my account')
    const landed = new URL(page.url())
    assert.equal(landed.pathname + landed.search, '/app/account/closed?reason=deleted')
    assert.equal(await page.locator('main h1').textContent(), 'Your account is deleted')
    assert.equal(await sessionCookie(page, harness.base), undefined)
    // Signed out: the header offers sign-in, and the app asks for it.
    await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor()
    await page.goto(url('/app/account'))
    assert.equal(new URL(page.url()).pathname, '/app/signin')
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})
