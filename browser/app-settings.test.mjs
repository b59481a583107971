// The settings page (/app/settings) in headless Chromium: an account made through the sign-up
// pages (the code read from the local outbox) changes its reminder times, quiet hours and a filter
// with the page's own forms, and sees them stored (the page reloaded, and the API's profile); the
// push toggle is there and speaks; axe-core in light and dark, the CSP and a quiet console; a
// phone's width without sideways scrolling; and the screenshots in docs/screenshots/.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  inlineContent,
  overflowOf,
  saveScreenshot,
  severeViolations,
  signIn,
  signUp,
  submit,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

let harness
before(async () => (harness = await startHarness({ outbox: true })), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const appTest = appTestOf(() => harness)
const settingsUrl = () => `${harness.base}/app/settings`

/** The account the tests share, made through the pages by the first test. */
const account = { name: 'Ada Lovelace', email: uniqueEmail('settings'), password: uniquePassword() }
let signedUp = false

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

/** The account's preferences as the API answers them. */
async function storedPreferences() {
  const signin = await fetch(`${harness.base}/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  })
  assert.equal(signin.status, 200, await signin.clone().text())
  const { accessToken } = await signin.json()
  const profile = await fetch(`${harness.base}/users/profile`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  assert.equal(profile.status, 200)
  return (await profile.json()).preferences
}

/** The reminder rows as the page shows them: [amount, unit] of each filled row. */
async function reminderRows(page) {
  const rows = []
  for (let row = 1; row <= 5; row++) {
    const amount = await page.getByLabel(`Reminder ${row}`, { exact: true }).inputValue()
    const unit = await page.getByLabel(`Unit of reminder ${row}`, { exact: true }).inputValue()
    if (amount) rows.push([amount, unit])
  }
  return rows
}

/** The form's save: back to the settings page at the section, which says so. */
async function saveAndCheck(page, button, section, notice) {
  const response = await submit(page, button)
  assert.equal(response.status(), 200)
  const url = new URL(page.url())
  assert.equal(url.pathname, '/app/settings')
  assert.equal(url.hash, `#${section}`)
  assert.match(await page.locator(`#${section} #notice`).textContent(), notice)
}

appTest('change the reminder times with the form and see them stored', async () => {
  const { page, report, cspViolations, close } = await signedInPage()
  try {
    await page.goto(settingsUrl())
    assert.equal(await page.locator('h1').textContent(), 'Settings')
    assert.deepEqual(await reminderRows(page), [['1', 'days']])

    await page.getByLabel('Reminder 2', { exact: true }).fill('2')
    await page.getByLabel('Unit of reminder 2', { exact: true }).selectOption('hours')
    await page.getByLabel('Reminder 3', { exact: true }).fill('15')
    await page.getByLabel('Unit of reminder 3', { exact: true }).selectOption('minutes')
    await saveAndCheck(page, 'Save reminder times', 'lead-times', /reminder times are saved/)

    // Reloaded from the server, and read back through the API: stored in minutes, longest first.
    await page.reload()
    assert.deepEqual(await reminderRows(page), [
      ['1', 'days'],
      ['2', 'hours'],
      ['15', 'minutes'],
    ])
    assert.equal(
      await page.locator('#lead-times-now').textContent(),
      'Now: 1 day, 2 hours, 15 minutes before each contest starts.',
    )
    const prefs = await storedPreferences()
    assert.deepEqual(prefs.leadTimes, [1440, 120, 15])
    assert.equal(prefs.notifyBefore, 24)

    // A time out of bounds comes back next to its row, with nothing stored.
    await page.getByLabel('Reminder 3', { exact: true }).fill('2')
    const refused = await submit(page, 'Save reminder times')
    assert.equal(refused.status(), 400)
    const error = page.locator('#field-leadAmount3-error')
    assert.match(await error.textContent(), /between 5 minutes and 7 days/)
    assert.equal(
      await page.getByLabel('Reminder 3', { exact: true }).getAttribute('aria-invalid'),
      'true',
    )
    assert.deepEqual((await storedPreferences()).leadTimes, [1440, 120, 15])
    // The 400 document is the one console line, the status working as meant.
    assert.deepEqual(
      report.consoleErrors.filter((e) => !/status of 400/.test(e)),
      [],
      'console errors',
    )
    assert.deepEqual(await cspViolations(), [], 'CSP violations')
    assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
  } finally {
    await close()
  }
})

appTest('set quiet hours and a filter, stored as the API reads them', async () => {
  const { page, report, cspViolations, close } = await signedInPage()
  try {
    await page.goto(settingsUrl())
    await page.getByLabel('Hold reminders during quiet hours').check()
    await page.getByLabel('From', { exact: true }).fill('22:30')
    await page.getByLabel('Until', { exact: true }).fill('06:45')
    await saveAndCheck(page, 'Save quiet hours', 'quiet-hours', /quiet hours are saved/)
    assert.match(await page.locator('#quiet-hours-now').textContent(), /from 22:30 until 06:45/)

    await page.getByLabel('Shortest', { exact: true }).fill('30')
    await page.getByLabel('Unit of shortest', { exact: true }).selectOption('minutes')
    await page.getByLabel('Leave out names with').fill('Unrated, Kotlin')
    await saveAndCheck(page, 'Save filters', 'noise-filters', /filters are saved/)
    assert.equal(await page.getByLabel('Leave out names with').inputValue(), 'unrated, kotlin')

    const prefs = await storedPreferences()
    assert.deepEqual(prefs.quietHours, { start: '22:30', end: '06:45' })
    assert.deepEqual(prefs.filters, {
      minDuration: 30,
      maxDuration: null,
      excludeWords: ['unrated', 'kotlin'],
    })
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

appTest('the push toggle is there, and says push is not available on this server', async () => {
  const { page, report, cspViolations, close } = await signedInPage()
  try {
    await page.context().grantPermissions(['notifications'], { origin: harness.base })
    await page.goto(settingsUrl())
    const toggle = page.getByRole('button', { name: 'Push notifications in this browser' })
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false')
    assert.equal(await toggle.getAttribute('data-subscribe-url'), '/app/settings/push/subscribe')
    assert.ok(await page.getByRole('button', { name: 'Send a test push' }).isVisible())
    const status = page.locator('#push-status')
    // The harness's service has no VAPID keys: said before a click, and again after one.
    assert.equal(await status.textContent(), 'Push notifications are not available on this server.')
    await toggle.click()
    await page.waitForFunction(
      () => document.getElementById('push-status').textContent !== 'Working…',
    )
    assert.equal(await status.textContent(), 'Push notifications are not available on this server.')
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false')
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

for (const colorScheme of ['light', 'dark']) {
  appTest(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    // axe is injected as an inline script: this context alone bypasses the CSP (judged below).
    const { page, close } = await signedInPage({ colorScheme, bypassCSP: true })
    try {
      await page.goto(settingsUrl())
      assert.deepEqual(await severeViolations(page), [], 'the settings page')
      // With errors shown next to their fields.
      await page.getByLabel('Reminder 1', { exact: true }).fill('1000')
      await page.getByLabel('Shortest', { exact: true }).fill('x')
      await submit(page, 'Save reminder times')
      await page.locator('#field-leadAmount1-error').waitFor()
      assert.deepEqual(await severeViolations(page), [], 'the page with an error')
    } finally {
      await close()
    }
  })
}

appTest('loads under its strict CSP with same-origin scripts and a quiet console', async () => {
  const { page, report, cspViolations, close } = await signedInPage()
  try {
    await page.goto(settingsUrl())
    // The script asks for the push key once the page loads; wait until that is answered.
    await page.waitForLoadState('networkidle')
    assert.deepEqual(await inlineContent(page), { scripts: 0, styles: 0, handlers: [] })
    const origin = new URL(harness.base).origin
    for (const src of report.scripts) assert.equal(new URL(src).origin, origin, src)
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

const SHOTS = [
  { file: 'settings-desktop.png', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  {
    file: 'settings-phone.png',
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  },
]

appTest('works at a phone’s width without sideways scrolling; the screenshots', async () => {
  for (const { file, ...options } of SHOTS) {
    // A fixed zone, light, no animation, so the pictures change only when the page does.
    const { page, close } = await signedInPage({
      ...options,
      timezoneId: 'Asia/Kolkata',
      reducedMotion: 'reduce',
      colorScheme: 'light',
    })
    try {
      await page.goto(settingsUrl())
      await page.waitForLoadState('networkidle')
      const overflow = await overflowOf(page)
      assert.ok(overflow <= 0, `${file}: the page is ${overflow}px wider than the viewport`)
      // Every section too, each form's widest part included (a long select, a URL).
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((el) => el.id || el.className || el.tagName),
      )
      assert.deepEqual(wide, [], `${file}: elements wider than the screen`)
      // Each section is a card with its content inset (no other page's style on one of its ids).
      const flat = await page.$$eval('main section', (sections) =>
        sections.filter((s) => parseFloat(getComputedStyle(s).paddingLeft) < 8).map((s) => s.id),
      )
      assert.deepEqual(flat, [], `${file}: sections without their padding`)
      await saveScreenshot(page, file, options)
    } finally {
      await close()
    }
  }
})
