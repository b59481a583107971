// `npm run test:contract [-- --runtime workers]`: runs the HTTP contract suite with Node's test
// runner against one runtime (CONTRACT_RUNTIME, `workers` unless set) and ends with the plain line
// CI reads: `contract-<runtime>: N passed, N failed` (one word before the colon).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { RUNTIMES } from './runtimes.mjs'

const { values } = parseArgs({ options: { runtime: { type: 'string' } } })
const runtime = values.runtime ?? process.env.CONTRACT_RUNTIME ?? 'workers'
if (!RUNTIMES[runtime]) {
  console.error(`Unknown runtime "${runtime}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  process.exit(2)
}
// The test files run in child processes, which read the runtime from here.
process.env.CONTRACT_RUNTIME = runtime

const here = fileURLToPath(new URL('.', import.meta.url))
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .map((f) => join(here, f))

let passed = 0
let failed = 0
const started = Date.now()
// Nothing may hang CI: the whole run is bounded as well as every wait inside it.
const stream = run({ files, timeout: 240_000 })
stream.on('test:pass', (data) => {
  // A skipped test (its first half failed, or a name pattern left it out) passed nothing.
  if (data.details?.type !== 'suite' && !data.skip && !data.todo) passed++
})
stream.on('test:fail', (data) => {
  if (data.details?.type !== 'suite') failed++
})
const report = stream.compose(spec)
report.pipe(process.stdout, { end: false })
report.on('end', () => {
  console.log(`contract run took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  // The closing line, whatever the reporter printed above it.
  console.log(`contract-${runtime}: ${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0
})
