// `npm run test:contract [-- --runtime workers]`: runs the HTTP contract suite with Node's test
// runner against one runtime (CONTRACT_RUNTIME, `workers` unless set) and ends with the plain line
// CI reads: `contract-<runtime>: N passed, N failed` (one word before the colon).
// `--only <file>` (repeatable, or CONTRACT_ONLY=a,b) runs those files alone, e.g.
// `npm run test:contract -- --runtime deno --only results` for contract/results.test.mjs.
import { parseArgs } from 'node:util'
import { runSuite } from '../scripts/lib/test-run.mjs'
import { RUNTIMES } from './runtimes.mjs'

const { values } = parseArgs({
  options: { runtime: { type: 'string' }, only: { type: 'string', multiple: true } },
})
const runtime = values.runtime ?? process.env.CONTRACT_RUNTIME ?? 'workers'
if (!RUNTIMES[runtime]) {
  console.error(`Unknown runtime "${runtime}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  process.exit(2)
}
// The test files run in child processes, which read the runtime from here.
process.env.CONTRACT_RUNTIME = runtime

const only = values.only ?? (process.env.CONTRACT_ONLY?.split(',').filter(Boolean) || [])
runSuite({
  folder: new URL('.', import.meta.url),
  label: `contract-${runtime}`,
  timeout: 240_000,
  only,
})
