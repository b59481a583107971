// Result alerts end to end against the recorded Codeforces answers: nothing while ratings are not
// published, then one personal alert per proven handle's account (rank of how many, old -> new,
// delta, a new title) and one friends' summary for those who turned it on; unrated standings; a
// re-calculation told once with the new numbers; exactly one alert per account under two
// concurrent runs, a run that died before marking its rows told, and a redelivered message.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { MINUTE_MS } from '../src/lib/time.ts'
import { notifier } from '../src/notifications/context.ts'
import { sendableAt } from '../src/notifications/delivery/hold.ts'
import { createResultAlerts } from '../src/notifications/scheduling/results.ts'
import { findCheck } from '../src/results/checks.ts'
import { askCheck, consumeResultMessages } from '../src/results/consumer.ts'
import type { QueueMessage } from '../src/ports/queue.ts'
import { notificationsOf, recipient, resetNotifications, testEnv } from './helpers/notifications.ts'
import { runQueue } from './helpers/queue.ts'
import {
  clearResults,
  endedContest,
  hours,
  linkHandle,
  recordingResultsQueue,
  resultsFixture,
  scriptCodeforces,
  serveResults,
  setResultPreferences,
  testResultsDeps,
} from './helpers/results.ts'
import { api, createAdmin, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  holdingQueue,
  localRun,
  receiver,
} from './helpers/webhooks.ts'

let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
  await clearWebhooks()
  await serveResults('codeforces')
})

const db = () => createDb(env.DB)

const RATED_NAME = 'Educational Codeforces Round 186 (Rated for Div. 2)'

/** The first row of the recorded standings, as Codeforces answers for a finished rated round. */
function finishedStandings(contestId: number) {
  const body = resultsFixture('codeforces', 'standings-2290-pending.json')
  body.result.contest = {
    ...body.result.contest,
    id: contestId,
    name: RATED_NAME,
    phase: 'FINISHED',
  }
  return body
}

/** Accounts around round 2289's recorded ratings (rating-changes-2289.json). */
async function people() {
  const ada = await recipient({ name: 'Ada' })
  const bob = await recipient({ name: 'Bob' })
  const carol = await recipient({ name: 'Carol' })
  const dave = await recipient({ name: 'Dave' })
  const erin = await recipient({ name: 'Erin' })
  await linkHandle(ada.id, 'codeforces', 'quokka')
  await linkHandle(bob.id, 'codeforces', 'lynx_dev')
  // Not proven: Carol is told nothing about it.
  await linkHandle(carol.id, 'codeforces', 'Kestrel_09', { relation: 'OWN', state: 'UNPROVEN' })
  // Dave follows two handles and takes the summary; Erin follows one and left it off.
  await linkHandle(dave.id, 'codeforces', 'Petrichor', { relation: 'FRIEND' })
  await linkHandle(dave.id, 'codeforces', 'quokka', { relation: 'FRIEND' })
  await setResultPreferences(dave.id, true, true)
  await linkHandle(erin.id, 'codeforces', 'newcomer_2026', { relation: 'FRIEND' })
  return { ada, bob, carol, dave, erin }
}

async function awaited(platformId: string, name = RATED_NAME) {
  const round = await endedContest('codeforces', platformId, { name })
  await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
    'codeforces',
  ])
  return round
}

const results = (userId: string) =>
  notificationsOf(userId).then((list) => list.filter((n) => n.type === 'CONTEST_RESULT'))

async function stored(contestId: string) {
  const { results: rows } = await env.DB.prepare(
    `SELECT handle, rank, old_rating AS oldRating, new_rating AS newRating, rated,
       told_delta AS toldDelta FROM contest_results WHERE contest_id = ? ORDER BY handle_key`,
  )
    .bind(contestId)
    .all()
  return rows
}

/** Makes the check due again at `at` (a re-check's time, moved for the test). */
const dueAgain = (contestId: string, at: number) =>
  env.DB.prepare('UPDATE result_checks SET next_check_at = ?1 WHERE contest_id = ?2')
    .bind(at, contestId)
    .run()

describe('personal and friends alerts', () => {
  it('tells nothing while ratings are not published, then each proven handle its numbers once', async () => {
    const { ada, bob, carol, dave, erin } = await people()
    const round = await awaited('2289')
    await scriptCodeforces('contest.ratingChanges', '2289', [
      { status: 'OK', result: [] },
      resultsFixture('codeforces', 'rating-changes-2289.json'),
    ])
    await scriptCodeforces('contest.standings', '2289', [finishedStandings(2289)])
    const hook = await receiver([200])
    const held = holdingQueue()
    await createWebhook(
      admin,
      { url: hook.url, events: ['contest.results_published'] },
      localRun(held),
    )
    const e = testEnv(localRun(held))
    const { deps } = testResultsDeps(e)
    const at = (await findCheck(db(), round.id))!.nextCheckAt

    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('pending')
    expect(await stored(round.id)).toEqual([])
    expect(await results(ada.id)).toEqual([])

    const later = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, later)).toBe('published')
    // Linked handles only: proven own ones and friends' (not Kestrel_09, nor unlinked handles).
    expect((await stored(round.id)).map((r: any) => r.handle)).toEqual([
      'lynx_dev',
      'newcomer_2026',
      'Petrichor',
      'quokka',
    ])
    expect(await findCheck(db(), round.id)).toMatchObject({
      state: 'PUBLISHED',
      rated: 1,
      participants: 6,
      publishedAt: later,
    })

    const [adaAlert, ...adaMore] = await results(ada.id)
    expect(adaMore).toEqual([])
    expect(adaAlert.title).toMatch(/^Your result: /)
    expect(adaAlert.title).toContain('1,921 (+28), now Candidate Master')
    expect(adaAlert.message).toContain(
      'quokka: rank 212 of 6, rating 1,893 -> 1,921 (+28), now Candidate Master (was Expert)',
    )
    expect(adaAlert.payload).toMatchObject({
      kind: 'result',
      rated: true,
      participants: 6,
      results: [{ handle: 'quokka', rank: 212, oldRating: 1893, newRating: 1921, delta: 28 }],
    })
    expect(adaAlert.deliveries.map((d: any) => d.channel)).toEqual(['email'])
    // The row keeps its numbers only; the history API shows the words made from them.
    const listed = await api('GET', '/notifications/notifications?type=CONTEST_RESULT', {
      token: ada.accessToken,
    })
    expect(listed.status).toBe(200)
    expect(listed.body.notifications).toHaveLength(1)
    expect(listed.body.notifications[0]).toMatchObject({
      id: adaAlert.id,
      title: adaAlert.title,
      message: adaAlert.message,
      payload: adaAlert.payload,
    })
    const { results: kept } = await env.DB.prepare(
      'SELECT title, message FROM notifications WHERE id = ?',
    )
      .bind(adaAlert.id)
      .all()
    expect(kept).toEqual([{ title: '', message: '' }])
    const [bobAlert] = await results(bob.id)
    // A title lost is a title changed too.
    expect(bobAlert.message).toContain(
      'lynx_dev: rank 5,830 of 6, rating 1,912 -> 1,874 (-38), now Expert (was Candidate Master)',
    )

    expect(await results(carol.id)).toEqual([])
    expect(await results(erin.id)).toEqual([])
    const [summary, ...moreSummaries] = await results(dave.id)
    expect(moreSummaries).toEqual([])
    expect(summary.payload.kind).toBe('friends-results')
    expect(summary.title).toContain('2 friends in')
    // Best rank first, with their deltas.
    expect(summary.message).toContain(
      '1. Petrichor: rank 1, 2,187 (+93), now Master; 2. quokka: rank 212, 1,921 (+28), now Candidate Master.',
    )
    // Every row is marked told with its delta.
    expect((await stored(round.id)).map((r: any) => r.toldDelta)).toEqual([-38, 364, 93, 28])
    // The deliveries went to the notifications queue.
    expect(e.NOTIFICATIONS_QUEUE.bodies.flatMap((b: any) => b.deliveryIds)).toHaveLength(3)
    // contest.results_published, once.
    const { results: events } = await env.DB.prepare(
      `SELECT payload FROM webhook_deliveries WHERE event_type = 'contest.results_published'`,
    ).all<{ payload: string }>()
    expect(events).toHaveLength(1)
    expect(JSON.parse(events[0].payload).data).toMatchObject({
      platform: 'codeforces',
      participants: 6,
      rated: true,
      contest: { id: round.id },
    })
  })

  it('tells unrated final standings with rank of how many and problems solved', async () => {
    const { ada } = await people()
    // The recorded answers: no rating changes, standings FINISHED, a round named unrated.
    const round = await awaited('2285', 'Innopolis Open, First Qualification (Unrated)')
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    const check = (await findCheck(db(), round.id))!
    expect(check).toMatchObject({ state: 'PUBLISHED', rated: 0 })
    const [alert] = await results(ada.id)
    expect(alert.message).toMatch(
      new RegExp(`quokka: rank 4 of ${check.participants}, \\d+ solved\\.$`),
    )
    expect(alert.message).toContain('(unrated)')
    expect(alert.payload.results[0].delta).toBeUndefined()
    expect((await stored(round.id)).find((r: any) => r.handle === 'quokka')).toMatchObject({
      rated: 0,
      toldDelta: 0,
    })
  })

  it('tells a re-calculation once, with the new numbers, and only to those whose delta changed', async () => {
    const { ada, bob, dave } = await people()
    const round = await awaited('2289')
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    const first = (await findCheck(db(), round.id))!
    // The re-check a day later finds the ratings re-calculated (a cheater removed).
    await scriptCodeforces('contest.ratingChanges', '2289', [
      resultsFixture('codeforces', 'rating-changes-2289-recalculated.json'),
    ])
    const recheck = first.nextCheckAt
    expect(recheck - first.publishedAt!).toBe(24 * 60 * MINUTE_MS)
    expect(await askCheck(deps, { contestId: round.id }, recheck)).toBe('published')
    const after = (await findCheck(db(), round.id))!
    expect(after.resultsDigest).not.toBe(first.resultsDigest)
    expect(after.publishedAt).toBe(first.publishedAt)

    const adaAlerts = await results(ada.id)
    expect(adaAlerts).toHaveLength(2)
    expect(adaAlerts[1].title).toContain('Results recalculated')
    expect(adaAlerts[1].message).toContain('rating 1,893 -> 1,922 (+29)')
    expect(adaAlerts[1].message).toContain('first told +28')
    // lynx_dev's delta is the same (-38): Bob hears nothing more.
    expect(await results(bob.id)).toHaveLength(1)
    // Dave's friends changed: one more summary, with the new numbers.
    const daveAlerts = await results(dave.id)
    expect(daveAlerts).toHaveLength(2)
    expect(daveAlerts[1].message).toContain('Petrichor: rank 1, 2,188 (+94)')

    // The next re-check finds the same numbers: nothing is told again.
    await dueAgain(round.id, recheck + MINUTE_MS)
    expect(await askCheck(deps, { contestId: round.id }, recheck + MINUTE_MS)).toBe('published')
    expect(await results(ada.id)).toHaveLength(2)
    expect(await results(dave.id)).toHaveLength(2)
  })
})

describe('preferences and quiet hours', () => {
  it('tells nothing to an account that turned its own results off', async () => {
    const { ada, bob } = await people()
    await setResultPreferences(ada.id, false, false)
    const round = await awaited('2289')
    const { deps } = testResultsDeps(testEnv())
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    expect(await results(ada.id)).toEqual([])
    expect(await results(bob.id)).toHaveLength(1)
  })

  it('holds a result inside the quiet hours until they end, though its contest started long ago', () => {
    const recipient = { timezone: 'UTC', quietStart: '22:00', quietEnd: '07:00' }
    const night = Date.parse('2026-11-22T23:30:00Z')
    const morning = Date.parse('2026-11-23T07:00:00Z')
    const start = Date.parse('2026-11-22T14:35:00Z')
    expect(sendableAt({ type: 'CONTEST_RESULT', contestStart: start, recipient }, night)).toBe(
      morning,
    )
    expect(sendableAt({ type: 'CONTEST_RESULT', contestStart: start, recipient }, morning)).toBe(
      morning,
    )
  })
})

describe('exactly once', () => {
  it('makes one alert per account under two concurrent runs, a run that died before marking, and a redelivered message', async () => {
    const { ada, dave } = await people()
    const round = await awaited('2289')
    const e = testEnv()
    const { deps } = testResultsDeps(e)
    const at = (await findCheck(db(), round.id))!.nextCheckAt

    // Two consumers take the same message at once: one holds the check, the other asks nothing.
    const outcomes = await Promise.all([
      askCheck(deps, { contestId: round.id }, at),
      askCheck(deps, { contestId: round.id }, at),
    ])
    expect(outcomes.sort()).toEqual(['not-held', 'published'])
    expect(await results(ada.id)).toHaveLength(1)
    expect(await results(dave.id)).toHaveLength(1)

    // A run that made the alerts and died before marking the rows told: the next run's alerts
    // meet the unique keys, and two of them at once make nothing either.
    await env.DB.prepare('UPDATE contest_results SET told_delta = NULL WHERE contest_id = ?')
      .bind(round.id)
      .run()
    const check = (await findCheck(db(), round.id))!
    const input = {
      contest: round,
      rated: true,
      participants: 6,
      digest: check.resultsDigest!,
      recheck: false,
      now: at,
    }
    const again = await Promise.all([
      createResultAlerts(notifier(e), input),
      createResultAlerts(notifier(e), input),
    ])
    expect(again.map((r) => r.created)).toEqual([0, 0])
    expect(await results(ada.id)).toHaveLength(1)
    expect(await results(dave.id)).toHaveLength(1)
    expect((await stored(round.id)).every((r: any) => r.toldDelta !== null)).toBe(true)

    // The same message delivered again, to the consumer and to the Worker's queue() entry.
    const message = (id: string): QueueMessage => ({
      id,
      body: { contestId: round.id },
      attempts: 2,
      ack: () => {},
      retry: () => {},
    })
    expect(await consumeResultMessages(deps, [message('m1')])).toEqual(['not-held'])
    const { result } = await runQueue([{ contestId: round.id }], redelivery(e), {
      queue: 'results',
      attempts: 2,
    })
    expect(result.explicitAcks).toHaveLength(1)
    expect(await results(ada.id)).toHaveLength(1)
    expect(await results(dave.id)).toHaveLength(1)
  })
})

describe('a run that never reached the queue', () => {
  it('queues its untouched deliveries on the retry, and nothing a consumer already holds', async () => {
    const { ada, bob, dave } = await people()
    const round = await awaited('2289')
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    const failing = testEnv()
    failing.NOTIFICATIONS_QUEUE.sendBatch = async () => {
      throw new Error('queue unavailable')
    }
    const { deps } = testResultsDeps(failing)
    await expect(askCheck(deps, { contestId: round.id }, at)).rejects.toThrow('queue unavailable')
    // The alerts and their deliveries were made (marked queued, so the stranded sweep skips
    // them), and the check is still due: its message comes back.
    const bobsAlerts = await results(bob.id)
    const made = [...(await results(ada.id)), ...bobsAlerts, ...(await results(dave.id))]
    expect(made).toHaveLength(3)
    expect((await findCheck(db(), round.id))!.state).not.toBe('PUBLISHED')
    const deliveryIds = await deliveriesOf(made.map((n) => n.id))
    expect(deliveryIds.length).toBeGreaterThan(0)

    // A consumer already holds Bob's: only Ada's and Dave's summary are queued again.
    const bobs = await deliveriesOf([bobsAlerts[0].id])
    await env.DB.prepare(
      'UPDATE notification_deliveries SET attempts = 1, claimed_until = ?1 WHERE notification_id = ?2',
    )
      .bind(at + 60_000, bobsAlerts[0].id)
      .run()
    const e = testEnv()
    const retry = testResultsDeps(e).deps
    expect(await askCheck(retry, { contestId: round.id }, at + 60_000)).toBe('published')
    const queued = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)
    expect(queued.sort()).toEqual(deliveryIds.filter((id) => !bobs.includes(id)).sort())
    expect(await results(ada.id)).toHaveLength(1)

    // Once they went out, a re-check that finds the same rows queues nothing.
    await env.DB.prepare(
      `UPDATE notification_deliveries SET status = 'SENT', attempts = 1, updated_at = ?1
        WHERE id IN (SELECT value FROM json_each(?2))`,
    )
      .bind(at + 120_000, JSON.stringify(queued))
      .run()
    const again = testEnv()
    await dueAgain(round.id, at + hours(2))
    await askCheck(testResultsDeps(again).deps, { contestId: round.id }, at + hours(2))
    expect(again.NOTIFICATIONS_QUEUE.bodies).toEqual([])
  })
})

async function deliveriesOf(notificationIds: string[]) {
  const { results: rows } = await env.DB.prepare(
    `SELECT id FROM notification_deliveries
      WHERE notification_id IN (SELECT value FROM json_each(?1)) ORDER BY id`,
  )
    .bind(JSON.stringify(notificationIds))
    .all<{ id: string }>()
  return rows.map((r) => r.id)
}

function redelivery(e: Env): Partial<Env> {
  return { ...e, RESULTS_QUEUE: recordingResultsQueue() as any }
}
