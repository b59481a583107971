// The test send and the delivery log in headless Chromium: the settings page's "Send a test by
// Email" button sends one message (to the local outbox) and says what came of it; the history
// page shows each channel's attempts with the provider's words and the time from due to sent, and
// its channel filter, with and without JavaScript; axe-core (light and dark) and no sideways
// scrolling at a phone's width on both pages.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  callApi,
  overflowOf,
  severeViolations,
  signIn,
  signUp,
  startWithAdmin,
  submit,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage } from './harness.mjs'

const ADMIN = { name: 'Grace Admin', email: uniqueEmail('log-admin'), password: uniquePassword() }
const PHONE = { width: 375, height: 812 }
const TEST_SUBJECT = 'Contest Alerts test message'

let harness
let adminToken
const account = { name: 'Ada Lovelace', email: uniqueEmail('log'), password: uniquePassword() }
let signedUp = false

const apiCall = (method, path, options) => callApi(harness.base, method, path, options)

before(async () => ({ harness, adminToken } = await startWithAdmin(ADMIN)), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const appTest = appTestOf(() => harness)
const url = (path) => `${harness.base}${path}`

/** A page signed in as the account (made through the sign-up pages the first time). */
async function signedInPage(options = {}) {
  const opened = await openPage(harness.browser, options)
  if (signedUp) {
    await signIn(opened.page, harness.base, account)
  } else {
    await signUp(opened.page, harness.base, account)
    signedUp = true
  }
  return opened
}

const testMails = async () => {
  const { messages } = await (await fetch(url('/dev/outbox'))).json()
  return messages.filter((m) => m.subject === TEST_SUBJECT && [m.to].flat().includes(account.email))
}

/** An admin's bulk email to the account, and the wait until its attempt is in the history. */
let notified
async function notifyAccount() {
  if (notified) return
  const users = await apiCall('GET', '/users?limit=100', { token: adminToken })
  const user = users.body.users.find((u) => u.email === account.email)
  assert.ok(user, 'the account is listed')
  const sent = await apiCall('POST', '/notifications/emails/bulk', {
    token: adminToken,
    body: { userIds: [user.id], subject: 'Welcome to Contest Alerts', html: '<p>Hello</p>' },
  })
  assert.equal(sent.status, 202, JSON.stringify(sent.body))
  const signin = await apiCall('POST', '/auth/signin', {
    body: { email: account.email, password: account.password },
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    const list = await apiCall('GET', '/notifications/notifications', {
      token: signin.body.accessToken,
    })
    const email = list.body.notifications?.[0]?.deliveryStatus.find((d) => d.channel === 'email')
    if (email?.attempts.length) break
    assert.ok(Date.now() < deadline, `the delivery's attempt is logged: ${JSON.stringify(email)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  notified = true
}

appTest('the settings page’s test button sends one email and says what came of it', async () => {
  const { page, report, cspViolations, close } = await signedInPage()
  try {
    await page.goto(url('/app/settings#channels'))
    const button = page.getByRole('button', { name: 'Send a test by Email', exact: true })
    assert.equal(await button.count(), 1)
    // No destination on Telegram, Discord or Slack yet: no button that could only be refused.
    assert.equal(await page.getByRole('button', { name: 'Send a test by Discord' }).count(), 0)
    const response = await submit(page, 'Send a test by Email')
    assert.equal(response.status(), 200)
    assert.equal(
      await page.locator('#channels #notice').textContent(),
      'Test result: Email: accepted by Resend for delivery.',
    )
    assert.equal((await testMails()).length, 1)
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

appTest(
  'the history shows each attempt, the time from due to sent, and filters by channel',
  async () => {
    await notifyAccount()
    const { page, report, cspViolations, close } = await signedInPage()
    try {
      await page.goto(url('/app/history'))
      const email = page
        .locator('#notifications li.notification')
        .first()
        .locator('li[data-channel="email"]')
      assert.match(await email.textContent(), /Sent, .+ after it was due/)
      const attempts = email.locator('ol.attempts li')
      assert.equal(await attempts.count(), 1)
      assert.match(await attempts.first().textContent(), /Email: accepted by Resend for delivery$/)
      assert.equal(await attempts.first().getAttribute('data-outcome'), 'delivered')

      await page.getByLabel('Channel', { exact: true }).selectOption('telegram')
      await submit(page, 'Show')
      assert.equal(new URL(page.url()).searchParams.get('channel'), 'telegram')
      assert.equal(await page.locator('#count').textContent(), '0 matching notifications')
      await page.getByLabel('Channel', { exact: true }).selectOption('email')
      await submit(page, 'Show')
      assert.equal(await page.locator('#count').textContent(), '1 matching notification')
      assertQuiet(report, await cspViolations())
    } finally {
      await close()
    }
  },
)

appTest('the log and its filters work without JavaScript', async () => {
  await notifyAccount()
  const { page, close } = await signedInPage({ javaScriptEnabled: false })
  try {
    await page.goto(url('/app/history'))
    await page.getByLabel('Status', { exact: true }).selectOption('SENT')
    await page.getByLabel('Channel', { exact: true }).selectOption('email')
    await submit(page, 'Show')
    const params = new URL(page.url()).searchParams
    assert.equal(params.get('channel'), 'email')
    assert.equal(params.get('status'), 'SENT')
    assert.equal(await page.locator('#count').textContent(), '1 matching notification')
    assert.match(
      await page.locator('ol.attempts li').first().textContent(),
      /Email: accepted by Resend for delivery$/,
    )
    // The test button is a plain form too.
    await page.goto(url('/app/settings'))
    await submit(page, 'Send a test by Email')
    assert.equal(
      await page.locator('#channels #notice').textContent(),
      'Test result: Email: accepted by Resend for delivery.',
    )
  } finally {
    await close()
  }
})

for (const colorScheme of ['light', 'dark']) {
  appTest(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    await notifyAccount()
    const { page, close } = await signedInPage({ colorScheme, bypassCSP: true })
    try {
      await page.goto(url('/app/history'))
      assert.deepEqual(await severeViolations(page), [], 'the history with its log')
      await page.goto(url('/app/history?channel=email&status=SENT'))
      assert.deepEqual(await severeViolations(page), [], 'the filtered history')
      await page.goto(url('/app/settings'))
      assert.deepEqual(await severeViolations(page), [], 'the settings with the test buttons')
    } finally {
      await close()
    }
  })
}

appTest('both pages fit a phone’s width without sideways scrolling', async () => {
  await notifyAccount()
  const { page, close } = await signedInPage({ viewport: PHONE, isMobile: true, hasTouch: true })
  try {
    for (const path of ['/app/history', '/app/history?channel=email', '/app/settings#channels']) {
      await page.goto(url(path))
      await page.waitForLoadState('networkidle')
      const overflow = await overflowOf(page)
      assert.ok(overflow <= 0, `${path}: the page is ${overflow}px wider than the viewport`)
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((el) => el.id || el.className || el.tagName),
      )
      assert.deepEqual(wide, [], `${path}: elements wider than the screen`)
    }
  } finally {
    await close()
  }
})
