// The HTTP contract of GET /status and /status.json: a platform whose source breaks opens its
// incident through the admin sync, and a channel whose provider refuses every send (the Resend
// stand-in answering 422) fails its deliveries, which the scheduler's watchdog opens an incident
// for; both pages show them, then their recovery (the stand-in healthy again, a sync, reminders
// sent, the watchdog's next look) with each incident ended. Both pages come from one read a
// minute, keyed by the catalogue version: every step here that must be seen at once ends with a
// sync that changed the catalogue (a state or a new contest), as a real change does, and each
// answer's generatedAt proves it was read after that step. Its own service and stand-in.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RUNTIME, startFlow } from './flow.mjs'
import { newCredentials, verifiedAccount, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'contract-status-admin@contract.example.test'
const CONTEST_LIST = '/codeforces-api/contest.list'
const SCHEDULER_CRON = '*/30 * * * *'
// The watchdog's line (notifications/delivery/delivery-stats.ts): more than 20% of at least 20
// outcomes in the hour failed. 25 failed opens it; 100 sent after them bring the share to 20%.
const FAILED_SENDS = 25
const HEALING_SENDS = 100

let standIn
let service
let api
let admin
let user

// Polls of the queue's sends under wrangler dev take the most: a flow stays within two minutes.
const FLOW = { timeout: 120_000 }

/**
 * Codeforces' contest.list on the stand-in: contests starting within the hour, so each is due a
 * reminder at once for a follower with an hour's lead time.
 */
const contests = []
function addContests(count) {
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < count; i++) {
    const n = contests.length + 1
    // 20 to 50 minutes ahead: within the lead time, and upcoming for the whole flow.
    const start = now + 20 * 60 + (n % 30) * 60
    contests.push({
      id: 3_100 + n,
      name: `Status Round ${n} (Div. 3)`,
      type: 'CF',
      phase: 'BEFORE',
      frozen: false,
      durationSeconds: 7_200,
      startTimeSeconds: start,
      relativeTimeSeconds: now - start,
    })
  }
}

const answerContestList = (response) =>
  standIn.script({
    method: 'GET',
    pathPrefix: CONTEST_LIST,
    query: { gym: 'false' },
    responses: [{ headers: { 'content-type': 'application/json' }, ...response }],
  })

const healthyList = () =>
  answerContestList({ status: 200, body: { status: 'OK', result: [...contests] } })

/** Resend refuses every email (422, a permanent failure), or (false) answers as usual again. */
const resendRefuses = (refusing) =>
  standIn.script({
    method: 'POST',
    pathPrefix: '/resend/emails',
    responses: [],
    ...(refusing && {
      failRate: 1,
      failure: { status: 422, body: { statusCode: 422, message: 'scripted refusal' } },
    }),
  })

/** The admin sync of Codeforces; answers its result. */
async function syncCodeforces() {
  const res = await api.post('/contests/sync/codeforces', undefined, { token: admin.accessToken })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.results[0]
}

/** How many of the user's notifications have `status`. */
async function countOf(status) {
  const res = await api.get(`/notifications/notifications?status=${status}&limit=1`, {
    token: user.accessToken,
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.pagination.total
}

/** Waits until `count` of the user's notifications have `status`, and none is left pending. */
async function settled(status, count) {
  await waitFor(
    `${count} ${status} notifications`,
    async () => (await countOf(status)) === count && (await countOf('PENDING')) === 0,
    {
      timeoutMs: 60_000,
      intervalMs: 500,
      describe: async () => ({
        [status]: await countOf(status),
        PENDING: await countOf('PENDING'),
      }),
    },
  )
}

/** /status.json, read after `since` (not a read shared from before it). */
async function statusJson(since) {
  const res = await api.get('/status.json')
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.ok(
    Date.parse(res.body.generatedAt) >= since,
    `read at ${res.body.generatedAt}, after ${new Date(since).toISOString()}`,
  )
  return res.body
}

/** /status's HTML. */
async function statusPage() {
  const res = await fetch(`${service.base}/status`)
  assert.equal(res.status, 200)
  return res.text()
}

const emailOf = (status) => status.deliveries.channels.find((c) => c.channel === 'email')
const codeforcesOf = (status) => status.platforms.find((p) => p.id === 'codeforces')
const incidentOf = (status, subject) => status.incidents.find((i) => i.subject === subject)
/** The page's line of an incident, or undefined. */
const incidentLine = (html, subject) =>
  new RegExp(`<li data-scope="[a-z]+" data-subject="${subject}" data-open="(yes|no)">(.*?)</li>`)
    .exec(html)
    ?.slice(1)

describe(`status contract (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'status',
    admin: { email: ADMIN_EMAIL, name: 'Contract Status Admin' },
    async ready(flow) {
      ;({ standIn, service, api, admin } = flow)
      assert.equal(admin.user.role, 'admin')
      // The admin follows a platform nothing here lists, so every reminder is the user's.
      const quiet = await api.put(
        '/users/profile',
        { preferences: { platforms: ['kattis'], alertFrequency: 'immediate' } },
        { token: admin.accessToken },
      )
      assert.equal(quiet.status, 200, JSON.stringify(quiet.body))
      user = await verifiedAccount(api, standIn, newCredentials('status'))
      const follows = await api.put(
        '/users/profile',
        {
          preferences: {
            platforms: ['codeforces'],
            alertFrequency: 'immediate',
            notificationChannels: { email: true },
            notifyBefore: 1,
          },
        },
        { token: user.accessToken },
      )
      assert.equal(follows.status, 200, JSON.stringify(follows.body))
    },
  })

  test(
    'a healthy service: Codeforces ok, no incident, status ok',
    FLOW,
    noted(async () => {
      addContests(1)
      await healthyList()
      const since = Date.now()
      const synced = await syncCodeforces()
      assert.equal(synced.state, 'ok', JSON.stringify(synced))
      const status = await statusJson(since)
      assert.equal(status.status, 'ok', JSON.stringify(status))
      assert.equal(codeforcesOf(status).state, 'ok')
      assert.equal(codeforcesOf(status).upcoming, 1)
      assert.deepEqual(status.incidents, [])
      const html = await statusPage()
      assert.match(html, /<p id="no-incidents">None\.<\/p>/)
      assert.match(html, /data-status="ok"/)
    }),
  )

  test(
    'a broken platform and a channel whose sends all fail show as incidents on both pages',
    FLOW,
    noted(async () => {
      // The reminders of the contests to come all fail at Resend.
      await resendRefuses(true)
      addContests(FAILED_SENDS - 1)
      await healthyList()
      assert.equal((await syncCodeforces()).created, FAILED_SENDS - 1)
      await service.fireCron(SCHEDULER_CRON)
      await settled('FAILED', FAILED_SENDS)
      // The scheduler's watchdog looks at the last hour's deliveries first.
      await service.fireCron(SCHEDULER_CRON)

      // Codeforces answers without its result: degraded, its incident opened.
      await answerContestList({ status: 200, body: { status: 'OK' } })
      const since = Date.now()
      const broken = await syncCodeforces()
      assert.equal(broken.state, 'degraded', JSON.stringify(broken))

      const status = await statusJson(since)
      assert.equal(status.status, 'degraded')
      assert.equal(codeforcesOf(status).state, 'degraded')
      assert.equal(codeforcesOf(status).upcoming, FAILED_SENDS, 'its contests are kept')
      const platform = incidentOf(status, 'codeforces')
      assert.deepEqual(
        { ...platform, startedAt: typeof platform?.startedAt },
        {
          scope: 'platform',
          subject: 'codeforces',
          name: 'Codeforces',
          kind: 'degraded',
          startedAt: 'string',
        },
      )
      assert.ok(Date.parse(platform.startedAt) >= since)
      const deliveries = incidentOf(status, 'deliveries')
      assert.ok(deliveries, JSON.stringify(status.incidents))
      assert.equal(deliveries.scope, 'service')
      assert.equal(deliveries.kind, 'failing')
      assert.equal(deliveries.endedAt, undefined)
      assert.match(
        deliveries.detail,
        new RegExp(`email: ${FAILED_SENDS} of ${FAILED_SENDS} attempts failed in the last hour`),
      )
      assert.deepEqual(
        { sent: emailOf(status).sent, failed: emailOf(status).failed },
        { sent: 0, failed: FAILED_SENDS },
      )

      const html = await statusPage()
      assert.match(html, /data-status="degraded"/)
      assert.match(html, /<li data-platform="codeforces" data-state="degraded">/)
      const [open, line] = incidentLine(html, 'codeforces') ?? []
      assert.equal(open, 'yes', html)
      assert.match(line, /<strong>Codeforces<\/strong>: degraded, from <time/)
      assert.match(line, /\(ongoing\)/)
      assert.equal(incidentLine(html, 'deliveries')?.[0], 'yes')
      assert.match(
        html,
        new RegExp(`data-channel="email"><strong>Email</strong>: <span class="sent">0</span> sent`),
      )
      assert.match(html, new RegExp(`<span class="failed">${FAILED_SENDS}</span> failed`))
    }),
  )

  test(
    'their recovery: the platform heals at the next sync, sends succeed, both incidents end',
    FLOW,
    noted(async () => {
      await resendRefuses(false)
      addContests(HEALING_SENDS)
      await healthyList()
      const healedAt = Date.now()
      const healed = await syncCodeforces()
      assert.equal(healed.state, 'ok', JSON.stringify(healed))
      assert.equal(healed.created, HEALING_SENDS)
      const during = await statusJson(healedAt)
      assert.equal(codeforcesOf(during).state, 'ok')
      assert.ok(incidentOf(during, 'codeforces').endedAt, 'the platform’s incident ended')
      assert.equal(incidentOf(during, 'deliveries').endedAt, undefined, 'not yet healed')
      assert.equal(during.status, 'degraded', 'an incident is still open')

      await service.fireCron(SCHEDULER_CRON)
      await settled('SENT', HEALING_SENDS)
      // 25 failed of 125 in the hour: the watchdog's next look closes the incident.
      await service.fireCron(SCHEDULER_CRON)
      // A new contest listed: the sync changes the catalogue, so the pages read again.
      addContests(1)
      await healthyList()
      const since = Date.now()
      assert.equal((await syncCodeforces()).created, 1)

      const status = await statusJson(since)
      assert.equal(status.status, 'ok', JSON.stringify(status.incidents))
      const platform = incidentOf(status, 'codeforces')
      assert.ok(Date.parse(platform.endedAt) >= healedAt)
      assert.ok(Date.parse(platform.endedAt) > Date.parse(platform.startedAt))
      const deliveries = incidentOf(status, 'deliveries')
      assert.ok(Date.parse(deliveries.endedAt) > Date.parse(deliveries.startedAt))
      assert.deepEqual(
        { sent: emailOf(status).sent, failed: emailOf(status).failed },
        { sent: HEALING_SENDS, failed: FAILED_SENDS },
      )
      assert.equal(typeof emailOf(status).medianDelaySeconds, 'number')

      const html = await statusPage()
      assert.match(html, /data-status="ok"/)
      assert.match(html, /<li data-platform="codeforces" data-state="ok">/)
      for (const subject of ['codeforces', 'deliveries']) {
        const [open, line] = incidentLine(html, subject) ?? []
        assert.equal(open, 'no', `${subject}: ${html}`)
        assert.match(line, /from <time[^>]*>[^<]+<\/time> to <time/)
        assert.doesNotMatch(line, /ongoing/)
      }
      assert.match(html, new RegExp(`<span class="sent">${HEALING_SENDS}</span> sent`))
    }),
  )
})
