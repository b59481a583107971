// The daily and weekly digests carry the results of the account's own proven handles stored since
// the last digest (contest, rank of how many, old -> new rating and delta, a new title), and such
// an account gets no separate result alert; an account on immediate alerts gets the alert and no
// digest; own results turned off tells neither; without email the digest accounts get alerts.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { ContestRow } from '../src/db/schema.ts'
import { DAY_MS, HOUR_MS } from '../src/lib/time.ts'
import { notifier } from '../src/notifications/context.ts'
import { createResultAlerts } from '../src/notifications/scheduling/results.ts'
import { storeResults } from '../src/results/store.ts'
import type { ResultRow } from '../src/platforms/results.ts'
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
import { clearResults, linkHandle, setResultPreferences } from './helpers/results.ts'

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
})

/** The next Monday, 09:00 UTC, at least a day away. */
function nextMondayNineUtc(): number {
  const d = new Date(Date.now() + DAY_MS)
  d.setUTCHours(9, 0, 0, 0)
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1)
  return d.getTime()
}

const digestsOf = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.payload?.kind === 'digest')
const alertsOf = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.type === 'CONTEST_RESULT')

const QUOKKA: ResultRow = { handle: 'quokka', rank: 12, oldRating: 1580, newRating: 1612 }
const LYNX: ResultRow = { handle: 'lynx_dev', rank: 40, oldRating: 1700, newRating: 1688 }

/**
 * An ended round's results stored at `at` (as the consumer stores them), its check published with
 * 20,345 participants, and the result alert step run as the hook runs it.
 */
async function published(round: ContestRow, rows: ResultRow[], at: number, e = testEnv()) {
  await env.DB.prepare(
    `INSERT INTO result_checks (contest_id, platform, state, attempts, next_check_at, rated,
       participants, results_digest, published_at, created_at, updated_at)
     VALUES (?1, ?2, 'PUBLISHED', 1, ?3, 1, 20345, 'd', ?3, ?3, ?3)`,
  )
    .bind(round.id, round.platform, at)
    .run()
  await storeResults(createDb(env.DB), round, true, rows, at)
  return createResultAlerts(notifier(e), {
    contest: round,
    rated: true,
    participants: 20345,
    digest: `d-${at}`,
    recheck: false,
    now: at,
  })
}

async function endedRound(monday: number, name = 'Codeforces Round 1000 (Div. 2)') {
  // Ended the evening before the digest; its results come an hour before 09:00.
  const [round] = await addContests([contest(-14, { name, platformId: name }, monday)], monday)
  return round
}

describe('results in the digest', () => {
  it('carry a digest account’s results instead of an alert; an immediate account gets the alert', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ name: 'Ada', alertFrequency: 'daily' })
    const bob = await recipient({ name: 'Bob' })
    await linkHandle(ada.id, 'codeforces', 'quokka')
    await linkHandle(bob.id, 'codeforces', 'lynx_dev')
    const round = await endedRound(monday)
    const [upcoming] = await addContests([contest(3, { name: 'Round Next' }, monday)], monday)

    const told = await published(round, [QUOKKA, LYNX], monday - HOUR_MS, e)
    expect(told.personalAlerts).toBe(1)
    expect(await alertsOf(ada.id)).toEqual([])
    expect(await alertsOf(bob.id)).toHaveLength(1)

    await runScheduler(e, monday)
    const [digest] = await digestsOf(ada.id)
    expect(digest.title).toBe('Your daily contest digest: 1 contest, 1 result')
    expect(digest.payload.contestIds).toEqual([upcoming.id])
    expect(digest.payload.results).toEqual([
      expect.objectContaining({
        contestId: round.id,
        contestName: 'Codeforces Round 1000 (Div. 2)',
        platform: 'codeforces',
        handle: 'quokka',
        rank: 12,
        participants: 20345,
        oldRating: 1580,
        newRating: 1612,
        delta: 32,
        oldTitle: 'Specialist',
        newTitle: 'Expert',
      }),
    ])
    expect(digest.message).toContain(
      'quokka: rank 12 of 20,345, rating 1,580 -> 1,612 (+32), now Expert (was Specialist)',
    )
    // Bob takes immediate alerts: no digest, and Bob's alert was the only one.
    expect(await digestsOf(bob.id)).toEqual([])

    await deliverQueued(e)
    const [mail] = await mailsTo(ada.email)
    expect(mail.message.subject).toBe('Your daily contest digest: 1 contest, 1 result')
    expect(mail.message.html).toContain('Round Next')
    expect(mail.message.html).toContain('Your results since the last digest:')
    expect(mail.message.html).toContain('rank 12 of 20,345, rating 1,580 -&gt; 1,612 (+32)')
    expect(mail.message.text).toContain(
      '- Codeforces Round 1000 (Div. 2) (Codeforces): quokka: rank 12 of 20,345',
    )

    // A second run of the same slot adds nothing.
    await runScheduler(e, monday + 60_000)
    expect(await digestsOf(ada.id)).toHaveLength(1)
  })

  it('go out with results alone when no contest is to come, and only those since the last digest', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ name: 'Ada', alertFrequency: 'daily' })
    await linkHandle(ada.id, 'codeforces', 'quokka')
    const old = await endedRound(monday - DAY_MS, 'Old Round')
    const round = await endedRound(monday)
    // Stored before the last digest's slot: that digest told it.
    await published(old, [QUOKKA], monday - DAY_MS - HOUR_MS, e)
    await published(round, [{ ...QUOKKA, rank: 7 }], monday - HOUR_MS, e)

    await runScheduler(e, monday)
    const [digest] = await digestsOf(ada.id)
    expect(digest.title).toBe('Your daily contest digest: 0 contests, 1 result')
    expect(digest.payload.contestIds).toEqual([])
    expect(digest.payload.results.map((r: any) => [r.contestName, r.rank])).toEqual([
      ['Codeforces Round 1000 (Div. 2)', 7],
    ])
    await deliverQueued(e)
    const [mail] = await mailsTo(ada.email)
    expect(mail.message.html).not.toContain('Contests in')
    expect(mail.message.html).not.toContain('no longer scheduled')
    expect(mail.message.html).toContain('rank 7 of 20,345')
  })

  it('tell neither the digest nor an alert when own results are off; an unproven handle nothing', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ name: 'Ada', alertFrequency: 'daily' })
    const carol = await recipient({ name: 'Carol', alertFrequency: 'weekly' })
    await linkHandle(ada.id, 'codeforces', 'quokka')
    await setResultPreferences(ada.id, false, false)
    await linkHandle(carol.id, 'codeforces', 'lynx_dev', { relation: 'OWN', state: 'UNPROVEN' })
    const round = await endedRound(monday)
    await published(round, [QUOKKA, LYNX], monday - HOUR_MS, e)

    await runScheduler(e, monday)
    expect(await alertsOf(ada.id)).toEqual([])
    expect(await digestsOf(ada.id)).toEqual([])
    expect(await digestsOf(carol.id)).toEqual([])
  })

  it('a weekly digest carries the week’s results', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const ada = await recipient({ name: 'Ada', alertFrequency: 'weekly' })
    await linkHandle(ada.id, 'codeforces', 'quokka')
    const round = await endedRound(monday - 3 * DAY_MS)
    await published(round, [QUOKKA], monday - 3 * DAY_MS, e)

    await runScheduler(e, monday)
    const [digest] = await digestsOf(ada.id)
    expect(digest.dedupeKey).toMatch(/^weekly:/)
    expect(digest.payload.results).toHaveLength(1)
  })

  it('leave the alerts to a digest account while email cannot send digests', async () => {
    const monday = nextMondayNineUtc()
    const noEmail = testEnv({ RESEND_API_KEY: '' })
    // WhatsApp too: with email off, the alert has a channel to go on.
    const ada = await recipient({
      name: 'Ada',
      alertFrequency: 'daily',
      channels: { email: true, whatsapp: true },
      phoneNumber: '+14155550123',
    })
    await linkHandle(ada.id, 'codeforces', 'quokka')
    const round = await endedRound(monday)
    const told = await published(round, [QUOKKA], monday - HOUR_MS, noEmail)
    expect(told.personalAlerts).toBe(1)
    expect(await alertsOf(ada.id)).toHaveLength(1)
  })
})
