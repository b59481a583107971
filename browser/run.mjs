// `npm run test:browser`: installs Chromium when missing, runs the browser suite (browser/*.test.mjs)
// with Node's test runner, and ends with the plain line CI reads: `browser: N passed, N failed`.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { fileURLToPath } from 'node:url'
import { ensureChromium } from '../scripts/lib/browser.mjs'

const started = Date.now()
// Once here, before the clock of the tests starts: a fresh CI machine installs it with apt-get.
try {
  ensureChromium()
} catch (error) {
  console.error(error.message)
  console.log('browser: 0 passed, 1 failed')
  process.exit(1)
}

const here = fileURLToPath(new URL('.', import.meta.url))
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .map((f) => join(here, f))

let passed = 0
let failed = 0
let skipped = 0
// Nothing may hang CI: the whole run is bounded as well as every wait inside it.
const stream = run({ files, timeout: 150_000 })
stream.on('test:pass', (data) => {
  if (data.details?.type === 'suite') return
  // A skipped test passed nothing.
  if (data.skip || data.todo) skipped++
  else passed++
})
stream.on('test:fail', (data) => {
  if (data.details?.type !== 'suite') failed++
})
const report = stream.compose(spec)
report.pipe(process.stdout, { end: false })
report.on('end', () => {
  console.log(`browser run took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (skipped > 0) console.log(`browser: ${skipped} skipped`)
  // The closing line, whatever the reporter printed above it.
  console.log(`browser: ${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0
})
