// `npm run test:contract [-- --runtime workers]`: runs the HTTP contract suite with Node's test
// runner against one runtime (CONTRACT_RUNTIME, `workers` unless set) and ends with the plain line
// CI reads: `contract-<runtime>: N passed, N failed` (one word before the colon).
import { parseArgs } from 'node:util'
import { runSuite } from '../scripts/lib/test-run.mjs'
import { RUNTIMES } from './runtimes.mjs'

const { values } = parseArgs({ options: { runtime: { type: 'string' } } })
const runtime = values.runtime ?? process.env.CONTRACT_RUNTIME ?? 'workers'
if (!RUNTIMES[runtime]) {
  console.error(`Unknown runtime "${runtime}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  process.exit(2)
}
// The test files run in child processes, which read the runtime from here.
process.env.CONTRACT_RUNTIME = runtime

runSuite({ folder: new URL('.', import.meta.url), label: `contract-${runtime}`, timeout: 240_000 })
