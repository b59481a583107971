// The Communities page (/app/communities) in headless Chromium: an account made through the
// sign-up pages makes a claim code, a Telegram group's administrator subscribes it and sends the
// code (the bot's webhook, as Telegram would post it), the page lists the group with what it
// announces and that it is active, its form changes what it announces, and Release gives it up;
// axe-core in both colour schemes (with the form open), the CSP and a quiet console.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  appTestOf,
  assertQuiet,
  severeViolations,
  signIn,
  signUp,
  submit,
  uniqueEmail,
  uniquePassword,
} from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

const WEBHOOK_SECRET = 'browser_suite_telegram_secret'
const account = {
  name: 'Ada Lovelace',
  email: uniqueEmail('communities'),
  password: uniquePassword(),
}

let harness
before(
  async () =>
    (harness = await startHarness({
      outbox: true,
      settings: {
        TELEGRAM_BOT_USERNAME: 'ContestAlertBrowserBot',
        TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    })),
  { timeout: 150_000 },
)
after(async () => harness?.stop(), { timeout: 30_000 })

const appTest = appTestOf(() => harness)
const url = (path) => `${harness.base}${path}`

/** A command in the group, from an administrator (without a bot token every sender is one). */
async function inGroup(text) {
  const res = await fetch(url('/telegram/webhook'), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET,
    },
    body: JSON.stringify({
      update_id: Date.now(),
      message: {
        message_id: 1,
        date: 0,
        from: { id: 42, is_bot: false },
        chat: { id: -1001234500001, type: 'supergroup', title: 'CP Club' },
        text,
      },
    }),
  })
  assert.equal(res.status, 200)
}

appTest(
  'claim a Telegram group with a code, see it listed and active, and change what it announces',
  async () => {
    const { page, report, cspViolations, close } = await openPage(harness.browser)
    try {
      await signUp(page, harness.base, account)
      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('link', { name: 'Communities' }).click(),
      ])
      assert.equal(await page.locator('main h1').textContent(), 'Communities')
      assert.equal(
        await page.locator('#no-communities').textContent(),
        'No community is claimed by your account.',
      )
      await submit(page, 'Make a claim code')
      const code = await page.locator('#claim-code strong').textContent()
      assert.match(code, /^[A-HJ-NP-Z2-9]{10}$/)

      await inGroup('/subscribe@ContestAlertBrowserBot codeforces atcoder')
      await inGroup(`/claim ${code}`)
      await page.goto(url('/app/communities'))
      const item = page.locator('li.community')
      assert.equal(await item.count(), 1)
      assert.match(await item.locator('h3').textContent(), /Telegram: CP Club/)
      assert.match(await item.textContent(), /Active/)
      assert.match(await item.textContent(), /1 h before each start/)

      await item.getByText('Change what it announces').click()
      await item.getByLabel('Minutes before the start').fill('1440, 60')
      await item.getByLabel('Never names with').fill('kotlin')
      await item.getByLabel('AtCoder').uncheck()
      await submit(page, 'Save')
      assert.equal(await page.locator('#notice').textContent(), 'Saved.')
      const saved = await page.locator('li.community').textContent()
      assert.match(saved, /When: 1 d, 1 h before each start/)
      assert.match(saved, /Never names with: kotlin/)
      assert.equal(await page.locator('li.community .meta').textContent(), 'Codeforces')
      assertQuiet(report, await cspViolations())
    } finally {
      await close()
    }
  },
)

for (const colorScheme of ['light', 'dark']) {
  appTest(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    const { page, close } = await openPage(harness.browser, { colorScheme, bypassCSP: true })
    try {
      await signIn(page, harness.base, account)
      await page.goto(url('/app/communities'))
      await submit(page, 'Make a claim code')
      await page.getByText('Change what it announces').click()
      const severe = await severeViolations(page)
      assert.deepEqual(severe, [], JSON.stringify(severe, null, 2))
    } finally {
      await close()
    }
  })
}

appTest('release the group, which leaves the page', async () => {
  const { page, report, cspViolations, close } = await openPage(harness.browser)
  try {
    await signIn(page, harness.base, account)
    await page.goto(url('/app/communities'))
    await submit(page, 'Release')
    assert.equal(await page.locator('#notice').textContent(), 'Released.')
    assert.equal(await page.locator('li.community').count(), 0)
    assertQuiet(report, await cspViolations())
  } finally {
    await close()
  }
})
