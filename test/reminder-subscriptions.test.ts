// Reminders beyond the spec's one notifyBefore: several lead times each reminded once across
// repeated and concurrent runs, follow and mute of one contest, noise filters, and quiet hours.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { notifier } from '../src/notifications/context.ts'
import { quietHoursEnd } from '../src/notifications/delivery/hold.ts'
import { runReminders } from '../src/notifications/scheduling/reminders.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  consume,
  deliverQueued,
  mailsTo,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { api } from './helpers/users.ts'

beforeEach(resetNotifications)

const reminders = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.type === 'CONTEST_REMINDER' && n.contestId)
const keysOf = async (userId: string) => (await reminders(userId)).map((n) => n.dedupeKey).sort()

/** The local 'HH:MM' `minutes` from now in `zone`. */
function localClock(zone: string, minutesFromNow: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).format(Date.now() + minutesFromNow * MINUTE_MS)
}

describe('several lead times', () => {
  it('make one reminder per lead time, each once across repeated and concurrent runs', async () => {
    const e = testEnv()
    const ada = await recipient({ leadTimes: [1440, 60, 10] })
    const now = Date.now()
    const [round] = await addContests([contest(23, {}, now)])
    const start = round.startTime
    const key = (minutes: number) => `${start}:${minutes}`

    // The day-ahead moment has passed and no shorter one has: the 1440 reminder goes now.
    await runScheduler(e, now)
    expect(await keysOf(ada.id)).toEqual([key(1440)])

    // 80 minutes before: the hour-ahead moment falls inside this run's period, so it is made now
    // and handed to the queue with the 20 minutes still to wait. Two runs at once make it once.
    const hourRun = start - 80 * MINUTE_MS
    const n = notifier(e)
    await Promise.all([runReminders(n, hourRun), runReminders(n, hourRun)])
    await runScheduler(e, hourRun)
    expect(await keysOf(ada.id)).toEqual([key(1440), key(60)].sort())
    const [hourReminder] = (await reminders(ada.id)).filter((r) => r.dedupeKey === key(60))
    expect(hourReminder.scheduledAt).toBe(start - 60 * MINUTE_MS)
    expect(hourReminder.title).toMatch(/starts in about 1 hour/)
    expect(e.NOTIFICATIONS_QUEUE.delays.at(-1)).toBe(20 * 60)

    // 15 minutes before: the ten-minute reminder, waiting five minutes in the queue.
    await runScheduler(e, start - 15 * MINUTE_MS)
    await runScheduler(e, start - 15 * MINUTE_MS)
    await runScheduler(e, start - 5 * MINUTE_MS)
    expect(await keysOf(ada.id)).toEqual([key(1440), key(60), key(10)].sort())
    expect(e.NOTIFICATIONS_QUEUE.delays.at(-1)).toBe(5 * 60)

    await deliverQueued(e)
    expect(await mailsTo(ada.email)).toHaveLength(3)
  })

  it('skip a lead time whose moment passed when a shorter one has passed too', async () => {
    const ada = await recipient({ leadTimes: [1440, 60] })
    const [round] = await addContests([contest(0.5)])
    await runScheduler(testEnv())
    expect(await keysOf(ada.id)).toEqual([`${round.startTime}:60`])
  })

  it('keep notifyBefore as the spec has it: it sets one lead time and reads back the longest', async () => {
    const sixHours = await recipient({ notifyBefore: 6 })
    const [round] = await addContests([contest(5)])
    await runScheduler(testEnv())
    expect(await keysOf(sixHours.id)).toEqual([`${round.startTime}:360`])
    const ada = await recipient({ leadTimes: [10, 90] })
    const me = await api('GET', '/users/profile', { token: ada.accessToken })
    // Longest first; 90 minutes reads back as notifyBefore 2 (hours, rounded up).
    expect(me.body.preferences).toMatchObject({ notifyBefore: 2, leadTimes: [90, 10] })
  })

  it('refuse a bad list with the spec’s error shape', async () => {
    const ada = await recipient()
    const put = (preferences: unknown) =>
      api('PUT', '/users/profile', { token: ada.accessToken, body: { preferences } })
    for (const [preferences, message] of [
      [{ leadTimes: [] }, 'leadTimes must hold 1 to 5 values'],
      [{ leadTimes: [60, 60] }, 'leadTimes must not repeat a value'],
      [{ leadTimes: [4] }, 'each lead time must be between 5 and 10080 minutes'],
      [{ leadTimes: [1, 2, 3, 4, 5, 6].map((m) => m * 60) }, 'leadTimes must hold 1 to 5 values'],
      [{ leadTimes: [60], notifyBefore: 2 }, 'send either notifyBefore or leadTimes, not both'],
      [
        { quietHours: { start: '25:00', end: '07:00' } },
        'quietHours.start must be a time as HH:MM',
      ],
      [
        { quietHours: { start: '07:00', end: '07:00' } },
        'quietHours must not start and end at the same time',
      ],
      [
        { filters: { minDuration: 90, maxDuration: 60 } },
        'filters.minDuration must not exceed filters.maxDuration',
      ],
      [{ filters: { excludeWords: ['x'], other: 1 } }, 'preferences.filters.other'],
    ] as const) {
      const res = await put(preferences)
      expect(res.status, JSON.stringify(preferences)).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
      expect(res.body.message.join(' | ')).toContain(message)
    }
  })

  it('store quiet hours and filters, and clear them with null', async () => {
    const ada = await recipient({
      quietHours: { start: '23:00', end: '07:00' },
      filters: { minDuration: 30, excludeWords: ['  Unrated ', 'unrated', 'Kotlin'] },
    })
    const read = async () =>
      (await api('GET', '/users/profile', { token: ada.accessToken })).body.preferences
    expect(await read()).toMatchObject({
      quietHours: { start: '23:00', end: '07:00' },
      filters: { minDuration: 30, maxDuration: null, excludeWords: ['unrated', 'kotlin'] },
    })
    await api('PUT', '/users/profile', {
      token: ada.accessToken,
      body: { preferences: { quietHours: null, filters: { minDuration: null } } },
    })
    expect(await read()).toMatchObject({
      quietHours: null,
      filters: { minDuration: null, maxDuration: null, excludeWords: ['unrated', 'kotlin'] },
    })
  })
})

describe('follow and mute', () => {
  it('follow reminds about one contest the preferences would not select', async () => {
    const follower = await recipient({ platforms: ['leetcode'] })
    const digestReader = await recipient({ alertFrequency: 'daily', platforms: ['atcoder'] })
    const bystander = await recipient({ platforms: ['leetcode'] })
    const [round] = await addContests([contest(3)])
    const db = createDb(env.DB)
    await setSubscription(db, follower.id, round.id, 'follow', Date.now())
    await setSubscription(db, digestReader.id, round.id, 'follow', Date.now())
    await runScheduler(testEnv())
    expect((await reminders(follower.id)).map((n) => n.contestId)).toEqual([round.id])
    expect((await reminders(digestReader.id)).map((n) => n.contestId)).toEqual([round.id])
    expect(await reminders(bystander.id)).toEqual([])
  })

  it('mute never reminds about that contest, and only that one', async () => {
    const ada = await recipient()
    const [muted, other] = await addContests([contest(3), contest(4)])
    await setSubscription(createDb(env.DB), ada.id, muted.id, 'mute', Date.now())
    await runScheduler(testEnv())
    expect((await reminders(ada.id)).map((n) => n.contestId)).toEqual([other.id])
  })
})

describe('noise filters', () => {
  it('drop contests shorter, longer or named with an excluded word; a follow overrides them', async () => {
    const short = await recipient({ filters: { minDuration: 150 } })
    const long = await recipient({ filters: { maxDuration: 90 } })
    const words = await recipient({ filters: { excludeWords: ['Kotlin', 'unrated'] } })
    const [twoHours, kotlin] = await addContests([
      contest(3, { name: 'Codeforces Round 1001 (Div. 2)' }),
      contest(3, {
        name: 'Kotlin Heroes: Episode 12',
        endTime: Date.now() + 3 * HOUR_MS + 60 * MINUTE_MS,
      }),
    ])
    await setSubscription(createDb(env.DB), words.id, kotlin.id, 'follow', Date.now())
    await runScheduler(testEnv())
    const contestsOf = async (id: string) => (await reminders(id)).map((n) => n.contestId).sort()
    // minDuration 150: both (120 and 60 minutes) are too short.
    expect(await contestsOf(short.id)).toEqual([])
    // maxDuration 90: the 60-minute Kotlin round passes, the 120-minute round does not.
    expect(await contestsOf(long.id)).toEqual([kotlin.id])
    // "kotlin" drops Kotlin Heroes whatever its case, but this user follows it.
    expect(await contestsOf(words.id)).toEqual([twoHours.id, kotlin.id].sort())
  })
})

describe('quiet hours', () => {
  it('hold a reminder until they end, in the user’s own zone', async () => {
    const e = testEnv()
    const zone = 'Asia/Kolkata'
    const ada = await recipient({
      timezone: zone,
      quietHours: { start: localClock(zone, -60), end: localClock(zone, 60) },
    })
    await addContests([contest(5)])
    await runScheduler(e)
    const bodies = [...e.NOTIFICATIONS_QUEUE.bodies]
    const results = await deliverQueued(e)
    expect(results.every((r) => r.acked && !r.retried)).toBe(true)
    expect(await mailsTo(ada.email)).toHaveLength(0)
    // Sent again with the wait until 60 minutes from now (to the minute), spending no retry.
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual(bodies)
    const wait = e.NOTIFICATIONS_QUEUE.delays[0] ?? 0
    expect(wait).toBeGreaterThan(58 * 60)
    expect(wait).toBeLessThanOrEqual(60 * 60)
    const [held] = await reminders(ada.id)
    expect(held.status).toBe('PENDING')
    expect(held.deliveries[0]).toMatchObject({ status: 'PENDING', attempts: 0 })
  })

  it('let a reminder through at once when the contest starts before they end', async () => {
    const e = testEnv()
    const zone = 'America/New_York'
    const ada = await recipient({
      timezone: zone,
      quietHours: { start: localClock(zone, -30), end: localClock(zone, 180) },
    })
    await addContests([contest(2)])
    await runScheduler(e)
    await deliverQueued(e)
    expect(await mailsTo(ada.email)).toHaveLength(1)
  })

  it('leave other users and other kinds of notification alone', async () => {
    const e = testEnv()
    const ada = await recipient({ quietHours: null })
    await addContests([contest(5)])
    await runScheduler(e)
    const [result] = await consume(
      e,
      e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 })),
    )
    expect(result.acked).toBe(true)
    expect(await mailsTo(ada.email)).toHaveLength(1)
  })

  it('end at the next end time, across midnight when they wrap it', () => {
    const who = { timezone: 'UTC', quietStart: '23:00', quietEnd: '07:00' }
    const at = (iso: string) => Date.parse(iso)
    expect(quietHoursEnd(at('2026-11-23T23:30:00Z'), who)).toBe(at('2026-11-24T07:00:00Z'))
    expect(quietHoursEnd(at('2026-11-24T06:59:30Z'), who)).toBe(at('2026-11-24T07:00:00Z'))
    expect(quietHoursEnd(at('2026-11-24T07:00:00Z'), who)).toBeUndefined()
    expect(quietHoursEnd(at('2026-11-24T12:00:00Z'), who)).toBeUndefined()
    // Tokyo is UTC+9: 22:00-06:00 local is 13:00-21:00 UTC.
    const tokyo = { timezone: 'Asia/Tokyo', quietStart: '22:00', quietEnd: '06:00' }
    expect(quietHoursEnd(at('2026-11-24T14:00:00Z'), tokyo)).toBe(at('2026-11-24T21:00:00Z'))
    expect(quietHoursEnd(at('2026-11-24T22:00:00Z'), tokyo)).toBeUndefined()
  })
})
