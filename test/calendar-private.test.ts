// A user's private iCalendar feed: the secret address (hashed at rest, rotated, revoked), the
// contests the user's preferences, follows and mutes select, and one alarm per lead time.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { contestUid } from '../src/calendar/contest-event.ts'
import { createDb } from '../src/db/client.ts'
import { sha256Hex } from '../src/lib/crypto.ts'
import { HOUR_MS } from '../src/lib/time.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { fetchFeed } from './helpers/calendar.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { api, createAdmin, createUser, type TestUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

const db = createDb(env.DB)
let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(clearContests)

/** Creates (or rotates) the user's feed; answers the path of the new address. */
async function newFeed(user: TestUser): Promise<string> {
  const res = await api('POST', '/users/calendar', { token: user.accessToken })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return new URL(res.body.url).pathname
}

async function setPreferences(user: TestUser, preferences: Record<string, unknown>) {
  const res = await api('PUT', '/users/profile', { token: user.accessToken, body: { preferences } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

async function storedHashOf(userId: string) {
  const row = await env.DB.prepare('SELECT token_hash FROM calendar_feeds WHERE user_id = ?')
    .bind(userId)
    .first<{ token_hash: string }>()
  return row?.token_hash
}

async function expectNotFound(path: string) {
  const res = await call(path)
  expect(res.status, path).toBe(404)
  expect(await res.json()).toEqual({
    statusCode: 404,
    message: 'Calendar feed not found',
    error: 'Not Found',
  })
}

const namesIn = async (path: string) => (await fetchFeed(path)).events.map((e) => e.summary).sort()

describe('the feed address', () => {
  it('is a 32-byte base64url token, answered once and stored only as its SHA-256', async () => {
    const user = await createUser()
    const res = await api('POST', '/users/calendar', { token: user.accessToken })
    expect(res.status).toBe(201)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const token = res.body.url.match(/\/calendar\/([A-Za-z0-9_-]+)\.ics$/)?.[1]
    expect(token).toHaveLength(43)
    expect(res.body).toEqual({
      url: `http://localhost:8787/calendar/${token}.ics`,
      webcalUrl: `webcal://localhost:8787/calendar/${token}.ics`,
    })

    const stored = await storedHashOf(user.id)
    expect(stored).toBe(await sha256Hex(token))
    expect(stored).not.toContain(token)
    const { results } = await env.DB.prepare('SELECT * FROM calendar_feeds').all()
    expect(JSON.stringify(results)).not.toContain(token)
  })

  it('needs a signed-in user', async () => {
    expect((await api('POST', '/users/calendar')).status).toBe(401)
    expect((await api('DELETE', '/users/calendar')).status).toBe(401)
  })

  it('is replaced by a second POST: the old address answers 404, the new one the feed', async () => {
    const user = await createUser()
    const old = await newFeed(user)
    await fetchFeed(old)
    const rotated = await newFeed(user)
    expect(rotated).not.toBe(old)
    await expectNotFound(old)
    await fetchFeed(rotated)
  })

  it('is revoked by DELETE (204), after which the feed is 404; a repeated DELETE is 204 too', async () => {
    const user = await createUser()
    const path = await newFeed(user)
    const revoked = await call('/users/calendar', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${user.accessToken}` },
    })
    expect(revoked.status).toBe(204)
    expect(await storedHashOf(user.id)).toBeUndefined()
    await expectNotFound(path)
    const again = await call('/users/calendar', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${user.accessToken}` },
    })
    expect(again.status).toBe(204)
    await expectNotFound(path)
  })

  it('answers 404 for an unknown token and for names that are no feed file', async () => {
    await expectNotFound(`/calendar/${'A'.repeat(43)}.ics`)
    await expectNotFound('/calendar/short.ics')
    await expectNotFound(`/calendar/${'A'.repeat(43)}`)
    await expectNotFound(`/calendar/${'A'.repeat(43)}.ics.ics`)
  })

  it('closes while the account is deactivated, and goes with a deleted account', async () => {
    const user = await createUser()
    const path = await newFeed(user)
    expect((await api('DELETE', '/users/profile', { token: user.accessToken })).status).toBe(200)
    await expectNotFound(path)
    expect((await api('PUT', '/users/activate', { token: user.accessToken })).status).toBe(200)
    await fetchFeed(path)

    const removed = await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    expect(removed.status).toBe(200)
    expect(await storedHashOf(user.id)).toBeUndefined()
    await expectNotFound(path)
  })

  it('is declared in the OpenAPI document', async () => {
    const doc = await (await call('/openapi.json')).json<{ paths: Record<string, any> }>()
    expect(Object.keys(doc.paths['/users/calendar']).sort()).toEqual(['delete', 'post'])
    const feed = doc.paths['/calendar/{file}'].get
    expect(Object.keys(feed.responses[200].content)).toEqual(['text/calendar'])
  })
})

describe('the private feed', () => {
  it('sets one display alarm per lead time on every event', async () => {
    const user = await createUser()
    await setPreferences(user, { leadTimes: [1440, 60, 10] })
    const [first, second] = await addContests([contest(30), contest(50)])
    const path = await newFeed(user)

    const { res, events, name } = await fetchFeed(path)
    expect(name).toBe('My programming contests')
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=300')
    expect(events.map((e) => e.uid)).toEqual([contestUid(first), contestUid(second)])
    for (const event of events) {
      expect(event.alarms).toEqual([
        ['DISPLAY', -1440 * 60],
        ['DISPLAY', -60 * 60],
        ['DISPLAY', -10 * 60],
      ])
    }
  })

  it('answers If-None-Match with 304 while nothing changed', async () => {
    const user = await createUser()
    await addContests([contest(5)])
    const path = await newFeed(user)
    const { res } = await fetchFeed(path)
    const etag = res.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    const again = await call(path, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
    expect(again.headers.get('ETag')).toBe(etag)

    await addContests([contest(6)])
    const changed = await call(path, { headers: { 'If-None-Match': etag! } })
    expect(changed.status).toBe(200)
    // A missing ETag would differ too: the new one must be there, in the same form.
    const next = changed.headers.get('ETag')
    expect(next).toMatch(/^"[0-9a-f]{32}"$/)
    expect(next).not.toBe(etag)
  })

  it('holds the contests of the user’s platforms, types and noise filters', async () => {
    const user = await createUser()
    await setPreferences(user, {
      platforms: ['codeforces', 'atcoder'],
      contestTypes: ['div2', 'ABC'],
      filters: { minDuration: 60, maxDuration: 180, excludeWords: ['Unrated'] },
    })
    await addContests([
      contest(1, { name: 'Div 2 round', platformMetadata: { division: 'div2' } }),
      contest(2, { name: 'Div 1 + Div 2 round', platformMetadata: { division: 'div1+div2' } }),
      contest(3, { name: 'Div 1 round', platformMetadata: { division: 'div1' } }),
      contest(4, { name: 'ABC 400', platform: 'atcoder', type: 'ABC' }),
      contest(5, { name: 'ARC 200', platform: 'atcoder', type: 'ARC' }),
      contest(6, { name: 'LeetCode Weekly', platform: 'leetcode', type: 'WEEKLY' }),
      contest(7, { name: 'UNRATED div 2 round', platformMetadata: { division: 'div2' } }),
      contest(8, { name: 'Long div 2', platformMetadata: { division: 'div2' }, ...hours(8, 4) }),
      contest(9, { name: 'Short ABC', platform: 'atcoder', type: 'ABC', ...hours(9, 0.5) }),
      contest(-24, { name: 'Yesterday’s div 2', platformMetadata: { division: 'div2' } }),
      contest(-31 * 24, { name: 'Old div 2', platformMetadata: { division: 'div2' } }),
    ])
    expect(await namesIn(await newFeed(user))).toEqual([
      'ABC 400',
      'Div 1 + Div 2 round',
      'Div 2 round',
      'Yesterday’s div 2',
    ])
  })

  it('adds a followed contest the preferences leave out, and drops a muted one', async () => {
    const user = await createUser()
    await setPreferences(user, {
      platforms: ['codeforces'],
      filters: { maxDuration: 180, excludeWords: ['kotlin'] },
    })
    const [kept, muted, otherPlatform, tooLong, excluded, unfollowed] = await addContests([
      contest(1, { name: 'Kept round' }),
      contest(2, { name: 'Muted round' }),
      contest(3, { name: 'Followed LeetCode', platform: 'leetcode', type: 'WEEKLY' }),
      contest(4, { name: 'Followed long round', ...hours(4, 5) }),
      contest(5, { name: 'Followed Kotlin Heroes' }),
      contest(6, { name: 'Not followed LeetCode', platform: 'leetcode', type: 'WEEKLY' }),
    ])
    const path = await newFeed(user)
    expect(await namesIn(path)).toEqual(['Kept round', 'Muted round'])

    const now = Date.now()
    for (const row of [otherPlatform, tooLong, excluded]) {
      expect(await setSubscription(db, user.id, row.id, 'follow', now)).toBe(true)
    }
    expect(await setSubscription(db, user.id, muted.id, 'mute', now)).toBe(true)

    const { events } = await fetchFeed(path)
    expect(events.map((e) => e.uid).sort()).toEqual(
      [kept, otherPlatform, tooLong, excluded].map(contestUid).sort(),
    )
    expect(events.map((e) => e.uid)).not.toContain(contestUid(unfollowed))
  })

  it('never shows a followed contest outside the window or taken out of the catalogue', async () => {
    const user = await createUser()
    const [old, hidden] = await addContests([
      contest(-40 * 24, { name: 'Long ago' }),
      contest(5, { name: 'Withdrawn', isActive: false }),
    ])
    for (const row of [old, hidden])
      await setSubscription(db, user.id, row.id, 'follow', Date.now())
    expect(await namesIn(await newFeed(user))).toEqual([])
  })
})

/** Starts `startsIn` hours from now and lasts `lasting` hours. */
function hours(startsIn: number, lasting: number) {
  const startTime = Date.now() + startsIn * HOUR_MS
  return { startTime, endTime: startTime + lasting * HOUR_MS }
}
