// `npm run test:browser`: installs Chromium when missing, runs the browser suite (browser/*.test.mjs)
// with Node's test runner, and ends with the plain line CI reads: `browser: N passed, N failed`.
import { ensureChromium } from '../scripts/lib/browser.mjs'
import { runSuite } from '../scripts/lib/test-run.mjs'

// Once here, before the clock of the tests starts: a fresh CI machine installs it with apt-get.
try {
  ensureChromium()
} catch (error) {
  console.error(error.message)
  console.log('browser: 0 passed, 1 failed')
  process.exit(1)
}

runSuite({ folder: new URL('.', import.meta.url), label: 'browser', timeout: 150_000 })
