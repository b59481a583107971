// The public status page (`GET /status`) in headless Chromium against a service whose catalogue
// was synced from the recorded payloads and whose scheduler ran once: axe-core in light and dark,
// 375 px without sideways scrolling, the same page with JavaScript off, and the footer link.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { appTestOf, assertQuiet, overflowOf, severeViolations } from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

let harness
before(
  async () => {
    harness = await startHarness()
  },
  { timeout: 150_000 },
)
after(async () => harness?.stop(), { timeout: 30_000 })

const statusTest = appTestOf(() => harness)

/** What a reader sees of each section, read from the page as it is. */
function sectionsOf(page) {
  return page.evaluate(() => ({
    summary: document.querySelector('#status-summary')?.textContent.trim() ?? '',
    headings: [...document.querySelectorAll('main h2')].map((h) => h.textContent.trim()),
    platforms: document.querySelectorAll('#status-platforms li').length,
    channels: [...document.querySelectorAll('#status-channels li')].map((li) => li.dataset.channel),
    jobs: [...document.querySelectorAll('#status-jobs li')].map((li) => [
      li.dataset.job,
      li.dataset.outcome,
    ]),
  }))
}

statusTest('the home page’s footer leads to the status page', async () => {
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  try {
    await page.goto(`${harness.base}/`)
    await Promise.all([
      page.waitForURL(`${harness.base}/status`),
      page.getByRole('contentinfo').getByRole('link', { name: 'Service status' }).click(),
    ])
    const sections = await sectionsOf(page)
    assert.deepEqual(sections.headings, [
      'Incidents in the last 30 days',
      'Platforms',
      'Deliveries in the last 24 hours',
      'Scheduled jobs',
    ])
    assert.ok(sections.platforms > 0, 'the synced platforms are listed')
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

statusTest('reads the same with JavaScript off, times in UTC', async () => {
  const { page, close } = await openPage(harness.browser, { javaScriptEnabled: false })
  try {
    await page.goto(`${harness.base}/status`)
    const sections = await sectionsOf(page)
    assert.equal(sections.summary, 'Everything is working.')
    assert.ok(sections.platforms > 0)
    assert.deepEqual(
      sections.jobs.find(([job]) => job === 'sync'),
      ['sync', 'ok'],
      'the sync the harness fired is its last run',
    )
    assert.equal((await page.locator('#zone-note').textContent()).trim(), 'Times are in UTC.')
    assert.match(await page.locator('#status-jobs time').first().textContent(), /UTC/)
  } finally {
    await close()
  }
})

statusTest('fits 375 px: nothing wider than the screen', async () => {
  const viewport = { width: 375, height: 667 }
  const { page, close } = await openPage(harness.browser, { viewport, isMobile: true })
  try {
    await page.goto(`${harness.base}/status`)
    assert.ok((await overflowOf(page)) <= 0, 'nothing wider than the screen')
  } finally {
    await close()
  }
})

for (const colorScheme of ['light', 'dark']) {
  statusTest(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    // axe is injected as an inline script, which the page's CSP refuses: this context bypasses it.
    const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
    try {
      await page.goto(`${harness.base}/status`)
      const severe = await severeViolations(page)
      assert.deepEqual(severe, [], JSON.stringify(severe, null, 2))
    } finally {
      await close()
    }
  })
}
