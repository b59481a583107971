// `npm run test:deploy`: the deploy suite (deploy/*.test.mjs) with Node's test runner: `npm run
// deploy` from a fresh clone against the loopback Cloudflare API stand-in, with the real wrangler.
// Ends with the plain line CI reads: `deploy: N passed, N failed`.
import { runSuite } from '../scripts/lib/test-run.mjs'

runSuite({ folder: new URL('.', import.meta.url), label: 'deploy', timeout: 240_000 })
