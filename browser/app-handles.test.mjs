// The Handles page (/app/handles) and a handle's rating chart in headless Chromium: an account
// made through the sign-up pages links a Codeforces handle, places the token the page shows (the
// judge's user.info, answered here with it in the First name, as Codeforces would once the person
// saved it), checks the proof and opens the chart (user.rating from the recorded answer): SVG and
// table, axe-core in both colour schemes, a phone's width without sideways scrolling, and the same
// steps with JavaScript off; then the proof by a compilation error (a challenge's problem and
// deadline, the check), with axe-core on the open challenge and again with JavaScript off.
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
  unexpectedConsoleErrors,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

const HANDLE = 'Kestrel_09'
const account = { name: 'Anna Petrova', email: uniqueEmail('handles'), password: uniquePassword() }

// Codeforces' API for the service: user.info names the token the test last read from the page in
// the First name; user.status lists, once the test has "submitted", a compilation error to the
// problem the page named, made just now (a Submission as codeforces.com/apiHelp/objects shows it);
// every other call is the recorded answer of the fixture server.
let token = ''
let submitted
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
    if (url.pathname === '/user.status') {
      const result = submitted
        ? [
            {
              id: 351204877,
              contestId: submitted.contestId,
              creationTimeSeconds: Math.floor(Date.now() / 1000),
              relativeTimeSeconds: 2147483647,
              problem: { ...submitted, type: 'PROGRAMMING' },
              author: {
                contestId: submitted.contestId,
                members: [{ handle: HANDLE }],
                participantType: 'PRACTICE',
                ghost: false,
              },
              programmingLanguage: 'C++17 (GCC 7-32)',
              verdict: 'COMPILATION_ERROR',
              testset: 'TESTS',
              passedTestCount: 0,
              timeConsumedMillis: 0,
              memoryConsumedBytes: 0,
            },
          ]
        : []
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'OK', result }))
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
/** A 375 px page with JavaScript off, signed up as a new account of its own. */
async function phoneSignedUp(name, emailPrefix) {
  const opened = await openPage(harness.browser, {
    viewport: { width: 375, height: 667 },
    isMobile: true,
    javaScriptEnabled: false,
  })
  const person = { name, email: uniqueEmail(emailPrefix), password: uniquePassword() }
  try {
    await signUp(opened.page, harness.base, person)
  } catch (error) {
    await opened.close()
    throw error
  }
  return opened
}

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
  const { page, close } = await phoneSignedUp('Phone Person', 'handles-phone')
  try {
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

/**
 * Links the handle, asks for a challenge, checks before submitting (refused, said on the page),
 * "submits" the compilation error to the problem the page links, and checks again: proven.
 * `onOpen` runs on the page while the challenge is open.
 */
async function proveByCompilationError(page, onOpen = async () => {}) {
  const typed = HANDLE.toLowerCase()
  submitted = undefined
  await page.goto(url('/app/handles'))
  await page.getByLabel('Judge').selectOption('codeforces')
  await page.getByLabel('Handle', { exact: true }).fill(typed)
  await submit(page, 'Link')
  await submit(page, `Prove by a compilation error of ${typed}`)
  assert.match(await page.locator('#notice').textContent(), /compilation error/)
  const link = page.locator('#handles a.challenge-problem')
  const href = await link.getAttribute('href')
  const [, contestId, index] = /\/problemset\/problem\/(\d+)\/([A-Z]\d?)$/.exec(href) ?? []
  assert.ok(contestId, `the problem's page: ${href}`)
  const name = /\((.+)\)$/.exec(await link.textContent())?.[1]
  assert.ok(name, 'the problem is named')
  const deadline = Date.parse(await page.locator('#handles time.deadline').getAttribute('datetime'))
  const left = deadline - Date.now()
  assert.ok(left > 4 * 60_000 && left <= 5 * 60_000, `five minutes to submit: ${left} ms`)
  await onOpen()

  await submit(page, `Check the submission of ${typed}`)
  assert.match(await page.locator('.form-errors').textContent(), /lists no compilation error/)
  submitted = { contestId: Number(contestId), index, name }
  await submit(page, `Check the submission of ${typed}`)
  assert.equal(await page.locator('#notice').textContent(), 'Proven: the handle is yours.')
  const item = page.locator('#handles li.handle')
  assert.equal(await item.getAttribute('data-state'), 'proven')
  assert.equal(await item.locator('h3').textContent(), `Codeforces: ${HANDLE}`)
}

appTest(
  'prove a handle by a compilation error; axe-core finds nothing serious on the challenge',
  async () => {
    // axe-core is injected inline, so this context bypasses the CSP (the first test keeps it).
    const { page, report, close } = await openPage(harness.browser, { bypassCSP: true })
    try {
      const other = {
        name: 'Challenge Person',
        email: uniqueEmail('handles-challenge'),
        password: uniquePassword(),
      }
      await signUp(page, harness.base, other)
      await proveByCompilationError(page, async () => {
        const severe = await severeViolations(page)
        assert.deepEqual(severe, [], JSON.stringify(severe, null, 2))
      })
      // The check made before submitting is the page's 422, as meant.
      assert.deepEqual(unexpectedConsoleErrors(report, [422]), [], 'console errors')
      assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
    } finally {
      await close()
    }
  },
)

appTest('at 375 px with JavaScript off: prove by a compilation error', async () => {
  const { page, close } = await phoneSignedUp('Phone Challenger', 'handles-challenge-phone')
  try {
    await proveByCompilationError(page, async () => {
      assert.ok((await overflowOf(page)) <= 0, 'the open challenge fits the screen')
    })
  } finally {
    await close()
  }
})
