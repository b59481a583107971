// The API reference (`GET /docs`) in headless Chromium: it renders the operations of /openapi.json
// from the bundle this origin serves, asks nothing of any other origin and trips nothing of its CSP.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { appTestOf } from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

// The one violation the page is built to cause: the bundle's zod tries `Function('')` once to learn
// whether it may compile validators, and does without when the CSP (no 'unsafe-eval') says no.
const EVAL_PROBE = 'script-src blocked eval'

let harness
before(async () => (harness = await startHarness()), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const docsTest = appTestOf(() => harness)

docsTest('renders the reference from this origin alone, with no CSP violation', async () => {
  const document = await (await fetch(`${harness.base}/openapi.json`)).json()
  const summaries = Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).map((operation) => operation.summary),
  )
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  const requested = []
  page.on('request', (request) => requested.push(request.url()))
  try {
    await page.goto(`${harness.base}/docs`, { waitUntil: 'load' })
    // The document's title and its first operation, as the reference shows them.
    await page.getByRole('heading', { name: document.info.title }).first().waitFor()
    await page.getByText(summaries[0], { exact: true }).first().waitFor({ state: 'visible' })

    const origin = new URL(harness.base).origin
    const elsewhere = requested.filter(
      (url) => !url.startsWith('data:') && new URL(url).origin !== origin,
    )
    assert.deepEqual(elsewhere, [], 'requests to other origins')
    assert.ok(
      report.scripts.some((url) => /\/docs\/scalar-api-reference\.\d+\.\d+\.\d+\.js$/.test(url)),
      `the pinned bundle was loaded: ${report.scripts.join(', ')}`,
    )
    const violations = (await cspViolations()).filter((v) => v !== EVAL_PROBE)
    assert.deepEqual(violations, [], 'CSP violations')
    assert.deepEqual(report.consoleErrors, [], 'console errors (a CSP refusal is one)')
    assert.deepEqual(report.pageErrors, [], 'uncaught errors')
  } finally {
    await close()
  }
})
