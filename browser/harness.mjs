// What every browser test file shares: the service under `wrangler dev` with fresh state and a
// catalogue synced from the recorded platform payloads, and headless Chromium to drive it.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startRuntime } from '../contract/runtimes.mjs'
import { startGoogleStandIn } from '../scripts/google-stand-in.mjs'
import { launchBrowser } from '../scripts/lib/browser.mjs'
import { freePort } from '../scripts/lib/dev-server.mjs'
import { awaitPlatformSyncs } from '../scripts/lib/await-sync.mjs'
import { startFixtureServer } from '../scripts/lib/fixture-server.mjs'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** wrangler.toml's contest sync. */
const SYNC_CRON = '0 */6 * * *'

/**
 * Starts the service with fresh state in a temporary directory (as the contract suite starts it),
 * syncs the recorded answers of every platform into it through the real sources (as `npm run
 * seed` does), and launches Chromium. stop() undoes all of it.
 *
 * `options.outbox`: mail goes to the local outbox (GET /dev/outbox) instead of nowhere.
 * `options.google`: a Google stand-in plays Sign in with Google (`google` in the answer scripts
 * its next user); APP_URL is then the service's own address, where Google sends the browser back.
 * `options.settings`: more settings of the service (BOOTSTRAP_ADMIN_EMAILS, for an admin).
 */
export async function startHarness(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'browser-tests-'))
  const fixtures = await startFixtureServer()
  let service
  let browser
  let google
  const stop = async () => {
    await browser?.close()
    await service?.stop()
    await google?.close()
    fixtures.server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const port = await freePort()
    const extra = { ...options.settings }
    if (options.outbox) extra.DEV_OUTBOX = 'true'
    if (options.google) {
      google = await startGoogleStandIn()
      Object.assign(extra, google.settings, { APP_URL: `http://127.0.0.1:${port}` })
    }
    service = await startRuntime('workers', {
      dir,
      port,
      settings: {
        JWT_SECRET: randomBytes(36).toString('base64url'),
        ...fixtures.upstreams,
        ...extra,
      },
    })
    const since = Date.now() - 1000
    await service.fireCron(SYNC_CRON)
    await awaitPlatformSyncs(service.base, since)
    browser = await launchBrowser()
  } catch (error) {
    const log = service?.log() ?? ''
    await stop()
    throw new Error(`${error.message}\n--- workers.log ---\n${log}`)
  }
  return { base: service.base, browser, google, log: () => service.log(), stop }
}

/**
 * Opens a page in a new browser context (`options` are Playwright's: viewport, timezoneId,
 * colorScheme...) that records what the page reports: console errors, uncaught exceptions, CSP
 * violations (through a listener Playwright installs before any page script, so the CSP under
 * test cannot block it) and the URL of every script it requests.
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options })
  context.setDefaultTimeout(15_000)
  context.setDefaultNavigationTimeout(30_000)
  await context.addInitScript(() => {
    window.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`)
    })
  })
  const page = await context.newPage()
  const report = { consoleErrors: [], pageErrors: [], scripts: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') report.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => report.pageErrors.push(error.message))
  page.on('request', (request) => {
    if (request.resourceType() === 'script') report.scripts.push(request.url())
  })
  return {
    page,
    report,
    cspViolations: () => page.evaluate(() => window.__cspViolations),
    close: () => context.close(),
  }
}
