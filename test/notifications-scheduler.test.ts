// The half-hourly reminder scheduler driven through scheduled(): who is reminded of what, once,
// over which channels, and how reschedules, paging and crashed runs are handled.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { findContest } from '../src/contests/queries.ts'
import { upsertPlatformContests } from '../src/contests/upsert.ts'
import { createDb } from '../src/db/client.ts'
import { acquireLock } from '../src/db/job-lock.ts'
import { newId } from '../src/lib/ids.ts'
import { HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import {
  enqueueNotificationDeliveries,
  requeueStranded,
} from '../src/notifications/delivery/enqueue.ts'
import { fanOutOf, type FanOutPage } from '../src/notifications/scheduling/fan-out-pages.ts'
import { notifier } from '../src/notifications/context.ts'
import { byRange } from '../src/notifications/scheduling/queue-consumer.ts'
import { PLATFORM_DUE_SQL, remindFanOutPages } from '../src/notifications/scheduling/reminders.ts'
import { runNotificationScheduler } from '../src/notifications/scheduling/scheduler.ts'
import { addContests, contest } from './helpers/contests.ts'
import { countingCalls } from './helpers/counting.ts'
import {
  consume,
  deliverQueued,
  mailsTo,
  notificationsOf,
  recipient,
  recordingQueue,
  resetNotifications,
  runScheduler,
  seedRecipients,
  testEnv,
  type StoredDelivery,
} from './helpers/notifications.ts'
import { api } from './helpers/users.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { emailBatchKey } from '../src/channels/email/index.ts'

beforeEach(resetNotifications)

// A digest is a CONTEST_REMINDER without a contest; runs near 09:00 UTC send the daily ones.
const reminded = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.type === 'CONTEST_REMINDER' && n.contestId)
const remindedOf = async (userId: string) => (await reminded(userId)).map((n) => n.contestId)

/**
 * `count` verified Codeforces followers (email, a day's lead time), made in SQL: the paging tests
 * need many followers, not accounts made through the API (a sign-up's PBKDF2 each, which took
 * these tests past the 5 s timeout on a loaded machine).
 */
async function followers(count: number) {
  const tag = await seedRecipients(count)
  return Array.from({ length: count }, (_, i) => ({
    id: `${tag}${i.toString(16).padStart(16, '0')}`,
  }))
}

/** Whether the queued page's range holds the user. */
const inPage = (page: FanOutPage) => (u: { id: string }) =>
  u.id > page.after && (page.through === null || u.id <= page.through)

describe('reminders', () => {
  it('reaches the provider once across two scheduler runs', async () => {
    const e = testEnv()
    const ada = await recipient()
    const [round] = await addContests([contest(5, { name: 'Codeforces Round 1001 (Div. 2)' })])
    await runScheduler(e)
    await deliverQueued(e)
    await runScheduler(e)
    await deliverQueued(e)

    const mails = await mailsTo(ada.email)
    expect(mails).toHaveLength(1)
    expect(mails[0].message.subject).toMatch(/^Reminder: Codeforces Round 1001 \(Div\. 2\) starts/)
    const [notification] = await reminded(ada.id)
    expect(notification).toMatchObject({ contestId: round.id, status: 'SENT' })
    expect(notification.dedupeKey).toBe(`${round.startTime}:1440`)
    // Resend de-duplicates on the delivery id, so even a resent request could not mail twice.
    expect(mails[0].headers['idempotency-key']).toBe(
      await emailBatchKey([notification.deliveries[0].id]),
    )
  })

  it('reminds only followers of the contest’s platform', async () => {
    const e = testEnv()
    const cf = await recipient({ platforms: ['codeforces'] })
    const lc = await recipient({ platforms: ['leetcode'] })
    const [round] = await addContests([contest(3)])
    await runScheduler(e)
    expect(await remindedOf(cf.id)).toEqual([round.id])
    expect(await remindedOf(lc.id)).toEqual([])
  })

  it('matches contestTypes against the type and the division, ignoring case and separators', async () => {
    const e = testEnv()
    const div2 = await recipient({ contestTypes: ['div2'] })
    const edu = await recipient({ contestTypes: ['Educational'] })
    const icpc = await recipient({ contestTypes: ['icpc'] })
    const cookOff = await recipient({ platforms: ['codechef'], contestTypes: ['cookoff'] })
    const everything = await recipient({ platforms: ['codeforces', 'codechef'] })
    const [r2, educational, icpcRound, combined, cook, starters] = await addContests([
      contest(2, { platformMetadata: { division: 'div2' } }),
      contest(2, { platformMetadata: { division: 'educational' } }),
      contest(2, { type: 'ICPC' }),
      contest(2, { platformMetadata: { division: 'div1+div2' } }),
      contest(2, { platform: 'codechef', type: 'COOK_OFF', name: 'Cook-Off' }),
      contest(2, { platform: 'codechef', type: 'STARTERS', name: 'Starters 200' }),
    ])
    await runScheduler(e)
    const sorted = (ids: (string | null)[]) => [...ids].sort()
    expect(sorted(await remindedOf(div2.id))).toEqual(sorted([r2.id, combined.id]))
    expect(await remindedOf(edu.id)).toEqual([educational.id])
    expect(await remindedOf(icpc.id)).toEqual([icpcRound.id])
    expect(await remindedOf(cookOff.id)).toEqual([cook.id])
    expect(sorted(await remindedOf(everything.id))).toEqual(
      sorted([r2.id, educational.id, icpcRound.id, combined.id, cook.id, starters.id]),
    )
  })

  it('leaves out digest users, unverified, deactivated and deleted accounts', async () => {
    const e = testEnv()
    const daily = await recipient({ alertFrequency: 'daily' })
    const weekly = await recipient({ alertFrequency: 'weekly' })
    const unverified = await recipient({ verified: false })
    const inactive = await recipient()
    const deleted = await recipient()
    const eligible = await recipient()
    expect((await api('DELETE', '/users/profile', { token: inactive.accessToken })).status).toBe(
      200,
    )
    const gone = await api('DELETE', '/user/delete-account', { token: deleted.accessToken })
    expect(gone.status).toBe(200)
    const [round] = await addContests([contest(3)])
    await runScheduler(e)
    for (const user of [daily, weekly, unverified, inactive, deleted]) {
      expect(await remindedOf(user.id)).toEqual([])
    }
    expect(await remindedOf(eligible.id)).toEqual([round.id])
  })

  it('waits until the start is within the user’s notifyBefore', async () => {
    const e = testEnv()
    const late = await recipient({ notifyBefore: 2 })
    const early = await recipient({ notifyBefore: 24 })
    const now = Date.now()
    const [round] = await addContests([contest(5, {}, now)])
    await runScheduler(e, now)
    expect(await remindedOf(late.id)).toEqual([])
    expect(await remindedOf(early.id)).toEqual([round.id])
    await runScheduler(e, now + 3.5 * HOUR_MS)
    expect(await remindedOf(late.id)).toEqual([round.id])
  })

  it('looks no further ahead than NOTIFY_WINDOW_HOURS', async () => {
    const ada = await recipient({ notifyBefore: 72 })
    const [round] = await addContests([contest(30)])
    await runScheduler(testEnv())
    expect(await remindedOf(ada.id)).toEqual([])
    await runScheduler(testEnv({ NOTIFY_WINDOW_HOURS: '48' }))
    expect(await remindedOf(ada.id)).toEqual([round.id])
  })

  it('uses the channels the user chose and can be reached on', async () => {
    const e = testEnv()
    const all = { email: true, whatsapp: true, push: true }
    const unreachable = await recipient({ channels: all })
    const reachable = await recipient({
      channels: all,
      phoneNumber: '+44 20 7946 0000',
      push: true,
    })
    const emailOff = await recipient({ channels: { whatsapp: true }, phoneNumber: '+15550100' })
    await addContests([contest(3)])
    await runScheduler(e)
    expect((await reminded(unreachable.id))[0].channels).toEqual(['email'])
    expect((await reminded(reachable.id))[0].channels).toEqual(['email', 'whatsapp', 'push'])
    expect((await reminded(emailOff.id))[0].channels).toEqual(['whatsapp'])
    const deliveries = (await reminded(reachable.id))[0].deliveries.map(
      (d: { channel: string }) => d.channel,
    )
    expect(deliveries.sort()).toEqual(['email', 'push', 'whatsapp'])
  })

  it('creates no notification for a user with no usable channel', async () => {
    const nowhere = await recipient({ channels: { whatsapp: true } })
    await addContests([contest(3)])
    await runScheduler(testEnv())
    expect(await notificationsOf(nowhere.id)).toEqual([])
  })

  it('leaves out channels whose provider has no credentials', async () => {
    const e = testEnv({ WHATSAPP_TOKEN: '', VAPID_PRIVATE_KEY: '' })
    const user = await recipient({
      channels: { email: true, whatsapp: true, push: true },
      phoneNumber: '+15550101',
      push: true,
    })
    await addContests([contest(3)])
    await runScheduler(e)
    expect((await reminded(user.id))[0].channels).toEqual(['email'])
  })

  it('marks a contest notified once the shortest lead time anyone may choose is made, not before', async () => {
    const e = testEnv()
    await recipient({ notifyBefore: 1 })
    // 30 minutes away, a 5-minute reminder falls inside this run's period; 45 minutes away not.
    const [soon, notYet, later] = await addContests([contest(0.5), contest(0.75), contest(5)])
    await runScheduler(e)
    const db = createDb(env.DB)
    expect((await findContest(db, soon.id))?.isNotified).toBe(true)
    expect((await findContest(db, notYet.id))?.isNotified).toBe(false)
    expect((await findContest(db, later.id))?.isNotified).toBe(false)
  })

  it('still reminds a user who signs up after the contest was first reminded about', async () => {
    const e = testEnv()
    const now = Date.now()
    const early = await recipient()
    const [round] = await addContests([contest(3, {}, now)], now)
    await runScheduler(e, now)
    const late = await recipient({ notifyBefore: 2 })
    await runScheduler(e, now + 30 * MINUTE_MS)
    expect(await remindedOf(early.id)).toEqual([round.id])
    expect(await remindedOf(late.id)).toEqual([round.id])
  })

  it('re-arms a rescheduled contest and tells those already reminded the new time', async () => {
    const e = testEnv()
    const now = Date.now()
    const early = await recipient({ notifyBefore: 24 })
    const [round] = await addContests([contest(5, { name: 'Moved Round' }, now)])
    await runScheduler(e, now)
    await deliverQueued(e)

    // The sync sees a new start time: it records the reschedule and clears isNotified.
    const newStart = round.startTime + 2 * HOUR_MS
    const db = createDb(env.DB)
    const moved = { ...round, startTime: newStart, endTime: newStart + 2 * HOUR_MS } as any
    for (const key of Object.keys(moved)) if (moved[key] === null) delete moved[key]
    const result = await upsertPlatformContests(db, 'codeforces', [moved], now + MINUTE_MS)
    expect(result.rescheduled).toBe(1)
    const newcomer = await recipient({ notifyBefore: 24 })

    await runScheduler(e, now + 30 * MINUTE_MS)
    await deliverQueued(e)
    const notices = await reminded(early.id)
    expect(notices.map((n) => n.dedupeKey)).toEqual([`${round.startTime}:1440`, `${newStart}:1440`])
    expect(notices[1].title).toMatch(/^Rescheduled: Moved Round/)
    expect(notices[1].status).toBe('SENT')
    const mails = await mailsTo(early.email)
    expect(mails).toHaveLength(2)
    expect(mails[1].message.text).toContain('has been rescheduled')
    expect((await reminded(newcomer.id)).map((n) => n.dedupeKey)).toEqual([`${newStart}:1440`])
    const { results } = await env.DB.prepare(
      'SELECT handled_at FROM contest_reschedules WHERE contest_id = ?',
    )
      .bind(round.id)
      .all<{ handled_at: number | null }>()
    expect(results.map((r) => r.handled_at !== null)).toEqual([true])
  })

  it('tells followers and those already reminded, once, that a contest was cancelled', async () => {
    const e = testEnv()
    const now = Date.now()
    const db = createDb(env.DB)
    const reminded1 = await recipient({ notifyBefore: 24 })
    const fan = await recipient({ platforms: ['leetcode'] })
    const bystander = await recipient({ platforms: ['leetcode'] })
    const start = now + 5 * HOUR_MS
    const round = {
      platform: 'codeforces' as const,
      platformId: `cancel-${newId()}`,
      name: 'Vanished Round',
      type: 'CF' as const,
      startTime: start,
      endTime: start + 2 * HOUR_MS,
      websiteUrl: 'https://codeforces.com/contest/9999',
    }
    const [stored] = (await upsertPlatformContests(db, 'codeforces', [round], now, [], true))
      .created
    await env.DB.prepare(
      "INSERT INTO contest_subscriptions (user_id, contest_id, mode, created_at, updated_at) VALUES (?, ?, 'follow', ?, ?)",
    )
      .bind(fan.id, stored.id, now, now)
      .run()
    await runScheduler(e, now)
    await deliverQueued(e)
    expect(await remindedOf(reminded1.id)).toEqual([stored.id])

    // The platform's healthy answer no longer lists it.
    const result = await upsertPlatformContests(db, 'codeforces', [], now + MINUTE_MS, [], true)
    expect(result.cancelled).toEqual([stored.id])
    expect((await findContest(db, stored.id))?.isActive).toBe(false)

    await runScheduler(e, now + 30 * MINUTE_MS)
    await runScheduler(e, now + 60 * MINUTE_MS)
    await deliverQueued(e)
    const cancelledFor = async (userId: string) =>
      (await notificationsOf(userId)).filter((n) => n.title.startsWith('Cancelled: '))
    for (const user of [reminded1, fan]) {
      const notices = await cancelledFor(user.id)
      expect(notices.map((n) => [n.type, n.title, n.dedupeKey])).toEqual([
        ['SYSTEM_ALERT', 'Cancelled: Vanished Round', `cancelled:${start}`],
      ])
      const mails = await mailsTo(user.email)
      expect(mails.at(-1)?.message.text).toContain(
        'Vanished Round on Codeforces has been cancelled',
      )
    }
    expect(await cancelledFor(bystander.id)).toEqual([])
  })

  it('tells reminded users whose new reminder is not due yet with a SYSTEM_ALERT', async () => {
    const e = testEnv()
    const now = Date.now()
    const user = await recipient({ notifyBefore: 6 })
    const [round] = await addContests([contest(5, {}, now)])
    await runScheduler(e, now)
    const newStart = round.startTime + 20 * HOUR_MS
    const moved = { ...round, startTime: newStart, endTime: newStart + HOUR_MS } as any
    for (const key of Object.keys(moved)) if (moved[key] === null) delete moved[key]
    await upsertPlatformContests(createDb(env.DB), 'codeforces', [moved], now)
    await runScheduler(e, now + 30 * MINUTE_MS)
    const all = await notificationsOf(user.id)
    expect(all.map((n) => [n.type, n.dedupeKey])).toEqual([
      ['CONTEST_REMINDER', `${round.startTime}:360`],
      ['SYSTEM_ALERT', `rescheduled:${newStart}`],
    ])
  })

  it('walks the followers page by page until every one is reminded', async () => {
    const users = await followers(5)
    const [round] = await addContests([contest(3)])
    const e = testEnv()
    const counts = await runNotificationScheduler(e, Date.now(), { pageSize: 2 })
    expect(counts.remindersCreated).toBe(5)
    for (const u of users) expect(await remindedOf(u.id)).toEqual([round.id])
    expect(e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)).toHaveLength(5)
  })

  it('hands a platform with more followers than a page to the queue, page by page, each reminder once', async () => {
    const users = await followers(5)
    const [round] = await addContests([contest(3)])
    const e = testEnv()
    const counts = await runNotificationScheduler(e, Date.now(), { fanOutPage: 2 })
    // Nothing made in the run: every platform follower is in one of the queued pages.
    expect(counts).toMatchObject({ remindersCreated: 0, contestsDue: 1 })
    const pages = e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 }))
    expect(pages).toHaveLength(counts.fanOutPagesQueued)
    expect(pages.length).toBeGreaterThanOrEqual(3)
    // The pages cover the followers end to end, without overlap.
    const ranges = pages.map((p) => (p.body as unknown as { fanOut: FanOutPage }).fanOut)
    expect(ranges[0].after).toBe('')
    expect(ranges.at(-1)!.through).toBeNull()
    for (let i = 1; i < ranges.length; i++) expect(ranges[i].after).toBe(ranges[i - 1].through)
    expect(ranges.every((r) => r.contestId === round.id && r.startTime === round.startTime)).toBe(
      true,
    )

    const results = await consume(e, pages)
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    for (const u of users) expect(await remindedOf(u.id)).toEqual([round.id])
    expect(e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)).toHaveLength(5)
    // A page delivered again (at-least-once) makes nothing new.
    e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    await consume(e, pages)
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([])
    for (const u of users) expect(await remindedOf(u.id)).toEqual([round.id])
  })

  // Two rounds of one platform with more followers than a page: the queued pages of each range.
  async function twoRoundsInPages() {
    const users = await followers(5)
    const rounds = await addContests([contest(3), contest(4)])
    const e = testEnv()
    const counts = await runNotificationScheduler(e, Date.now(), { fanOutPage: 2 })
    const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    expect(bodies).toHaveLength(counts.fanOutPagesQueued)
    const pages = bodies.map((body) => (body as unknown as { fanOut: FanOutPage }).fanOut)
    return { e, users, rounds, bodies, pages }
  }
  const deliveryIdsOf = (users: { id: string }[]) =>
    Promise.all(users.map((u) => reminded(u.id))).then((made) =>
      made.flat().flatMap((n) => n.deliveries.map((d: StoredDelivery) => d.id)),
    )

  it('queues the pages of a platform range by range, each range for all its due contests', async () => {
    const { e, users, rounds, bodies, pages } = await twoRoundsInPages()
    const ids = rounds.map((r) => r.id)
    expect(pages.length % 2).toBe(0)
    for (let i = 0; i < pages.length; i += 2) {
      expect([pages[i].contestId, pages[i + 1].contestId]).toEqual(ids)
      expect([pages[i + 1].after, pages[i + 1].through]).toEqual([pages[i].after, pages[i].through])
    }
    // One batch of them all: every range walked once for both rounds, each reminder made once.
    const results = await consume(
      e,
      bodies.map((body) => ({ body, attempts: 1 })),
    )
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    for (const u of users) expect((await remindedOf(u.id)).sort()).toEqual([...ids].sort())
    const enqueued = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)
    expect(enqueued.sort()).toEqual((await deliveryIdsOf(users)).sort())
    expect(enqueued).toHaveLength(10)
  })

  it('walks a range once for all its rounds, each follower reminded of the rounds their own choices let through', async () => {
    const div2Only = await recipient({ contestTypes: ['div2'] })
    const noKotlin = await recipient({ filters: { excludeWords: ['kotlin'] } })
    const muter = await recipient()
    const hourAhead = await recipient({ leadTimes: [60] })
    const [div1, div2, kotlin] = await addContests([
      contest(3, { platformMetadata: { division: 'div1' } }),
      contest(3, { platformMetadata: { division: 'div2' } }),
      contest(1, { name: 'Kotlin Heroes: Episode 13' }),
    ])
    await setSubscription(createDb(env.DB), muter.id, div1.id, 'mute', Date.now())
    const e = testEnv()
    const counts = await runNotificationScheduler(e, Date.now(), { fanOutPage: 2 })
    expect(counts.remindersCreated).toBe(0)
    // Every page of all three rounds in one batch: each range is one walk of three rounds.
    const pages = e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 }))
    expect(pages).toHaveLength(counts.fanOutPagesQueued)
    const results = await consume(e, pages)
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    const keysOf = async (userId: string) =>
      (await reminded(userId)).map((n) => `${n.contestId} ${n.dedupeKey}`).sort()
    const key = (round: { id: string; startTime: number }, lead: number) =>
      `${round.id} ${round.startTime}:${lead}`
    expect(await keysOf(div2Only.id)).toEqual([key(div2, 1440)])
    expect(await keysOf(noKotlin.id)).toEqual([key(div1, 1440), key(div2, 1440)].sort())
    expect(await keysOf(muter.id)).toEqual([key(div2, 1440), key(kotlin, 1440)].sort())
    // A 60-minute lead time is due this run for the round an hour away only.
    expect(await keysOf(hourAhead.id)).toEqual([key(kotlin, 60)])
  })

  // Many followers in pages of 1,200, and a D1 that counts the walks over them.
  async function pagesOfMany() {
    const users = await followers(2500)
    // So many followers would send the later tests' audiences to queued pages.
    onTestFinished(async () => {
      await env.DB.prepare('DELETE FROM users WHERE id LIKE ?1')
        .bind(`${users[0].id.slice(0, 8)}%`)
        .run()
    })
    const [round] = await addContests([contest(3)])
    let walks = 0
    const e = testEnv({
      DB: countingCalls(env.DB, (method, args) => {
        if (method === 'prepare' && args[0] === PLATFORM_DUE_SQL) walks++
      }),
    })
    const counts = await runNotificationScheduler(e, Date.now(), { fanOutPage: 1200 })
    const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    expect(bodies).toHaveLength(counts.fanOutPagesQueued)
    const pages = bodies.map((body) => fanOutOf(body)!)
    // 2,500 followers in a row of ids hold at least one whole page of theirs.
    const full = pages.find(
      (page) => page.through !== null && users.filter(inPage(page)).length === 1200,
    )
    expect(full).toBeDefined()
    const walked = () => walks
    const reminders = async () =>
      env.DB.prepare('SELECT count(*) AS n FROM notifications WHERE contest_id = ?1')
        .bind(round.id)
        .first<number>('n')
    return { e, bodies, full: full!, walked, reminders }
  }

  it('walks a queued page in one step, even a page of more followers than a run walks at a time', async () => {
    const { e, bodies, walked, reminders } = await pagesOfMany()
    const results = await consume(
      e,
      bodies.map((body) => ({ body, attempts: 1 })),
    )
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    // One walk a page, though a page of 1,200 is more than DEFAULT_PAGE_SIZE (1,000).
    expect(walked()).toBe(bodies.length)
    expect(await reminders()).toBe(2500)
  })

  it('stops walking a page whose step was full once it reached the end of the page', async () => {
    const { e, full, walked, reminders } = await pagesOfMany()
    await remindFanOutPages(notifier(e), [{ page: full, resume: false }], Date.now(), {
      pageSize: 1200,
    })
    // The step took the page's 1,200 followers, up to its last: nothing is left to read.
    expect(walked()).toBe(1)
    expect(await reminders()).toBe(1200)
  })

  it('walks at most 10 pages of one range together, whatever the batch holds', () => {
    const page = (contestId: string, after: string) => ({
      message: {} as never,
      page: { contestId, startTime: 1, after, through: after ? null : 'a' },
    })
    const batch = [
      ...Array.from({ length: 12 }, (_, i) => page(`c${i}`, '')),
      page('c0', 'a'),
      page('c12', ''),
    ]
    const walks = byRange(batch).map((walk) => walk.map(({ page }) => page.contestId))
    expect(walks).toEqual([
      ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'],
      ['c10', 'c11', 'c12'],
      ['c0'],
    ])
  })

  it('runs the pages of a range that failed together one by one, handing over what they made', async () => {
    const { e, users, bodies, pages } = await twoRoundsInPages()
    // A range holding some of these followers (earlier tests' users, deactivated, follow too).
    const first = pages.findIndex((page) => users.some(inPage(page)))
    const range = first - (first % 2)
    const held = users.filter(inPage(pages[range]))
    expect(held.length).toBeGreaterThan(0)
    // The range's two pages: their walk makes the reminders of both, then the queue fails.
    const working = e.NOTIFICATIONS_QUEUE.sendBatch
    e.NOTIFICATIONS_QUEUE.sendBatch = async () => {
      e.NOTIFICATIONS_QUEUE.sendBatch = working
      throw new Error('queue unavailable')
    }
    const results = await consume(
      e,
      bodies.slice(range, range + 2).map((body) => ({ body, attempts: 1 })),
    )
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    const made = await deliveryIdsOf(held)
    expect(made).toHaveLength(2 * held.length)
    const enqueued = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)
    expect(enqueued.sort()).toEqual(made.sort())
  })

  // Fan-out pages of two followers each (earlier tests' users, deactivated, follow too). A page
  // holding one of these users is consumed by an attempt whose queue fails once its reminders
  // are made: they exist, marked queued, and were never enqueued.
  async function pageThatDiedEnqueueing() {
    const users = await followers(5)
    const [round] = await addContests([contest(0.5)])
    const e = testEnv()
    const now = Date.now()
    const counts = await runNotificationScheduler(e, now, { fanOutPage: 2 })
    expect(counts.contestsMarkedNotified).toBe(1)
    const rest = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    const holds = (body: unknown) => users.some(inPage(fanOutOf(body)!))
    const [page] = rest.splice(rest.findIndex(holds), 1)
    const working = e.NOTIFICATIONS_QUEUE.sendBatch
    e.NOTIFICATIONS_QUEUE.sendBatch = async () => {
      throw new Error('queue unavailable')
    }
    const [died] = await consume(e, [{ body: page, attempts: 1 }])
    expect(died.retried).toBe(true)
    e.NOTIFICATIONS_QUEUE.sendBatch = working
    const made = (await Promise.all(users.map((u) => reminded(u.id)))).flat()
    expect(made.length).toBeGreaterThan(0)
    const deliveries: StoredDelivery[] = made.flatMap((n) => n.deliveries)
    expect(deliveries.every((d) => d.queuedAt !== null)).toBe(true)
    // The sweep of unqueued deliveries leaves them to the page.
    expect(await requeueStranded(e.NOTIFICATIONS_QUEUE, env.DB, now + 11 * MINUTE_MS)).toBe(0)
    return { e, round, page, rest, users, deliveryIds: deliveries.map((d) => d.id) }
  }

  it('a fan-out page run again enqueues the reminders an attempt made and died before enqueueing', async () => {
    const { e, page, rest, deliveryIds, users } = await pageThatDiedEnqueueing()
    const pages = [...rest.map((body) => ({ body, attempts: 1 })), { body: page, attempts: 2 }]
    const results = await consume(e, pages)
    expect(results.every((r) => r.acked)).toBe(true)
    const enqueued = e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds)
    expect(enqueued).toEqual(expect.arrayContaining(deliveryIds))
    // Each of the five reminders once: the other pages made and enqueued the others.
    expect(enqueued).toHaveLength(5)
    expect(new Set(enqueued).size).toBe(5)
    for (const u of users) expect(await reminded(u.id)).toHaveLength(1)
  })

  it('a fan-out page the queue gives up on hands over what it made and takes back the notified mark', async () => {
    const { e, round, page, deliveryIds } = await pageThatDiedEnqueueing()
    await consume(e, [{ body: page, attempts: 4 }], 'notifications-dlq')
    expect(e.NOTIFICATIONS_QUEUE.bodies.flatMap((b) => b.deliveryIds).sort()).toEqual(
      [...deliveryIds].sort(),
    )
    const row = await env.DB.prepare('SELECT is_notified AS notified FROM contests WHERE id = ?1')
      .bind(round.id)
      .first<{ notified: number }>()
    expect(row?.notified).toBe(0)
  })

  it('packs up to 100 deliveries of one channel in a message (10 pushes), 50 messages a sendBatch call', async () => {
    const queue = recordingQueue()
    const emails = Array.from({ length: 5_050 }, () => ({ id: newId(), channel: 'email' as const }))
    const pushes = Array.from({ length: 23 }, () => ({ id: newId(), channel: 'push' as const }))
    const all = [...emails, ...pushes]
    expect(await enqueueNotificationDeliveries(queue, env.DB, all, Date.now())).toBe(5_073)
    // 51 messages of emails (50 of 100, one of 50), then the pushes 10 to a message: each push
    // delivery is a request to each of up to 10 browsers.
    expect(queue.batches).toEqual([50, 4])
    expect(queue.bodies.map((b) => b.deliveryIds.length)).toEqual([
      ...Array(50).fill(100),
      50,
      10,
      10,
      3,
    ])
    expect(queue.bodies.flatMap((b) => b.deliveryIds)).toEqual(all.map((d) => d.id))
  })

  it('enqueues the deliveries of a run that died before enqueueing them', async () => {
    const user = await recipient()
    await addContests([contest(3)])
    const now = Date.now()
    const broken = testEnv()
    broken.NOTIFICATIONS_QUEUE.sendBatch = async () => {
      throw new Error('queue unavailable')
    }
    await expect(runNotificationScheduler(broken, now)).rejects.toThrow('queue unavailable')
    const [stranded] = await reminded(user.id)
    expect(stranded.deliveries[0].queuedAt).toBeNull()

    const e = testEnv()
    const counts = await runNotificationScheduler(e, now + 11 * MINUTE_MS)
    expect(counts).toMatchObject({ remindersCreated: 0, requeued: 1 })
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([{ deliveryIds: [stranded.deliveries[0].id] }])
    expect((await reminded(user.id))[0].deliveries[0].queuedAt).not.toBeNull()
  })

  it('enqueues a stranded reminder made ahead of its moment with the wait it has left', async () => {
    const user = await recipient({ leadTimes: [60] })
    const now = Date.now()
    // The hour-ahead moment is 20 minutes away: the run makes the reminder and dies enqueueing it.
    await addContests([contest(80 / 60, {}, now)], now)
    const broken = testEnv()
    broken.NOTIFICATIONS_QUEUE.sendBatch = async () => {
      throw new Error('queue unavailable')
    }
    await expect(runNotificationScheduler(broken, now)).rejects.toThrow('queue unavailable')
    const e = testEnv()
    const counts = await runNotificationScheduler(e, now + 11 * MINUTE_MS)
    expect(counts).toMatchObject({ remindersCreated: 0, requeued: 1 })
    expect(e.NOTIFICATIONS_QUEUE.delays).toEqual([9 * 60])
    expect(await reminded(user.id)).toHaveLength(1)
  })

  it('stops at its time budget and lets the next run finish the rest', async () => {
    const user = await recipient()
    const [round] = await addContests([contest(0.5)])
    const now = Date.now()
    const first = await runNotificationScheduler(testEnv(), now, { budgetMs: -1 })
    expect(first).toMatchObject({ remindersCreated: 0, contestsLeftForNextRun: 1 })
    expect((await findContest(createDb(env.DB), round.id))?.isNotified).toBe(false)
    const second = await runNotificationScheduler(testEnv(), now)
    expect(second).toMatchObject({ remindersCreated: 1, contestsMarkedNotified: 1 })
    expect(await remindedOf(user.id)).toEqual([round.id])
  })

  it('skips a run while another holds the scheduler lease', async () => {
    await acquireLock(createDb(env.DB), 'notification-scheduler', 'other', Date.now(), MINUTE_MS)
    expect(await runNotificationScheduler(testEnv(), Date.now())).toEqual({ skippedOverlapping: 1 })
  })
})
