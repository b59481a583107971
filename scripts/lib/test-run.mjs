// Runs a folder's *.test.mjs with Node's test runner (the contract and browser suites), prints the
// spec report and ends with the plain line CI reads: `<label>: N passed, N failed`.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { fileURLToPath } from 'node:url'

/**
 * `folder` is a file URL of the suite's folder; `timeout` bounds the whole run (ms); `only`, when
 * given, names the files to run (`results.test.mjs` or `results`), the others are left out.
 */
export function runSuite({ folder, label, timeout, only = [] }) {
  const started = Date.now()
  const here = fileURLToPath(folder)
  const wanted = only.map((f) => (f.endsWith('.test.mjs') ? f : `${f}.test.mjs`))
  const all = readdirSync(here).filter((f) => f.endsWith('.test.mjs'))
  const unknown = wanted.filter((f) => !all.includes(f))
  if (unknown.length > 0) {
    console.error(`${label}: no such test file: ${unknown.join(', ')}; known: ${all.join(', ')}`)
    process.exit(2)
  }
  const files = all
    .filter((f) => wanted.length === 0 || wanted.includes(f))
    .map((f) => join(here, f))
  let passed = 0
  let failed = 0
  let skipped = 0
  // Nothing may hang CI: the whole run is bounded as well as every wait inside it.
  const stream = run({ files, timeout })
  stream.on('test:pass', (data) => {
    if (data.details?.type === 'suite') return
    // A skipped test (its first half failed, or a name pattern left it out) passed nothing.
    if (data.skip || data.todo) skipped++
    else passed++
  })
  stream.on('test:fail', (data) => {
    if (data.details?.type !== 'suite') failed++
  })
  const report = stream.compose(spec)
  report.pipe(process.stdout, { end: false })
  report.on('end', () => {
    console.log(`${label} run took ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (skipped > 0) console.log(`${label}: ${skipped} skipped`)
    // The closing line, whatever the reporter printed above it.
    console.log(`${label}: ${passed} passed, ${failed} failed`)
    process.exitCode = failed > 0 || passed === 0 ? 1 : 0
  })
}
