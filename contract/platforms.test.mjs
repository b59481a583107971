// The HTTP contract of a platform whose source breaks: through the admin sync of one platform, a
// schema break, an empty answer and half the contests gone mark it degraded, a stalled answer
// failing, 403 and 429 blocked; stored contests stay, GET /platforms shows the state, each
// incident is told once (one platform.degraded delivery, one admin email) and its healing once
// (platform.recovered). With clist.by configured, a platform whose own source fails is listed from
// clist.by under its own contest ids until it heals, and a long-tail platform syncs from clist.by
// alone. Its own service and stand-in, so no other flow sees these platforms.
// Codeforces Gym and Codeforces share contest.list (gym=true and gym=false), served here with
// times relative to the real clock, at which the service syncs; clist.by's answers likewise.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { describe, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { RUNTIME, startFlow } from './flow.mjs'
import { holds, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'contract-platforms-admin@contract.example.test'
const CONTEST_LIST = '/codeforces-api/contest.list'
const CLIST_KEY = 'contract:key'
const CLIST_CONTESTS = '/clist/contest/'
// The service gives up on an upstream after 15 s (UPSTREAM_TIMEOUT_MS); the stand-in answers later.
const STALLED_MS = 16_000

let standIn
let service
let api
let admin
let hook

const FLOW = { timeout: 60_000 }
// Two syncs of 15 s each and the rest of a flow: about 40 s under wrangler dev, 36 s on Deno.
const STALLED_FLOW = { timeout: 120_000 }

/** Scripts the stand-in's answer to `pathPrefix` (and `query`), as JSON unless it says. */
const scripted = (pathPrefix, query, response) =>
  standIn.script({
    method: 'GET',
    pathPrefix,
    query,
    responses: [{ headers: { 'content-type': 'application/json' }, ...response }],
  })

/** The clist.by contests of `resource` the service asked for. */
const clistRequests = async (resource) =>
  (await standIn.requests(CLIST_CONTESTS)).filter(
    (r) => new URL(r.path, standIn.url).searchParams.get('resource') === resource,
  )

/** An instant as clist.by writes it: UTC without an offset. */
const naiveUtc = (ms) => new Date(ms).toISOString().slice(0, 19)

/** One page of clist.by API v4's /contest/ answer holding `objects`, the last page. */
const clistPage = (objects) => ({
  meta: {
    estimated_count: objects.length,
    limit: 1000,
    next: objects.length ? '/api/v4/contest/?order_by=start&limit=1000&offset=1000' : null,
    offset: 0,
    previous: null,
    total_count: null,
  },
  objects,
})

/** A contest as clist.by lists it. */
const clistContest = ({ id, resourceId, resource, event, href, startMs, durationSeconds }) => ({
  duration: durationSeconds,
  end: naiveUtc(startMs + durationSeconds * 1000),
  event,
  host: resource,
  href,
  id,
  n_problems: null,
  n_statistics: null,
  parsed_at: null,
  problems: null,
  resource,
  resource_id: resourceId,
  start: naiveUtc(startMs),
})

/**
 * One platform's contest.list on the stand-in. Every healthy answer lists one contest more than
 * the last, so each healthy sync writes and replaces the catalogue version: GET /platforms and the
 * contest lists are cached for a minute under that version, and each state is read first after it.
 */
function contestList(platform, name) {
  const gym = platform === 'codeforces-gym'
  const resource = gym ? 'codeforces.com/gyms' : 'codeforces.com'
  const contests = []
  const answer = (response) => scripted(CONTEST_LIST, { gym: String(gym) }, response)
  /** A new contest, days ahead, added to the list without answering it yet. */
  function add() {
    const now = Math.floor(Date.now() / 1000)
    const n = contests.length + 1
    const start = now - (now % 3600) + (n + 1) * 86_400
    const contest = {
      id: (gym ? 106_300 : 2_300) + n,
      name: gym ? `Contract Gym Mirror ${n}` : `Contract Round ${n} (Div. 2)`,
      type: gym ? 'ICPC' : 'CF',
      phase: 'BEFORE',
      frozen: false,
      durationSeconds: gym ? 18_000 : 7_200,
      startTimeSeconds: start,
      relativeTimeSeconds: now - start,
    }
    contests.push(contest)
    return contest
  }
  return {
    platform,
    name,
    contests,
    answer,
    add,
    /** Lists a new contest, days ahead, with the earlier ones (their times as first listed). */
    grow() {
      add()
      return answer({ status: 200, body: { status: 'OK', result: [...contests] } })
    },
    ids: () => contests.map((c) => String(c.id)).sort(),
    /** What the service asked of this platform's list. */
    requests: async () =>
      (await standIn.requests(CONTEST_LIST)).filter((r) => r.path.includes(`gym=${gym}`)),
    /** clist.by's answer for this platform's resource. */
    clist: (response) => scripted(CLIST_CONTESTS, { resource }, response),
    clistRequests: () => clistRequests(resource),
  }
}

let gym
let rounds

/** The admin sync of one platform; answers its result. */
async function syncNow(platform) {
  const res = await api.post(`/contests/sync/${platform}`, undefined, { token: admin.accessToken })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.body.results.length, 1)
  assert.equal(res.body.results[0].platform, platform)
  return res.body.results[0]
}

/** A catalogue read that must not be a cached answer from before the last sync. */
async function freshGet(path) {
  const res = await api.get(path)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.headers.get('x-cache'), 'MISS', `${path} is read fresh`)
  return res.body
}

/** The platform as GET /platforms shows it. */
async function shown(platform) {
  const entry = (await freshGet('/platforms')).find((p) => p.id === platform)
  assert.ok(entry, `GET /platforms lists ${platform}`)
  return entry
}

/** The platformIds of the platform's stored, active contests. */
async function stored(platform) {
  const contests = await freshGet(`/contests/platform/${platform}?limit=100`)
  return contests.map((c) => c.platformId).sort()
}

/** Deliveries the receiver got of `type` about `platform` (signatures checked on arrival). */
const told = (platform, type) =>
  hook.received.filter((p) => p.type === type && p.data?.id === platform)

/** Delivery rows the service made of `type` about `platform`, delivered or not. */
async function deliveryRows(platform, type) {
  const res = await api.get(`/webhooks/${hook.id}/deliveries?limit=100`, {
    token: admin.accessToken,
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.data.filter((d) => d.eventType === type && d.payload.data?.id === platform)
}

/** The incident emails about `list`'s platform alone. */
const incidentMails = async (list) =>
  (await standIn.mailsTo(ADMIN_EMAIL)).filter(
    ({ message }) => message.subject === `[Contest Alerts] Platform sync incident: ${list.name}`,
  )

/** Waits until `count` deliveries of `type` about `platform` arrived, and fails on more. */
async function expectTold(platform, type, count) {
  const enough = () => told(platform, type).length >= count
  await waitFor(`${count} ${type} deliveries about ${platform}`, enough, {
    describe: () => told(platform, type),
  })
  assert.equal(told(platform, type).length, count)
  assert.equal((await deliveryRows(platform, type)).length, count)
  assert.deepEqual(hook.errors, [], 'every delivery carries a valid signature')
}

/** What has been told of `list`'s platform so far. */
async function toldSoFar(list) {
  return {
    degraded: told(list.platform, 'platform.degraded').length,
    recovered: told(list.platform, 'platform.recovered').length,
    mails: (await incidentMails(list)).length,
  }
}

/** A healthy sync listing one contest more: state ok, the new contest created. */
async function healthySync(list) {
  await list.grow()
  const result = await syncNow(list.platform)
  assert.equal(result.state, 'ok', JSON.stringify(result))
  assert.equal(result.source, 'own')
  assert.equal(result.created, 1)
  assert.equal(result.error, undefined)
}

/**
 * A healthy sync, then `breakIt` and a sync: the state and reason it gives, the contests kept,
 * GET /platforms, one delivery and one admin email; then a second broken sync that tells nothing
 * more. Answers what was told before, for the caller's recovery.
 */
async function breaks(list, { breakIt, state, reason }) {
  // Every broken sync asks clist.by too; down here, so these flows see the own source's breakage
  // alone (the fallback's flows have it answer).
  await list.clist({ status: 503, body: { error: 'Service Unavailable' } })
  await healthySync(list)
  const before = await toldSoFar(list)
  const kept = list.ids()

  await breakIt()
  const result = await syncNow(list.platform)
  assert.equal(result.state, state, JSON.stringify(result))
  assert.equal(result.source, 'own')
  assert.match(result.error ?? '', reason)
  assert.equal(result.created, 0)
  assert.equal(result.cancelled, 0, 'a broken answer cancels nothing')

  const entry = await shown(list.platform)
  assert.equal(entry.state, state)
  assert.equal(entry.source, 'own')
  assert.equal(entry.enabled, true)
  assert.equal(entry.upcoming, kept.length, 'the stored contests still count as upcoming')
  assert.equal(entry.stale, false, 'a recent success is not stale')
  assert.ok(entry.lastSuccess && entry.lastAttempt, JSON.stringify(entry))
  assert.ok(Date.parse(entry.lastAttempt) >= Date.parse(entry.lastSuccess))
  assert.deepEqual(await stored(list.platform), kept, 'every stored contest is kept')

  await expectTold(list.platform, 'platform.degraded', before.degraded + 1)
  const [event] = told(list.platform, 'platform.degraded').slice(-1)
  assert.equal(event.data.state, state)
  assert.match(event.data.reason, reason)
  const mails = await waitFor('the incident email', async () => {
    const found = await incidentMails(list)
    return found.length > before.mails && found
  })
  assert.equal(mails.length, before.mails + 1, 'one email per incident')
  assert.match(mails.at(-1).message.text, new RegExp(`${list.name}: ${state}`))

  // The incident goes on: not told again.
  const again = await syncNow(list.platform)
  assert.equal(again.state, state, JSON.stringify(again))
  assert.equal((await deliveryRows(list.platform, 'platform.degraded')).length, before.degraded + 1)
  await holds(
    'one delivery and one email for the incident',
    async () =>
      told(list.platform, 'platform.degraded').length === before.degraded + 1 &&
      (await incidentMails(list)).length === before.mails + 1,
  )
  return before
}

/** A healthy sync after an incident: ok on GET /platforms, platform.recovered once, no email. */
async function heals(list, before) {
  await healthySync(list)
  const entry = await shown(list.platform)
  assert.equal(entry.state, 'ok')
  assert.equal(entry.source, 'own')
  assert.equal(entry.upcoming, list.contests.length)
  assert.deepEqual(await stored(list.platform), list.ids())
  await expectTold(list.platform, 'platform.recovered', before.recovered + 1)
  const [event] = told(list.platform, 'platform.recovered').slice(-1)
  assert.equal(event.data.state, 'ok')
  assert.equal(event.data.reason, undefined)
  // A second healthy sync (the same answer) closes nothing.
  assert.equal((await syncNow(list.platform)).state, 'ok')
  assert.equal(
    (await deliveryRows(list.platform, 'platform.recovered')).length,
    before.recovered + 1,
  )
  await holds(
    'one recovery delivery and no email',
    async () =>
      told(list.platform, 'platform.recovered').length === before.recovered + 1 &&
      (await incidentMails(list)).length === before.mails + 1,
  )
}

/** A receiver of the platform events, each verified per Standard Webhooks as it arrives. */
async function startReceiver() {
  const received = []
  const errors = []
  let verifier
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      try {
        received.push(verifier.verify(body, req.headers))
      } catch (error) {
        errors.push(error.message)
      }
      res.writeHead(204).end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const made = await api.post(
    '/webhooks',
    {
      url: `http://127.0.0.1:${server.address().port}/hooks/platforms`,
      events: ['platform.degraded', 'platform.recovered'],
      description: 'contract platform receiver',
    },
    { token: admin.accessToken },
  )
  assert.equal(made.status, 201, JSON.stringify(made.body))
  verifier = new Webhook(made.body.secret)
  return {
    id: made.body.id,
    received,
    errors,
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

describe(`contract platforms (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'platforms',
    admin: { email: ADMIN_EMAIL, name: 'Contract Platforms Admin' },
    settings: ({ url }) => ({ CLIST_API_KEY: CLIST_KEY, CLIST_API_URL: `${url}/clist` }),
    async ready(flow) {
      ;({ standIn, service, api, admin } = flow)
      assert.equal(admin.user.role, 'admin')
      hook = await startReceiver()
      gym = contestList('codeforces-gym', 'Codeforces Gym')
      rounds = contestList('codeforces', 'Codeforces')
    },
    stop: () => hook?.close(),
  })

  test(
    'a healthy sync lists the platform’s contests and shows it ok on GET /platforms',
    FLOW,
    noted(async () => {
      await gym.grow()
      await gym.grow()
      const result = await syncNow(gym.platform)
      assert.deepEqual(
        { state: result.state, source: result.source, created: result.created },
        { state: 'ok', source: 'own', created: 2 },
      )
      assert.equal(result.error, undefined)
      const entry = await shown(gym.platform)
      assert.deepEqual(
        { ...entry, lastSuccess: typeof entry.lastSuccess, lastAttempt: typeof entry.lastAttempt },
        {
          id: 'codeforces-gym',
          name: 'Codeforces Gym',
          homeUrl: 'https://codeforces.com/gyms',
          enabled: true,
          upcoming: 2,
          state: 'ok',
          source: 'own',
          stale: false,
          lastSuccess: 'string',
          lastAttempt: 'string',
        },
      )
      assert.equal(entry.lastSuccess, entry.lastAttempt)
      const listed = await freshGet('/contests/platform/codeforces-gym?limit=100')
      assert.deepEqual(
        listed.map((c) => [c.platformId, c.name, c.startTime]),
        gym.contests.map((c) => [
          String(c.id),
          c.name,
          new Date(c.startTimeSeconds * 1000).toISOString(),
        ]),
      )
      const [request] = await gym.requests()
      assert.match(request.path, /^\/codeforces-api\/contest\.list\?gym=true&lang=en$/)
      assert.match(request.headers['user-agent'], /ContestAlertService/)
      // Nothing was broken, so nothing is told.
      assert.deepEqual(await toldSoFar(gym), { degraded: 0, recovered: 0, mails: 0 })
    }),
  )

  test(
    'a failing source falls back to clist.by, which lists under the platform’s own ids, until it heals',
    FLOW,
    noted(async () => {
      await healthySync(rounds)
      const before = await toldSoFar(rounds)
      const asked = (await rounds.clistRequests()).length
      // clist.by lists the stored contest and one the own source has not listed yet (it will).
      const [known] = rounds.contests
      const added = rounds.add()
      const hrefs = [known, added].map((c) => `https://codeforces.com/contest/${c.id}`)
      const entries = [known, added].map((c, i) =>
        clistContest({
          id: 70_000_001 + i,
          resourceId: 1,
          resource: 'codeforces.com',
          event: c.name,
          href: hrefs[i],
          startMs: c.startTimeSeconds * 1000,
          durationSeconds: c.durationSeconds,
        }),
      )
      await rounds.clist({ status: 200, body: clistPage(entries) })
      await rounds.answer({ status: 503, body: '<html>Service Temporarily Unavailable</html>' })

      const result = await syncNow(rounds.platform)
      assert.deepEqual(
        {
          state: result.state,
          source: result.source,
          created: result.created,
          cancelled: result.cancelled,
        },
        { state: 'failing', source: 'clist', created: 1, cancelled: 0 },
        JSON.stringify(result),
      )
      assert.match(result.error ?? '', /HTTP 503/)

      const requests = (await rounds.clistRequests()).slice(asked)
      assert.equal(requests.length, 1, 'one page of clist.by')
      const [request] = requests
      const url = new URL(request.path, standIn.url)
      assert.equal(url.pathname, CLIST_CONTESTS)
      const { end__gt: notEndedBy, ...query } = Object.fromEntries(url.searchParams)
      assert.deepEqual(query, {
        resource: 'codeforces.com',
        order_by: 'start',
        limit: '1000',
        offset: '0',
      })
      // The sync's own moment, as clist writes times (UTC without an offset).
      assert.match(notEndedBy, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
      assert.ok(Math.abs(Date.parse(`${notEndedBy}Z`) - request.at) < 60_000, notEndedBy)
      assert.equal(request.headers.authorization, `ApiKey ${CLIST_KEY}`)
      assert.match(request.headers['user-agent'], /ContestAlertService/)

      const entry = await shown(rounds.platform)
      assert.deepEqual(
        { state: entry.state, source: entry.source, upcoming: entry.upcoming },
        { state: 'failing', source: 'clist', upcoming: 2 },
      )
      const listed = await freshGet(`/contests/platform/${rounds.platform}?limit=100`)
      assert.deepEqual(
        listed.map((c) => [c.platformId, c.name, c.startTime, c.endTime, c.websiteUrl]),
        [known, added].map((c, i) => [
          String(c.id),
          c.name,
          new Date(c.startTimeSeconds * 1000).toISOString(),
          new Date((c.startTimeSeconds + c.durationSeconds) * 1000).toISOString(),
          hrefs[i],
        ]),
      )
      await expectTold(rounds.platform, 'platform.degraded', before.degraded + 1)
      const [event] = told(rounds.platform, 'platform.degraded').slice(-1)
      assert.equal(event.data.state, 'failing')
      assert.equal(event.data.source, 'clist')
      await waitFor('the incident email', async () => {
        return (await incidentMails(rounds)).length > before.mails
      })

      // The own source answers again, listing the contest clist.by added: the same row.
      await heals(rounds, before)
    }),
  )

  test(
    'a long-tail platform is enabled with clist.by configured and syncs from it alone',
    FLOW,
    noted(async () => {
      const platforms = await api.get('/platforms')
      assert.equal(platforms.status, 200)
      const unsynced = platforms.body.find((p) => p.id === 'kattis')
      assert.deepEqual(
        { enabled: unsynced?.enabled, source: unsynced?.source },
        { enabled: true, source: 'clist' },
      )

      const now = Date.now()
      const hour = now - (now % 3_600_000)
      const contests = [
        { key: 'ctr1wk', name: 'Contract Kattis Cup Round 1', days: 2 },
        { key: 'ctr2mp', name: 'Contract Kattis Cup Round 2', days: 9 },
      ].map((c, i) => ({
        ...c,
        href: `https://open.kattis.com/contests/${c.key}`,
        startMs: hour + c.days * 86_400_000,
        endMs: hour + c.days * 86_400_000 + 18_000_000,
        id: 70_100_001 + i,
      }))
      await scripted(
        CLIST_CONTESTS,
        { resource: 'open.kattis.com' },
        {
          status: 200,
          body: clistPage(
            contests.map((c) =>
              clistContest({
                id: c.id,
                resourceId: 87,
                resource: 'open.kattis.com',
                event: c.name,
                href: c.href,
                startMs: c.startMs,
                durationSeconds: 18_000,
              }),
            ),
          ),
        },
      )
      const asked = (await clistRequests('open.kattis.com')).length

      const result = await syncNow('kattis')
      assert.deepEqual(
        { state: result.state, source: result.source, created: result.created },
        { state: 'ok', source: 'clist', created: 2 },
        JSON.stringify(result),
      )
      assert.equal(result.error, undefined)
      const requests = (await clistRequests('open.kattis.com')).slice(asked)
      assert.equal(requests.length, 1)
      assert.equal(requests[0].headers.authorization, `ApiKey ${CLIST_KEY}`)

      const entry = await shown('kattis')
      assert.deepEqual(
        {
          enabled: entry.enabled,
          state: entry.state,
          source: entry.source,
          upcoming: entry.upcoming,
          stale: entry.stale,
        },
        { enabled: true, state: 'ok', source: 'clist', upcoming: 2, stale: false },
      )
      const listed = await freshGet('/contests/platform/kattis?limit=100')
      assert.deepEqual(
        listed.map((c) => [c.platformId, c.name, c.type, c.startTime, c.endTime, c.websiteUrl]),
        contests.map((c) => [
          c.key,
          c.name,
          'OTHER',
          new Date(c.startMs).toISOString(),
          new Date(c.endMs).toISOString(),
          c.href,
        ]),
      )
      assert.deepEqual(told('kattis', 'platform.degraded'), [], 'a healthy sync tells nothing')
    }),
  )

  test(
    'a schema break keeps the contests, shows degraded, is told once and heals',
    FLOW,
    noted(async () => {
      const before = await breaks(gym, {
        breakIt: () => gym.answer({ status: 200, body: { status: 'OK' } }),
        state: 'degraded',
        reason: /no status\/result/,
      })
      await heals(gym, before)
    }),
  )

  test(
    'an empty 200 where the last good sync had contests is degraded, told once, and heals',
    FLOW,
    noted(async () => {
      const before = await breaks(gym, {
        breakIt: () => gym.answer({ status: 200, body: { status: 'OK', result: [] } }),
        state: 'degraded',
        reason: /no upcoming contests where \d+ are stored/,
      })
      await heals(gym, before)
    }),
  )

  test(
    'an answer with more than half the contests gone is degraded, told once, and heals',
    FLOW,
    noted(async () => {
      const before = await breaks(gym, {
        // Fewer than half of the last good answer, but not none.
        breakIt: () => {
          const left = gym.contests.slice(0, Math.ceil(gym.contests.length / 2) - 1)
          assert.ok(left.length > 0)
          return gym.answer({ status: 200, body: { status: 'OK', result: left } })
        },
        state: 'degraded',
        reason: /fewer than half/,
      })
      await heals(gym, before)
    }),
  )

  test(
    'an answer slower than the 15 s upstream timeout is failing, told once, and heals',
    STALLED_FLOW,
    noted(async () => {
      const before = await breaks(gym, {
        breakIt: () =>
          gym.answer({
            status: 200,
            body: { status: 'OK', result: [...gym.contests] },
            delayMs: STALLED_MS,
          }),
        state: 'failing',
        reason: /no answer within 15000 ms/,
      })
      await heals(gym, before)
    }),
  )

  test(
    'a 403 from bot protection is blocked, told once, and not asked again during the backoff',
    FLOW,
    noted(async () => {
      let requests
      await breaks(rounds, {
        breakIt: async () => {
          await rounds.answer({ status: 403, body: '<html>Just a moment...</html>' })
          requests = (await rounds.requests()).length
        },
        state: 'blocked',
        reason: /HTTP 403/,
      })
      // The broken sync asked once; the second one waited out the backoff (an hour at least), so
      // a blocked platform cannot heal within this suite (test/sync-breakage.test.ts moves the
      // clock for that).
      assert.equal((await rounds.requests()).length, requests + 1)
    }),
  )

  // The last flow of Codeforces Gym, which stays blocked for an hour after it.
  test(
    'a 429 is blocked, told once, and not asked again during the backoff',
    FLOW,
    noted(async () => {
      let requests
      await breaks(gym, {
        breakIt: async () => {
          await gym.answer({
            status: 429,
            body: { status: 'FAILED', comment: 'Call limit exceeded' },
          })
          requests = (await gym.requests()).length
        },
        state: 'blocked',
        reason: /Call limit exceeded/,
      })
      assert.equal((await gym.requests()).length, requests + 1)
    }),
  )
})
