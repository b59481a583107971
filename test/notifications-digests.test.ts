// Daily and weekly digests driven through scheduled(): 09:00 in each user's time zone, the
// contests their preferences select, once per day or week, nothing when none match.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  mailsTo,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'

beforeEach(resetNotifications)

/** The next Monday, 09:00 UTC, at least a day away. */
function nextMondayNineUtc(): number {
  const d = new Date(Date.now() + DAY_MS)
  d.setUTCHours(9, 0, 0, 0)
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1)
  return d.getTime()
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const digestsOf = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.payload?.kind === 'digest')

describe('daily digests', () => {
  it('go out at 09:00 with the next 24 hours of contests the user’s preferences select', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ alertFrequency: 'daily', contestTypes: ['div2'] })
    const [match, , , later] = await addContests(
      [
        contest(
          3,
          { name: 'Round A & B (Div. 2)', platformMetadata: { division: 'div2' } },
          monday,
        ),
        contest(5, { name: 'Round C (Div. 1)', platformMetadata: { division: 'div1' } }, monday),
        contest(4, { platform: 'leetcode', type: 'WEEKLY', name: 'Weekly Contest 1' }, monday),
        contest(30, { name: 'Round D (Div. 2)', platformMetadata: { division: 'div2' } }, monday),
      ],
      monday,
    )
    void later
    await runScheduler(e, monday)
    const [digest] = await digestsOf(ada.id)
    expect(digest).toMatchObject({
      type: 'CONTEST_REMINDER',
      contestId: null,
      dedupeKey: `daily:${isoDate(monday)}`,
      channels: ['email'],
    })
    expect(digest.payload.contestIds).toEqual([match.id])

    await deliverQueued(e)
    const [mail] = await mailsTo(ada.email)
    expect(mail.message.subject).toBe('Your daily contest digest: 1 contest')
    expect(mail.message.html).toContain('Round A &amp; B (Div. 2)')
    expect(mail.message.html).not.toContain('Round C')
    expect(mail.message.html).not.toContain('Weekly Contest 1')
    expect(mail.message.html).not.toContain('Round D')
    expect(mail.message.text).toContain('Contests in the next 24 hours:')
  })

  it('leave out muted contests and filtered ones, and list followed ones', async () => {
    const monday = nextMondayNineUtc()
    const ada = await recipient({
      alertFrequency: 'daily',
      filters: { excludeWords: ['kotlin'] },
    })
    const [kept, muted, filtered, followed] = await addContests(
      [
        contest(3, { name: 'Round Kept' }, monday),
        contest(4, { name: 'Round Muted' }, monday),
        contest(5, { name: 'Kotlin Heroes' }, monday),
        contest(6, { platform: 'atcoder', type: 'ABC', name: 'ABC Followed' }, monday),
      ],
      monday,
    )
    const db = createDb(env.DB)
    await setSubscription(db, ada.id, muted.id, 'mute', monday)
    await setSubscription(db, ada.id, followed.id, 'follow', monday)
    await runScheduler(testEnv(), monday)
    const [digest] = await digestsOf(ada.id)
    expect(digest.payload.contestIds.sort()).toEqual([kept.id, followed.id].sort())
    expect(digest.payload.contestIds).not.toContain(filtered.id)
  })

  it('do not go out at other times of the day', async () => {
    const monday = nextMondayNineUtc()
    const ada = await recipient({ alertFrequency: 'daily' })
    await addContests([contest(5, {}, monday)], monday)
    for (const at of [monday - 30 * MINUTE_MS, monday + 30 * MINUTE_MS, monday + 3 * HOUR_MS]) {
      await runScheduler(testEnv(), at)
    }
    expect(await digestsOf(ada.id)).toEqual([])
  })

  it('go out once a day however often the 09:00 run repeats', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ alertFrequency: 'daily' })
    await addContests([contest(5, {}, monday), contest(30, {}, monday)], monday)
    await runScheduler(e, monday)
    await runScheduler(e, monday)
    await runScheduler(e, monday + 12 * MINUTE_MS) // a late run of the same slot
    expect(await digestsOf(ada.id)).toHaveLength(1)
    await runScheduler(e, monday + DAY_MS)
    expect((await digestsOf(ada.id)).map((d) => d.dedupeKey)).toEqual([
      `daily:${isoDate(monday)}`,
      `daily:${isoDate(monday + DAY_MS)}`,
    ])
  })

  it('send nothing when no contest matches', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ alertFrequency: 'daily', platforms: ['atcoder'] })
    await addContests([contest(5, {}, monday)], monday)
    await runScheduler(e, monday)
    expect(await notificationsOf(ada.id)).toEqual([])
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([])
  })

  it('skip users who turned email off', async () => {
    const monday = nextMondayNineUtc()
    const ada = await recipient({ alertFrequency: 'daily', channels: { push: true } })
    await addContests([contest(5, {}, monday)], monday)
    await runScheduler(testEnv(), monday)
    expect(await notificationsOf(ada.id)).toEqual([])
  })

  it('follow each user’s time zone, half- and quarter-hour offsets included', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const utc = await recipient({ alertFrequency: 'daily', timezone: 'UTC' })
    const kolkata = await recipient({ alertFrequency: 'daily', timezone: 'Asia/Kolkata' })
    const kathmandu = await recipient({ alertFrequency: 'daily', timezone: 'Asia/Kathmandu' })
    const tokyo = await recipient({ alertFrequency: 'daily', timezone: 'Asia/Tokyo' })
    await addContests([contest(10, {}, monday)], monday)
    const keys = async () =>
      Object.fromEntries(
        await Promise.all(
          [utc, kolkata, kathmandu, tokyo].map(async (u) => [
            u.id,
            (await digestsOf(u.id)).map((d) => d.dedupeKey),
          ]),
        ),
      )
    const day = `daily:${isoDate(monday)}`

    await runScheduler(e, monday - 9 * HOUR_MS) // 00:00 UTC: 09:00 in Tokyo
    await runScheduler(e, monday - 5.5 * HOUR_MS) // 03:30 UTC: 09:00 Kolkata, 09:15 Kathmandu
    expect(await keys()).toEqual({
      [utc.id]: [],
      [kolkata.id]: [day],
      [kathmandu.id]: [day],
      [tokyo.id]: [day],
    })
    await runScheduler(e, monday) // 09:00 UTC
    expect((await keys())[utc.id]).toEqual([day])
    expect((await keys())[tokyo.id]).toEqual([day])
  })
})

describe('weekly digests', () => {
  it('go out on Mondays at 09:00 with the contests of the next 7 days', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ alertFrequency: 'weekly' })
    const daily = await recipient({ alertFrequency: 'daily' })
    const [tuesday, sunday] = await addContests(
      [contest(26, { name: 'Tuesday Round' }, monday), contest(6 * 24 + 5, {}, monday)],
      monday,
    )
    await addContests([contest(8 * 24, { name: 'Next Week Round' }, monday)], monday)
    await runScheduler(e, monday - DAY_MS) // Sunday 09:00
    expect(await digestsOf(ada.id)).toEqual([])
    await runScheduler(e, monday)
    await runScheduler(e, monday + DAY_MS) // Tuesday 09:00
    const digests = await digestsOf(ada.id)
    expect(digests).toHaveLength(1)
    expect(digests[0].dedupeKey).toBe(`weekly:${isoDate(monday)}`)
    expect(digests[0].payload.contestIds).toEqual([tuesday.id, sunday.id])
    await deliverQueued(e)
    const [mail] = await mailsTo(ada.email)
    expect(mail.message.subject).toBe('Your weekly contest digest: 2 contests')
    expect(mail.message.text).toContain('Contests in the next 7 days:')
    expect(mail.message.text).not.toContain('Next Week Round')
    // The daily user's Monday digest covers only the next 24 hours: nothing matched then.
    expect((await digestsOf(daily.id)).map((d) => d.dedupeKey)).toEqual([
      `daily:${isoDate(monday + DAY_MS)}`,
    ])
  })
})
