// `npm run bench:sync`: syncs 20,000 upstream contests (a synthetic Codeforces contest.list served on
// loopback) through the real adapter and sync job under `wrangler dev`, three times: into an empty
// catalogue, unchanged, and with 1% changed. Reports time and D1 rows written; figures go to
// docs/performance.md.
import { createServer } from 'node:http'
import { rmSync } from 'node:fs'
import { startDevServer, wrangler } from './lib/dev-server.mjs'
import { replaceSection } from './lib/performance-doc.mjs'

const COUNT = Number(process.env.BENCH_SYNC_CONTESTS ?? 20_000)
const PORT = Number(process.env.BENCH_PORT ?? 8792)
const STATE = '.wrangler/bench-sync-state'
const ADMIN = 'bench-admin@localhost.test'

/** contest.list in Codeforces' shape; `changed` shifts every hundredth contest's start. */
function contestList(now, changed) {
  const result = []
  for (let i = 0; i < COUNT; i++) {
    // Within the retention window, so every contest is kept: from 80 days ago to 80 days ahead.
    const start = Math.floor(now / 1000) + Math.round(((i / COUNT) * 160 - 80) * 86_400)
    const shift = changed && i % 100 === 0 ? 600 : 0
    result.push({
      id: 100_000 + i,
      name: `Codeforces Round ${1000 + i} (Div. ${(i % 4) + 1})`,
      type: i % 50 === 0 ? 'ICPC' : 'CF',
      phase: start * 1000 > now ? 'BEFORE' : 'FINISHED',
      frozen: false,
      durationSeconds: 7200,
      startTimeSeconds: start + shift,
      relativeTimeSeconds: Math.floor(now / 1000) - start,
    })
  }
  return JSON.stringify({ status: 'OK', result })
}

async function postJson(url, body, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`)
  return res.json()
}

/**
 * Signs the bootstrap admin up and verifies the address in the sign-up's session, which is what
 * grants the admin role.
 */
async function signUpAdmin(base) {
  const signup = await postJson(`${base}/auth/signup`, {
    email: ADMIN,
    password: 'bench-password-123',
    name: 'Bench Admin',
  })
  const { messages } = await (await fetch(`${base}/dev/outbox`)).json()
  const mail = messages.find((m) => [m.to].flat().includes(ADMIN))
  const code = mail?.text?.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error('no verification code for the bench admin in the local outbox')
  const verify = `${base}/auth/verify-email`
  const { accessToken, user } = await postJson(verify, { email: ADMIN, code }, signup.accessToken)
  if (user.role !== 'admin') throw new Error(`the bench admin is ${user.role}, not admin`)
  return accessToken
}

async function main() {
  const now = Date.now()
  let changed = false
  const upstream = createServer((req, res) => {
    req.resume()
    if (req.url?.startsWith('/codeforces/api/contest.list')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(contestList(now, changed))
    } else res.writeHead(404).end()
  })
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`

  rmSync(STATE, { recursive: true, force: true })
  wrangler(`d1 migrations apply DB --local --persist-to ${STATE}`)
  const server = await startDevServer({
    port: PORT,
    persistTo: STATE,
    vars: {
      RATE_LIMIT_DISABLED: 'true',
      BOOTSTRAP_ADMIN_EMAILS: ADMIN,
      // The admin role needs a verified address; the code is read back from the local outbox.
      DEV_OUTBOX: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      CODEFORCES_API_URL: `${upstreamUrl}/codeforces/api`,
    },
  })
  const rows = []
  try {
    const accessToken = await signUpAdmin(server.base)
    const runs = [
      ['into an empty catalogue', false],
      ['again, nothing changed', false],
      ['again, 1% of start times changed', true],
    ]
    for (const [label, change] of runs) {
      changed = change
      const started = performance.now()
      const res = await fetch(`${server.base}/contests/sync/codeforces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}` },
      })
      const wallMs = Math.round(performance.now() - started)
      const body = await res.json()
      const r = body.results?.[0]
      if (!r || r.error) throw new Error(`sync failed: ${JSON.stringify(body)}`)
      const written = r.created + r.updated + r.rescheduled
      console.log(
        `${label}: ${wallMs} ms, created ${r.created}, updated ${r.updated}, unchanged ${r.unchanged}, rows written ${written}`,
      )
      rows.push(
        `| ${label} | ${wallMs} | ${r.durationMs} | ${r.created} | ${r.updated} | ${r.unchanged} | ${written} |`,
      )
    }
  } finally {
    server.stop()
    upstream.close()
  }
  replaceSection('sync', [
    `Run of ${new Date(now).toISOString()}: ${COUNT} upstream contests (synthetic Codeforces contest.list on loopback), ` +
      '`POST /contests/sync/codeforces` under `wrangler dev` (local D1).',
    '',
    '| run | wall ms | job ms | created | updated | unchanged | D1 rows written |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ])
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
