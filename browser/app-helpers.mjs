// What the browser tests share: bounded tests, unique accounts, the emailed code from the local
// outbox, the JSON API and an admin made through it, submitting a form and waiting for the next
// document, signing up and in through the pages, the session cookie, the checks every page must pass (a quiet console, axe-core, no
// sideways scrolling) and the screenshots in docs/.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { test } from 'node:test'
import { ROOT, startHarness } from './harness.mjs'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

const RUN = randomUUID().slice(0, 8)
let seq = 0
export const uniqueEmail = (label) => `${label}-${RUN}-${++seq}@example.test`
export const uniquePassword = () => `pw-${randomUUID()}`

/** A bounded test whose failure carries the service's last log lines (`harness()` gives it). */
export function appTestOf(harness) {
  return (name, fn) =>
    test(name, { timeout: 60_000 }, async () => {
      try {
        await fn()
      } catch (error) {
        error.message += `\n--- workers.log ---\n${harness().log()}`
        throw error
      }
    })
}

/** The six-digit code of the newest verification mail to `email` in the local outbox. */
export async function codeFromOutbox(base, email) {
  const res = await fetch(`${base}/dev/outbox`)
  assert.equal(res.status, 200)
  const { messages } = await res.json()
  const mail = messages.find((m) => [m.to].flat().includes(email))
  assert.ok(mail, `a mail to ${email} in the outbox`)
  const code = mail.text.match(/\b(\d{6})\b/)?.[1]
  assert.ok(code, 'the mail carries a six-digit code')
  return code
}

/** A call of the service's JSON API at `base`, with a bearer token when given: {status, body}. */
export async function callApi(base, method, path, { token, body } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token && { Authorization: `Bearer ${token}` }),
      ...(body && { 'Content-Type': 'application/json' }),
    },
    body: body && JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

/**
 * A bootstrap admin (`{ name, email, password }`, its address in BOOTSTRAP_ADMIN_EMAILS) signed up
 * through the API and verified with the mailed code; its access token. The bootstrap role comes
 * with the address verified, in the sign-up's session.
 */
export async function verifiedAdmin(base, admin) {
  const signup = await callApi(base, 'POST', '/auth/signup', { body: admin })
  assert.equal(signup.status, 201, JSON.stringify(signup.body))
  const code = await codeFromOutbox(base, admin.email)
  const verified = await callApi(base, 'POST', '/auth/verify-email', {
    body: { email: admin.email, code },
    token: signup.body.accessToken,
  })
  assert.equal(verified.status, 200, JSON.stringify(verified.body))
  return verified.body.accessToken
}

/**
 * The harness with the local outbox and `admin` as its bootstrap admin, made through the API
 * (verifiedAdmin): `{ harness, adminToken }`; the harness is stopped again if the admin fails.
 */
export async function startWithAdmin(admin) {
  const harness = await startHarness({
    outbox: true,
    settings: { BOOTSTRAP_ADMIN_EMAILS: admin.email },
  })
  try {
    return { harness, adminToken: await verifiedAdmin(harness.base, admin) }
  } catch (error) {
    await harness.stop()
    throw error
  }
}

/** Submits the page's form with its submit button and waits for the next document. */
export async function submit(page, button) {
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.getByRole('button', { name: button, exact: true }).click(),
  ])
  return response
}

/** Signs in through /app/signin; the browser lands on the app's home. */
export async function signIn(page, base, { email, password }) {
  await page.goto(`${base}/app/signin`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await submit(page, 'Sign in')
  assert.equal(new URL(page.url()).pathname, '/app/')
}

/** Creates an account through /app/signup and verifies it with the code from the outbox. */
export async function signUp(page, base, { name, email, password }) {
  await page.goto(`${base}/app/signup`)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await submit(page, 'Create account')
  assert.equal(new URL(page.url()).pathname, '/app/verify')
  await page.getByLabel('Code').fill(await codeFromOutbox(base, email))
  await submit(page, 'Verify')
  assert.equal(new URL(page.url()).pathname, '/app/')
}

export async function sessionCookie(page, base) {
  const cookies = await page.context().cookies(base)
  return cookies.find((c) => c.name === '__Host-session')
}

export function assertQuiet(report, violations) {
  assert.deepEqual(violations, [], 'CSP violations')
  assert.deepEqual(report.consoleErrors, [], 'console errors')
  assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
}

/**
 * axe-core's serious and critical findings on the page as it is now. axe is injected as an inline
 * script, so the page must be opened in a context that bypasses its CSP (`bypassCSP: true`).
 */
export async function severeViolations(page) {
  await page.addScriptTag({ path: AXE_PATH })
  const violations = await page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] })
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }))
  })
  return violations.filter((v) => ['serious', 'critical'].includes(v.impact))
}

/** What a page holds that its CSP would refuse: inline scripts, styles and event handlers. */
export function inlineContent(page) {
  return page.evaluate(() => ({
    scripts: [...document.querySelectorAll('script:not([src])')].length,
    styles: [...document.querySelectorAll('style, [style]')].length,
    handlers: [...document.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
    ),
  }))
}

/** How many pixels the page is wider than its viewport (0 or less: it fits). */
export function overflowOf(page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

/**
 * Console errors besides the one line Chromium logs for each page answered with an error status
 * (a form's 400, a 403 page): those are the statuses working as meant.
 */
export function unexpectedConsoleErrors(report, statuses) {
  const expected = statuses.map(
    (status) => `Failed to load resource: the server responded with a status of ${status}`,
  )
  return report.consoleErrors.filter((message) => {
    const at = expected.findIndex((e) => message.startsWith(e))
    if (at < 0) return true
    expected.splice(at, 1)
    return false
  })
}

const SCREENSHOTS = join(ROOT, 'docs', 'screenshots')

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(path) {
  const png = readFileSync(path)
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', `${path} is a PNG`)
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** Saves docs/screenshots/`file` and checks it is the viewport's size in device pixels. */
export async function saveScreenshot(page, file, { viewport, deviceScaleFactor }) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, file)
  await page.screenshot({ path, animations: 'disabled' })
  assert.deepEqual(pngSize(path), {
    width: viewport.width * deviceScaleFactor,
    height: viewport.height * deviceScaleFactor,
  })
}
