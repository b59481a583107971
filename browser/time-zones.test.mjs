// Time zones and contest types as a real browser meets them: a sign-up from Chromium in Asia/Kolkata
// (whose Intl answers the legacy Asia/Calcutta) keeps Asia/Kolkata, one without JavaScript keeps
// UTC; the home page names the viewer's zone by its place under its current name; contest types
// read as the settings page calls them.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  codeFromOutbox,
  signUp,
  submit,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

let harness
before(async () => (harness = await startHarness({ outbox: true })), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const zoneTest = appTestOf(() => harness)

/** The zone the settings page has chosen in its select, and how it names it. */
async function settingsZone(page) {
  await page.goto(`${harness.base}/app/settings`)
  return {
    value: await page.locator('select[name="timezone"]').inputValue(),
    words: (await page.locator('#timezone-name').textContent()).trim(),
  }
}

zoneTest(
  'a sign-up from a browser in Asia/Kolkata ends with settings in Asia/Kolkata',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser, {
      timezoneId: 'Asia/Kolkata',
    })
    try {
      const account = { name: 'Srinivasa Ramanujan', email: uniqueEmail('kolkata') }
      await signUp(page, harness.base, { ...account, password: uniquePassword() })
      const zone = await settingsZone(page)
      assert.equal(zone.value, 'Asia/Kolkata')
      assert.match(zone.words, /India Standard Time/)
      assertQuiet(report, await cspViolations())
    } finally {
      await close()
    }
  },
)

zoneTest('a sign-up without JavaScript keeps the default, UTC', async () => {
  const { page, close } = await openPage(harness.browser, {
    timezoneId: 'Asia/Kolkata',
    javaScriptEnabled: false,
  })
  try {
    const email = uniqueEmail('no-script')
    await page.goto(`${harness.base}/app/signup`)
    assert.equal(await page.locator('input[name="timeZone"]').inputValue(), '')
    await page.getByLabel('Name').fill('Emmy Noether')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(uniquePassword())
    await submit(page, 'Create account')
    assert.equal(new URL(page.url()).pathname, '/app/verify')
    await page.getByLabel('Code').fill(await codeFromOutbox(harness.base, email))
    await submit(page, 'Verify')
    assert.equal((await settingsZone(page)).value, 'UTC')
  } finally {
    await close()
  }
})

/** How the home page's script names the viewer's zone, and what Chromium itself answered. */
async function homeZoneNote(timezoneId) {
  const { page, report, cspViolations, close } = await openPage(harness.browser, { timezoneId })
  try {
    await page.goto(`${harness.base}/`)
    const note = page.locator('#zone-note')
    await page
      .waitForFunction(() => document.getElementById('zone-note')?.dataset.zone, null, {
        timeout: 5_000,
      })
      .catch(() => {})
    assertQuiet(report, await cspViolations())
    return {
      text: (await note.textContent()).trim(),
      zone: await note.getAttribute('data-zone'),
      browser: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
      body: await page.locator('body').innerText(),
    }
  } finally {
    await close()
  }
}

zoneTest(
  'the home page names Asia/Kolkata by its place and current name, never Calcutta',
  async () => {
    const shown = await homeZoneNote('Asia/Kolkata')
    // Chromium's own answer may be either; the page's must be the current one.
    assert.match(shown.browser, /^Asia\/(Kolkata|Calcutta)$/)
    assert.equal(shown.text, 'Times are in your time zone, Kolkata.')
    assert.equal(shown.zone, 'Asia/Kolkata')
    assert.doesNotMatch(shown.body, /Calcutta/)
  },
)

zoneTest('the home page names America/New_York in words: New York', async () => {
  const shown = await homeZoneNote('America/New_York')
  assert.equal(shown.text, 'Times are in your time zone, New York.')
  assert.equal(shown.zone, 'America/New_York')
  assert.doesNotMatch(shown.body, /America\/New_York|New_York/)
})

zoneTest('the home page names contest types as the settings page does', async () => {
  const { page, close } = await openPage(harness.browser)
  try {
    await signUp(page, harness.base, {
      name: 'Type Reader',
      email: uniqueEmail('types'),
      password: uniquePassword(),
    })
    await page.goto(`${harness.base}/app/settings`)
    const settings = new Map(
      await page.$$eval('input[name="contestTypes"]', (boxes) =>
        boxes.map((box) => [
          box.value,
          document.querySelector(`label[for="${box.id}"]`).textContent,
        ]),
      ),
    )
    assert.equal(settings.get('COOK_OFF'), 'Cook-Off')

    await page.goto(`${harness.base}/`)
    const options = await page.$$eval('#filters select[name="type"] option', (all) =>
      all.filter((o) => o.value).map((o) => [o.value, o.textContent.trim()]),
    )
    assert.ok(options.length > 0, 'the filter offers types')
    for (const [value, text] of options) {
      assert.equal(text, settings.get(value), `the filter's ${value}`)
    }

    const names = new Set(settings.values())
    const metas = await page.$$eval('#contests li.contest .meta', (all) =>
      all.map((p) => p.textContent.trim()),
    )
    assert.ok(metas.length > 0, 'the synced catalogue lists contests')
    for (const meta of metas) {
      const type = meta.split(' · ')[1]
      assert.ok(names.has(type), `"${meta}" names its type as settings do`)
      assert.doesNotMatch(meta, /\b[A-Z]+_[A-Z]+\b/, 'no catalogue code such as COOK_OFF')
    }
  } finally {
    await close()
  }
})
