// The home page (`GET /`) in headless Chromium against a catalogue synced from the recorded platform
// payloads: listing and local times, filters, search, keyboard, axe-core, CSP, and the screenshots.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { appTestOf, overflowOf, saveScreenshot, severeViolations } from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

/** Every platform the catalogue knows (GET /platforms), and those synced into it. */
let PLATFORMS = []
let SYNCED = []
/** How each zone may be named or offset in a rendered time, whatever format the page picks. */
const ZONES = {
  'Asia/Kolkata': /Kolkata|Calcutta|India|\bIST\b|(GMT|UTC) ?\+ ?0?5:30|\+05:?30/,
  'America/New_York': /New[ _]York|Eastern|\bE[SD]T\b|(GMT|UTC) ?[-−] ?0?[45]\b|[-−]0[45]:?00/,
}

let harness
before(
  async () => {
    harness = await startHarness()
    const platforms = await (await fetch(`${harness.base}/platforms`)).json()
    PLATFORMS = platforms.map((p) => p.id)
    SYNCED = platforms.filter((p) => p.enabled).map((p) => p.id)
  },
  { timeout: 150_000 },
)
after(async () => harness?.stop(), { timeout: 30_000 })

/** A bounded test of the home page whose failure carries the service's last log lines. */
const homeTest = appTestOf(() => harness)

/** Every listed contest as the page shows it: the rounds, then the long challenges. */
function contestsOn(page) {
  return page.$$eval('#contests li.contest, #long-contests li.contest', (items) =>
    items.map((li) => ({
      platform: li.dataset.platform,
      start: li.dataset.start,
      name: li.querySelector('a.contest-link')?.textContent.trim() ?? '',
      href: li.querySelector('a.contest-link')?.getAttribute('href') ?? '',
      calendar: li.querySelector('a.add-to-calendar')?.getAttribute('href') ?? '',
      datetime: li.querySelector('time.start')?.getAttribute('datetime') ?? '',
      time: li.querySelector('time.start')?.textContent.trim() ?? '',
    })),
  )
}

/** Submits the filter form as a person would (its button, else Enter in the search box). */
async function submitFilters(page) {
  const before = page.url()
  const button = page.locator('#filters [type="submit"]')
  if ((await button.count()) > 0) await button.first().click()
  else await page.locator('#filters input[name="q"]').press('Enter')
  await page.waitForURL((url) => url.href !== before, { waitUntil: 'load' })
}

/** Unfolds the filters and the judges under "More judges", as a person taps them open. */
async function openFilters(page) {
  for (const fold of ['#filters-panel', '#filters-panel details.more-judges']) {
    const details = page.locator(fold)
    if (!(await details.evaluate((el) => el.open))) await details.locator('> summary').click()
  }
}

/** Leaves exactly `wanted` of the platform checkboxes checked. */
async function choosePlatforms(page, wanted) {
  await openFilters(page)
  for (const platform of PLATFORMS) {
    await page
      .locator(`#filters input[name="platform"][value="${platform}"]`)
      .setChecked(wanted.includes(platform))
  }
}

homeTest('the home page lists the seeded contests with links and local start times', async () => {
  const shown = {}
  for (const timezoneId of Object.keys(ZONES)) {
    const { page, close } = await openPage(harness.browser, { timezoneId })
    try {
      await page.goto(`${harness.base}/`)
      assert.equal(await page.locator('main#main').count(), 1, 'a <main id="main">')
      assert.ok((await page.locator('h1').count()) > 0, 'an <h1>')
      const contests = await contestsOn(page)
      assert.ok(contests.length > 0, 'at least one li.contest')
      // Every synced platform has contests in the recorded answers' next two weeks.
      assert.deepEqual(
        [...new Set(contests.map((c) => c.platform))].sort(),
        [...SYNCED].sort(),
        'contests of every synced platform',
      )
      for (const c of contests) {
        assert.ok(PLATFORMS.includes(c.platform), `data-platform ${c.platform}`)
        assert.ok(c.name && c.href, `a contest-link with a name and an address: ${c.name}`)
        assert.ok(c.calendar, `an add-to-calendar link for ${c.name}`)
        assert.ok(!Number.isNaN(Date.parse(c.datetime)), `<time datetime> ${c.datetime}`)
        assert.equal(Date.parse(c.datetime), Date.parse(c.start), `data-start of ${c.name}`)
      }
      // The page's script rewrites the times once it runs: wait for that (bounded), then judge
      // the text, so that a failure shows what the page wrote rather than a timeout.
      await page
        .waitForFunction(
          (source) =>
            [...document.querySelectorAll('li.contest time.start')].every((t) =>
              new RegExp(source).test(t.textContent),
            ),
          ZONES[timezoneId].source,
          { timeout: 5_000 },
        )
        .catch(() => {})
      const rewritten = await contestsOn(page)
      for (const c of rewritten) {
        assert.match(c.time, ZONES[timezoneId], `the start of ${c.name} names ${timezoneId}`)
      }
      shown[timezoneId] = rewritten[0].time
    } finally {
      await close()
    }
  }
  // The same contest reads differently in two zones: the server cannot know the viewer's zone.
  assert.notEqual(shown['Asia/Kolkata'], shown['America/New_York'])
})

homeTest(
  'checking only AtCoder lists AtCoder contests alone and keeps the filter in the URL',
  async () => {
    const { page, close } = await openPage(harness.browser)
    try {
      await page.goto(`${harness.base}/`)
      await choosePlatforms(page, ['atcoder'])
      await submitFilters(page)
      const url = new URL(page.url())
      assert.deepEqual(url.searchParams.getAll('platform'), ['atcoder'])
      const contests = await contestsOn(page)
      assert.ok(contests.length > 0, 'the recorded payloads hold upcoming AtCoder contests')
      assert.deepEqual([...new Set(contests.map((c) => c.platform))], ['atcoder'])
      // The form shows the filter it applied.
      for (const platform of PLATFORMS) {
        const box = page.locator(`#filters input[name="platform"][value="${platform}"]`)
        assert.equal(await box.isChecked(), platform === 'atcoder', `${platform} checkbox`)
      }
    } finally {
      await close()
    }
  },
)

homeTest('search narrows the list, and nonsense shows #no-contests', async () => {
  const { page, close } = await openPage(harness.browser)
  try {
    await page.goto(`${harness.base}/`)
    const all = await contestsOn(page)
    // A word of one contest's name that not every listed name contains.
    const words = (name) => name.toLowerCase().match(/[a-z]{4,}/g) ?? []
    const word = all
      .flatMap((c) => words(c.name))
      .find((w) => all.some((c) => !words(c.name).includes(w)))
    assert.ok(word, `a word that tells the listed contests apart: ${all.map((c) => c.name)}`)

    await openFilters(page)
    await page.locator('#filters input[name="q"]').fill(word)
    await submitFilters(page)
    assert.equal(new URL(page.url()).searchParams.get('q'), word)
    const found = await contestsOn(page)
    assert.ok(found.length > 0, `contests matching "${word}"`)
    assert.ok(found.length < all.length, `"${word}" narrows ${all.length} contests`)
    const named = all.filter((c) => words(c.name).includes(word)).map((c) => c.href)
    assert.ok(
      found.some((c) => named.includes(c.href)),
      `a contest named with "${word}" is among the results`,
    )
    assert.equal(await page.locator('#no-contests').count(), 0, 'no #no-contests beside results')

    await openFilters(page)
    await page.locator('#filters input[name="q"]').fill('qzxwvkjnonsense')
    await submitFilters(page)
    assert.equal((await contestsOn(page)).length, 0)
    assert.ok(await page.locator('#no-contests').isVisible(), '#no-contests is shown')
  } finally {
    await close()
  }
})

homeTest(
  'Tab reaches the skip link first, then every filter control, opening the folds',
  async () => {
    const { page, close } = await openPage(harness.browser)
    try {
      await page.goto(`${harness.base}/`)
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement
          const box = el.getBoundingClientRect()
          return {
            tag: el.tagName.toLowerCase(),
            href: el.getAttribute('href'),
            key: el.name === 'platform' ? `platform=${el.value}` : el.name || '',
            closedFold: el.tagName === 'SUMMARY' && !el.parentElement.open,
            inMain: Boolean(el.closest('#main')) || el.id === 'main',
            visible: box.width > 1 && box.height > 1,
          }
        })

      await page.keyboard.press('Tab')
      const first = await focused()
      assert.equal(first.tag, 'a', 'the first Tab stop is a link')
      assert.equal(first.href, '#main', 'the first Tab stop skips to #main')
      assert.ok(first.visible, 'the skip link shows while focused')

      const wanted = new Set([
        ...PLATFORMS.map((p) => `platform=${p}`),
        'type',
        'minDuration',
        'maxDuration',
        'q',
      ])
      // Bounded, so a focus trap fails the test rather than looping. A folded group opens with
      // Enter, as a keyboard user opens it.
      for (let i = 0; i < 80 && wanted.size > 0; i++) {
        await page.keyboard.press('Tab')
        const now = await focused()
        if (now.closedFold) await page.keyboard.press('Enter')
        wanted.delete(now.key)
      }
      assert.deepEqual([...wanted], [], 'filter controls Tab never reached')

      // Following the skip link moves on to the main content.
      await page.goto(`${harness.base}/`)
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
      assert.equal(new URL(page.url()).hash, '#main')
      await page.keyboard.press('Tab')
      assert.ok((await focused()).inMain, 'the next Tab after the skip link lands inside #main')
    } finally {
      await close()
    }
  },
)

/** Every contest of a list as the page marks it: where it is, its name and minutes. */
function itemsOf(page, selector) {
  return page.$$eval(selector, (items) =>
    items.map((li) => ({
      name: li.querySelector('a.contest-link')?.textContent.trim() ?? '',
      minutes: Number(li.dataset.duration),
      status: li.dataset.status,
    })),
  )
}

homeTest(
  'a month-long event is not among the rounds of "Running now" but in "Long challenges"',
  async () => {
    const { page, close } = await openPage(harness.browser)
    try {
      await page.goto(`${harness.base}/`)
      const rounds = await itemsOf(page, '#contests li.contest')
      const long = await itemsOf(page, '#long-contests li.contest')
      assert.ok(rounds.length > 0 && long.length > 0, 'both rounds and long challenges')
      for (const c of rounds) assert.ok(c.minutes <= 24 * 60, `${c.name}: ${c.minutes} min`)
      for (const c of long) assert.ok(c.minutes > 24 * 60, `${c.name}: ${c.minutes} min`)
      // The recorded catalogue's longest event runs for some 700 hours (Code360's monthly one).
      const longest = long.reduce((a, b) => (b.minutes > a.minutes ? b : a))
      assert.ok(longest.minutes >= 700 * 60, `the longest: ${longest.name}, ${longest.minutes} min`)
      assert.equal(longest.status, 'running')
      // Folded until asked for, then shown.
      const fold = page.locator('#long-challenges')
      assert.equal(await fold.evaluate((el) => el.open), false, 'folded at first')
      assert.equal(await page.locator('#long-contests li.contest').first().isVisible(), false)
      await fold.locator('> summary').click()
      assert.ok(await page.locator('#long-contests li.contest').first().isVisible())
      // The next round, not a long challenge, leads the page.
      const next = await page.locator('#next-up .contest-link').textContent()
      assert.ok(
        rounds.some((c) => c.name === next.trim() && c.status === 'upcoming'),
        `"Next up" is an upcoming round: ${next}`,
      )
    } finally {
      await close()
    }
  },
)

homeTest('at 375 px the first contest shows on the first screen, filters folded', async () => {
  const viewport = { width: 375, height: 667 }
  const { page, close } = await openPage(harness.browser, { viewport, isMobile: true })
  try {
    await page.goto(`${harness.base}/`)
    const first = await page.locator('#contests li.contest').first().boundingBox()
    assert.ok(first, 'a first contest')
    assert.ok(first.y + 48 <= viewport.height, `the first contest starts at ${first.y}px`)
    assert.equal(await page.locator('#filters').isVisible(), false, 'the form is folded')
    const summary = page.locator('#filters-summary')
    assert.equal((await summary.textContent()).trim(), 'All judges · any type')
    assert.ok((await overflowOf(page)) <= 0, 'nothing wider than the screen')
  } finally {
    await close()
  }
})

homeTest('the folded filters open and filter with JavaScript off', async () => {
  const { page, close } = await openPage(harness.browser, { javaScriptEnabled: false })
  try {
    await page.goto(`${harness.base}/`)
    await page.locator('#filters-panel > summary').click()
    await page.locator('#filters input[name="platform"][value="atcoder"]').check()
    await page.locator('#maxDuration').selectOption('180')
    await submitFilters(page)
    const url = new URL(page.url())
    assert.deepEqual(url.searchParams.getAll('platform'), ['atcoder'])
    assert.equal(url.searchParams.get('maxDuration'), '180')
    const contests = await contestsOn(page)
    assert.ok(contests.length > 0, 'AtCoder rounds of at most 3 hours')
    assert.deepEqual([...new Set(contests.map((c) => c.platform))], ['atcoder'])
    assert.equal(
      (await page.locator('#filters-summary').textContent()).trim(),
      'AtCoder · any type · up to 3 h',
    )
    assert.match(await page.locator('a#subscribe').getAttribute('href'), /maxDuration=180/)
  } finally {
    await close()
  }
})

for (const colorScheme of ['light', 'dark']) {
  homeTest(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    // axe is injected as an inline script, which the page's CSP rightly refuses: this context
    // alone bypasses it (the CSP itself is tested below).
    const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
    try {
      await page.goto(`${harness.base}/`)
      assert.ok((await contestsOn(page)).length > 0, 'axe judges a page with contests on it')
      const severe = await severeViolations(page)
      assert.deepEqual(severe, [], JSON.stringify(severe, null, 2))
    } finally {
      await close()
    }
  })
}

homeTest(
  'the page loads same-origin scripts only, under a strict CSP, with a quiet console',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser)
    try {
      const response = await page.goto(`${harness.base}/`)
      const csp = response.headers()['content-security-policy']
      assert.ok(csp, 'a Content-Security-Policy header')
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/)
          return [name.toLowerCase(), values]
        }),
      )
      const scriptSrc = directives['script-src'] ?? directives['default-src']
      assert.ok(scriptSrc, `script-src or default-src in ${csp}`)
      for (const loose of ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:', 'data:']) {
        assert.ok(!scriptSrc.includes(loose), `script sources without ${loose}: ${csp}`)
      }

      const inline = await page.evaluate(() => ({
        scripts: [...document.querySelectorAll('script:not([src])')].filter(
          (s) => !/json/.test(s.type) && s.textContent.trim() !== '',
        ).length,
        handlers: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
        ),
        sources: [...document.querySelectorAll('script[src]')].map((s) => s.src),
      }))
      assert.equal(inline.scripts, 0, 'no inline scripts')
      assert.deepEqual(inline.handlers, [], 'no inline event handlers')
      const origin = new URL(harness.base).origin
      for (const src of [...inline.sources, ...report.scripts]) {
        assert.equal(new URL(src).origin, origin, `script ${src} is same-origin`)
      }
      assert.deepEqual(await cspViolations(), [], 'CSP violations on load')

      // Using the page runs its scripts again on the next document.
      await choosePlatforms(page, ['codeforces'])
      await submitFilters(page)
      assert.deepEqual(await cspViolations(), [], 'CSP violations after filtering')
      for (const src of report.scripts) assert.equal(new URL(src).origin, origin, src)
      assert.deepEqual(report.consoleErrors, [], 'console errors')
      assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
    } finally {
      await close()
    }
  },
)

const SHOTS = [
  { file: 'home-desktop.png', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  {
    file: 'home-phone.png',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  },
]

homeTest(
  'screenshots of the home page at desktop and phone widths, nothing wider than the screen',
  async () => {
    for (const { file, ...options } of SHOTS) {
      // A fixed zone and no animation, so the pictures change only when the page does.
      const { page, close } = await openPage(harness.browser, {
        ...options,
        timezoneId: 'Asia/Kolkata',
        reducedMotion: 'reduce',
        colorScheme: 'light',
      })
      try {
        await page.goto(`${harness.base}/`)
        const overflow = await overflowOf(page)
        assert.ok(overflow <= 0, `${file}: the page is ${overflow}px wider than the viewport`)
        await saveScreenshot(page, file, options)
      } finally {
        await close()
      }
    }
  },
)
