// The public iCalendar feed: which contests, what each event says, filters, strict queries,
// caching with ETags, and SEQUENCE raised by reschedules from an admin or the sync.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { contestUid } from '../src/calendar/contest-event.ts'
import { DAY_MS, HOUR_MS } from '../src/lib/time.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'
import { contentLines, fetchFeed } from './helpers/calendar.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { servePlatform } from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

const FEED = '/contests/calendar.ics'
let adminToken: string

beforeAll(async () => {
  adminToken = (await createAdmin()).accessToken
})

beforeEach(async () => {
  await clearContests()
  await standIn.reset()
  await env.DB.prepare('DELETE FROM job_locks').run()
})

const uidsOf = (events: { uid: string }[]) => events.map((e) => e.uid).sort()

describe('GET /contests/calendar.ics', () => {
  it('has one event per upcoming, running and recently finished active contest', async () => {
    const [upcoming, running, recent] = await addContests([
      contest(5, { name: 'Upcoming Round', websiteUrl: 'https://codeforces.com/contests/1' }),
      contest(-1, { name: 'Running Round', registrationUrl: 'https://codeforces.com/reg/2' }),
      contest(-10 * 24, { name: 'Finished 10 days ago' }),
      contest(-40 * 24, { name: 'Finished 40 days ago' }),
      contest(3, { name: 'Hidden Round', isActive: false }),
    ])
    const { events, text } = await fetchFeed(FEED)

    expect(uidsOf(events)).toEqual(
      uidsOf([upcoming, running, recent].map((c) => ({ uid: contestUid(c) }))),
    )
    const byName = new Map(events.map((e) => [e.summary, e]))
    const first = byName.get('Upcoming Round')!
    expect(first.uid).toBe(`codeforces-${upcoming.platformId}@contest-alert-service`)
    expect(first.start).toBe(toSecond(upcoming.startTime))
    expect(first.end).toBe(toSecond(upcoming.endTime))
    expect(first.url).toBe('https://codeforces.com/contests/1')
    expect(first.sequence).toBe(0)
    expect(first.lastModified).toBe(toSecond(upcoming.updatedAt))
    expect(first.stamp).toBe(toSecond(upcoming.updatedAt))
    expect(first.description.split('\n')).toEqual([
      'Platform: Codeforces',
      'Type: CF',
      'Duration: 2 h',
      'https://codeforces.com/contests/1',
    ])
    // Without a contest page the link is the registration page, as in reminders.
    expect(byName.get('Running Round')!.url).toBe('https://codeforces.com/reg/2')
    expect(byName.get('Finished 10 days ago')!.url).toBeUndefined()
    // Times are UTC, and the public feed sets no alarms.
    expect(text).toContain(`DTSTART:${icsUtc(upcoming.startTime)}\r\n`)
    expect(events.every((e) => e.alarms.length === 0)).toBe(true)
  })

  it('escapes text and folds lines at 75 octets, and keeps UIDs free of special characters', async () => {
    // No space at the end: the catalogue trims what it stores.
    const name = `Round; with, commas \\ and "quotes" — ${Array(12).fill('ünïcödé').join(' ')}`
    const [row] = await addContests([
      contest(2, {
        name,
        platformId: 'odd;id,with@signs and spaces',
        platform: 'leetcode',
        type: 'WEEKLY',
      }),
    ])
    const { events, text } = await fetchFeed(FEED)

    expect(events).toHaveLength(1)
    expect(events[0].summary).toBe(name)
    expect(events[0].uid).toBe(contestUid(row))
    expect(events[0].uid).toBe(
      'leetcode-odd%3Bid%2Cwith%40signs%20and%20spaces@contest-alert-service',
    )
    const encoder = new TextEncoder()
    const lines = contentLines(text)
    expect(lines.at(-1)).toBe('')
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/)
      expect(encoder.encode(line).length).toBeLessThanOrEqual(75)
    }
    expect(
      lines.some((line) => line.startsWith(' ')),
      'the long name was folded',
    ).toBe(true)
    expect(text).toContain('SUMMARY:Round\\; with\\, commas \\\\ and')
  })

  it('filters by platform and type lists and by duration bounds', async () => {
    await addContests([
      contest(1, { name: 'CF short', ...span(1, 120) }),
      contest(2, { name: 'CF long', type: 'ICPC', ...span(2, 5 * 60) }),
      contest(3, { name: 'LC', platform: 'leetcode', type: 'WEEKLY', ...span(3, 90) }),
      contest(4, { name: 'AC', platform: 'atcoder', type: 'ABC', ...span(4, 100) }),
    ])
    const names = async (query: string) =>
      (await fetchFeed(`${FEED}?${query}`)).events.map((e) => e.summary).sort()

    expect(await names('platform=leetcode,atcoder')).toEqual(['AC', 'LC'])
    expect(await names('type=ICPC,ABC')).toEqual(['AC', 'CF long'])
    expect(await names('minDuration=100')).toEqual(['AC', 'CF long', 'CF short'])
    expect(await names('maxDuration=100')).toEqual(['AC', 'LC'])
    expect(await names('minDuration=100&maxDuration=120&platform=codeforces')).toEqual(['CF short'])
  })

  it('refuses unknown keys and bad values with a 400 in the error shape', async () => {
    const cases: [string, string][] = [
      ['platfrom=codeforces', 'property platfrom should not exist'],
      ['platform=codeforces,nosuchjudge', 'platform must be a comma-separated list of:'],
      ['platform=', 'platform must be a comma-separated list of:'],
      ['type=CF,div2', 'type must be a comma-separated list of:'],
      ['minDuration=abc', 'minDuration must be a whole number of minutes'],
      ['maxDuration=1.5', 'maxDuration must be a whole number of minutes'],
      ['minDuration=0', 'minDuration must be between 1 and'],
      ['minDuration=200&maxDuration=100', 'minDuration must not exceed maxDuration'],
    ]
    for (const [query, message] of cases) {
      const res = await call(`${FEED}?${query}`)
      expect(res.status, query).toBe(400)
      const body = await res.json<{ statusCode: number; message: string[]; error: string }>()
      expect(body.statusCode).toBe(400)
      expect(body.error).toBe('Bad Request')
      expect(body.message.join('\n'), query).toContain(message)
    }
  })

  it('is declared in the OpenAPI document', async () => {
    const doc = await (await call('/openapi.json')).json<{ paths: Record<string, any> }>()
    const feed = doc.paths['/contests/calendar.ics'].get
    expect(Object.keys(feed.responses[200].content)).toEqual(['text/calendar'])
    expect(feed.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'maxDuration',
      'minDuration',
      'platform',
      'type',
    ])
  })
})

describe('caching of the public feed', () => {
  it('answers If-None-Match with 304, and a catalogue write changes the ETag', async () => {
    const [row] = await addContests([contest(5, { name: 'Cached Round' })])
    const first = await call(FEED)
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=300, s-maxage=300')
    const etag = first.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)

    const again = await call(FEED, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
    expect(again.headers.get('ETag')).toBe(etag)

    const put = await api('PATCH', `/contests/${row.id}`, {
      token: adminToken,
      body: { name: 'Renamed Round' },
    })
    expect(put.status).toBe(200)
    const changed = await call(FEED, { headers: { 'If-None-Match': etag! } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('X-Cache')).toBe('MISS')
    // A missing ETag would differ too: the new one must be there, in the same form.
    const next = changed.headers.get('ETag')
    expect(next).toMatch(/^"[0-9a-f]{32}"$/)
    expect(next).not.toBe(etag)
    expect(await changed.text()).toContain('SUMMARY:Renamed Round')
  })
})

describe('SEQUENCE', () => {
  it('rises when an admin moves the start or the end, and not for other edits', async () => {
    const [row] = await addContests([contest(48, { name: 'Admin Round' })])
    const put = async (body: Record<string, unknown>) => {
      const res = await api('PATCH', `/contests/${row.id}`, { token: adminToken, body })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    const event = async () => (await fetchFeed(FEED)).events[0]

    await put({ startTime: iso(row.startTime + HOUR_MS), endTime: iso(row.endTime + HOUR_MS) })
    const moved = await event()
    expect(moved).toMatchObject({ uid: contestUid(row), sequence: 1 })
    expect(moved.start).toBe(toSecond(row.startTime + HOUR_MS))

    await put({ name: 'Admin Round, renamed' })
    expect(await event()).toMatchObject({ uid: contestUid(row), sequence: 1 })

    await put({ endTime: iso(row.endTime + 2 * HOUR_MS) })
    const longer = await event()
    expect(longer).toMatchObject({ uid: contestUid(row), sequence: 2 })
    expect(longer.end).toBe(toSecond(row.endTime + 2 * HOUR_MS))
  })

  it('rises when the sync finds a contest moved, and not when nothing or only the name changed', async () => {
    const now = Date.now()
    const start = Math.floor((now + 3 * DAY_MS) / 1000)
    const round = (startTimeSeconds: number, name = 'Codeforces Round (Div. 2)') => ({
      status: 'OK',
      result: [
        { id: 4242, name, type: 'CF', phase: 'BEFORE', durationSeconds: 7200, startTimeSeconds },
      ],
    })
    const sync = async (payload: unknown, at: number) => {
      await servePlatform('codeforces', payload)
      const { reports } = await runSync(syncDeps(env), ['codeforces'], at)
      expect(reports[0].error).toBeUndefined()
    }
    const event = async () => {
      const { events } = await fetchFeed(FEED)
      expect(events).toHaveLength(1)
      return events[0]
    }

    await sync(round(start), now)
    const created = await event()
    expect(created).toMatchObject({ uid: 'codeforces-4242@contest-alert-service', sequence: 0 })

    await sync(round(start), now + 1000)
    expect(await event()).toMatchObject({ sequence: 0 })

    await sync(round(start + 3600), now + 2000)
    const moved = await event()
    expect(moved).toMatchObject({ uid: created.uid, sequence: 1, start: (start + 3600) * 1000 })

    await sync(round(start + 3600, 'Codeforces Round 1000 (Div. 2)'), now + 3000)
    expect(await event()).toMatchObject({
      uid: created.uid,
      sequence: 1,
      summary: 'Codeforces Round 1000 (Div. 2)',
    })
  })
})

/** iCalendar times have whole seconds. */
const toSecond = (ms: number) => ms - (ms % 1000)

function iso(ms: number) {
  return new Date(ms).toISOString()
}

/** Start `hours` from now, lasting `minutes`. */
function span(hours: number, minutes: number) {
  const startTime = Date.now() + hours * HOUR_MS
  return { startTime, endTime: startTime + minutes * 60_000 }
}

/** An instant as iCalendar writes it in UTC (20261122T140000Z). */
function icsUtc(ms: number) {
  return iso(ms)
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}
