// The Handles page (/app/handles) and a handle's rating chart in headless Chromium: an account
// made through the sign-up pages links a Codeforces handle, places the token the page shows (the
// judge's user.info, answered here with it in the First name, as Codeforces would once the person
// saved it), checks the proof and opens the chart (user.rating from the recorded answer): SVG and
// table, axe-core in both colour schemes, a phone's width without sideways scrolling, and the same
// steps with JavaScript off.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { after, before } from 'node:test'
import { startFixtureServer } from '../scripts/lib/fixture-server.mjs'
import {
  appTestOf,
  assertQuiet,
  overflowOf,
  severeViolations,
  signIn,
  signUp,
  submit,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

const HANDLE = 'Kestrel_09'
const account = { name: 'Anna Petrova', email: uniqueEmail('handles'), password: uniquePassword() }

// Codeforces' API for the service: user.info names the token the test last read from the page in
// the First name; every other call is the recorded answer of the fixture server.
let token = ''
let fixtures
let judge
let harness

function startJudge() {
  const server = createServer(async (req, res) => {
    req.resume()
    const url = new URL(req.url, 'http://judge')
    if (url.pathname === '/user.info') {
      const handle = url.searchParams.get('handles')
      const result = [{ handle: HANDLE, firstName: `Anna ${token}`, rating: 1623, rank: 'expert' }]
      const body =
        handle?.toLowerCase() === HANDLE.toLowerCase()
          ? { status: 'OK', result }
          : { status: 'FAILED', comment: `handles: User with handle ${handle} not found` }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      return
    }
    const upstream = await fetch(`${fixtures.url}/codeforces-api${url.pathname}${url.search}`)
    res
      .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' })
      .end(await upstream.text())
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  )
}

before(
  async () => {
    fixtures = await startFixtureServer()
    judge = await startJudge()
    harness = await startHarness({ outbox: true, settings: { CODEFORCES_API_URL: judge.url } })
  },
  { timeout: 150_000 },
)
after(
  async () => {
    await harness?.stop()
    judge?.server.close()
    fixtures?.server.close()
  },
  { timeout: 30_000 },
)

const appTest = appTestOf(() => harness)
const url = (path) => `${harness.base}${path}`

/** Links the handle on the Handles page and proves it with the token the page shows. */
async function linkAndProve(page) {
  await page.goto(url('/app/handles'))
  await page.getByLabel('Judge').selectOption('codeforces')
  await page.getByLabel('Handle', { exact: true }).fill(HANDLE.toLowerCase())
  await submit(page, 'Link')
  token = (await page.locator('#handles code.token').textContent()).trim()
  assert.match(token, /^cas-[a-z2-7]{10}$/)
  await submit(page, `Check the proof of ${HANDLE.toLowerCase()}`)
  assert.equal(await page.locator('#notice').textContent(), 'Proven: the handle is yours.')
}

appTest('link a handle, prove it with the token, and open its rating chart', async () => {
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  try {
    await signUp(page, harness.base, account)
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.getByRole('link', { name: 'Handles' }).click(),
    ])
    assert.equal(await page.locator('main h1').textContent(), 'Handles')
    await linkAndProve(page)
    const item = page.locator('#handles li.handle')
    assert.equal(await item.getAttribute('data-state'), 'proven')
    assert.equal(await item.locator('h3').textContent(), `Codeforces: ${HANDLE}`)

    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      item.getByRole('link', { name: `Rating chart of ${HANDLE}` }).click(),
    ])
    assert.ok(await page.locator('figure.rating-chart svg').isVisible(), 'the chart shows')
    const points = await page.locator('circle.rating-point').count()
    assert.ok(points > 1, `a point per rated contest: ${points}`)
    assert.equal(await page.locator('table.rating-table tbody tr').count(), points)
    assert.match(await page.locator('p.lead').textContent(), /^Rating \d+, [A-Z]/)
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})

for (const colorScheme of ['light', 'dark']) {
  appTest(
    `axe-core finds nothing serious on the Handles page and the chart (${colorScheme})`,
    async () => {
      const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
      try {
        await signIn(page, harness.base, account)
        await page.goto(url('/app/handles'))
        const severe = await severeViolations(page)
        assert.deepEqual(severe, [], JSON.stringify(severe, null, 2))
        const id = await page.locator('#handles li.handle').first().getAttribute('data-handle-id')
        await page.goto(url(`/app/handles/${id}`))
        const onChart = await severeViolations(page)
        assert.deepEqual(onChart, [], JSON.stringify(onChart, null, 2))
      } finally {
        await close()
      }
    },
  )
}

appTest('at 375 px with JavaScript off: link, prove and read the chart', async () => {
  const { page, close } = await openPage(harness.browser, {
    viewport: { width: 375, height: 667 },
    isMobile: true,
    javaScriptEnabled: false,
  })
  try {
    const other = {
      name: 'Phone Person',
      email: uniqueEmail('handles-phone'),
      password: uniquePassword(),
    }
    await signUp(page, harness.base, other)
    // The handle moves to this account with the new proof: whoever controls the profile holds it.
    await linkAndProve(page)
    assert.ok((await overflowOf(page)) <= 0, 'the Handles page fits the screen')
    const id = await page.locator('#handles li.handle').first().getAttribute('data-handle-id')
    await page.goto(url(`/app/handles/${id}`))
    const svg = await page.locator('figure.rating-chart svg').boundingBox()
    assert.ok(svg && svg.width <= 375, `the chart fits: ${svg?.width}px`)
    assert.ok((await overflowOf(page)) <= 0, 'the chart page fits the screen (its table scrolls)')
    assert.ok((await page.locator('table.rating-table tbody tr').count()) > 1)
  } finally {
    await close()
  }
})
