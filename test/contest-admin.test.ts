// Admin contest writes and sync triggers: validation, duplicates, all-or-nothing bulk, roles.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { serveAllPlatforms, servePlatform, SOURCED_PLATFORMS } from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { createAdmin } from './helpers/users.ts'
import { call, getJson } from './helpers/worker.ts'

let adminToken: string
let userToken: string
let ipSeq = 0

async function signUp(email: string): Promise<string> {
  const res = await call('/auth/signup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `198.51.100.${++ipSeq}` },
    body: JSON.stringify({ email, password: 'correct horse battery', name: 'Test Person' }),
  })
  expect(res.status).toBe(201)
  return (await res.json<{ accessToken: string }>()).accessToken
}

beforeAll(async () => {
  // A bootstrap address becomes admin once verified, which createAdmin does through the API.
  adminToken = (await createAdmin()).accessToken
  userToken = await signUp('contest-admin-user@example.test')
})

beforeEach(async () => {
  await clearContests()
  await standIn.reset()
  await env.DB.prepare('DELETE FROM job_locks').run()
})

function send(method: string, path: string, body?: unknown, token = adminToken) {
  return call(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const future = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString()
const valid = (over: Record<string, unknown> = {}) => ({
  platformId: '9001',
  name: 'Admin Round',
  platform: 'codeforces',
  type: 'CF',
  startTime: future(10),
  endTime: future(12),
  ...over,
})

describe('POST /contests', () => {
  it('creates a contest that the next public read shows', async () => {
    await getJson('/contests/upcoming')
    const res = await send('POST', '/contests', valid({ difficulty: 'HARD' }))
    expect(res.status).toBe(201)
    const created = await res.json<{ id: string; durationMinutes: number; phase: string }>()
    expect(created).toMatchObject({ durationMinutes: 120, phase: 'BEFORE' })
    const upcoming = await getJson('/contests/upcoming')
    expect(upcoming.body.map((c: { id: string }) => c.id)).toEqual([created.id])
  })

  it('answers 409 for a platform and platformId that already exist', async () => {
    await addContests([contest(5, { platformId: '9001' })])
    const res = await send('POST', '/contests', valid())
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      statusCode: 409,
      message: 'Contest with platform codeforces and platformId 9001 already exists',
      error: 'Conflict',
    })
  })

  it('rejects invalid fields with every message, and unknown keys', async () => {
    const res = await send('POST', '/contests', {
      ...valid({
        platform: 'leetcode',
        type: 'CF',
        endTime: future(9),
        websiteUrl: 'javascript:alert(1)',
      }),
      phase: 'BEFORE',
    })
    expect(res.status).toBe(400)
    const { message } = await res.json<{ message: string[] }>()
    expect(message).toEqual(
      expect.arrayContaining([
        'property phase should not exist',
        'websiteUrl must be a URL address',
      ]),
    )
    const rules = await send(
      'POST',
      '/contests',
      valid({ platform: 'leetcode', endTime: future(9) }),
    )
    expect((await rules.json<{ message: string[] }>()).message).toEqual([
      'type must be one of the following values for leetcode: WEEKLY, BIWEEKLY',
      'endTime must be after startTime',
    ])
  })

  it('answers a malformed JSON body with 400, not 500', async () => {
    const res = await call('/contests', {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: '{"name": ',
    })
    expect(res.status).toBe(400)
  })

  it('is for admins only: 401 without a token, 403 for a user', async () => {
    const anonymous = await call('/contests', { method: 'POST', body: JSON.stringify(valid()) })
    expect(anonymous.status).toBe(401)
    const user = await send('POST', '/contests', valid(), userToken)
    expect(user.status).toBe(403)
    expect(await user.json()).toEqual({
      statusCode: 403,
      message: 'Forbidden resource',
      error: 'Forbidden',
    })
  })
})

describe('POST /contests/bulk', () => {
  it('creates up to 100 contests in one go', async () => {
    const contests = Array.from({ length: 100 }, (_, i) => valid({ platformId: `b${i}` }))
    const res = await send('POST', '/contests/bulk', { contests })
    expect(res.status).toBe(201)
    expect((await res.json<{ created: number }>()).created).toBe(100)
  })

  it('writes nothing when one contest is invalid or a duplicate', async () => {
    await addContests([contest(5, { platformId: 'taken' })])
    const bad = await send('POST', '/contests/bulk', {
      contests: [valid({ platformId: 'a' }), valid({ platformId: 'b', endTime: future(1) })],
    })
    expect(bad.status).toBe(400)
    const duplicate = await send('POST', '/contests/bulk', {
      contests: [valid({ platformId: 'c' }), valid({ platformId: 'taken' })],
    })
    expect(duplicate.status).toBe(409)
    const twice = await send('POST', '/contests/bulk', {
      contests: [valid({ platformId: 'd' }), valid({ platformId: 'd' })],
    })
    expect(twice.status).toBe(409)
    const { body } = await getJson('/contests/stats')
    expect(body.totalContests).toBe(1)
  })

  it('refuses an empty list and more than 100', async () => {
    const empty = await send('POST', '/contests/bulk', { contests: [] })
    expect((await empty.json<{ message: string[] }>()).message).toEqual([
      'contests must contain at least 1 elements',
    ])
    const many = Array.from({ length: 101 }, (_, i) => valid({ platformId: `m${i}` }))
    const tooMany = await send('POST', '/contests/bulk', { contests: many })
    expect(tooMany.status).toBe(400)
  })
})

describe('PATCH and DELETE /contests/:id', () => {
  it('changes fields, clears optional ones with null and keeps the rest', async () => {
    const [row] = await addContests([contest(5, { description: 'old', difficulty: 'EASY' })])
    const res = await send('PATCH', `/contests/${row.id}`, {
      name: 'Renamed',
      description: null,
      isActive: false,
    })
    expect(res.status).toBe(200)
    const body = await res.json<Record<string, unknown>>()
    expect(body).toMatchObject({ name: 'Renamed', difficulty: 'EASY', isActive: false })
    expect(body).not.toHaveProperty('description')
    expect((await getJson('/contests/upcoming')).body).toEqual([])
  })

  it('re-arms reminders when the start time moves, and checks the times against each other', async () => {
    const [row] = await addContests([contest(5)])
    await env.DB.prepare('UPDATE contests SET is_notified = 1 WHERE id = ?').bind(row.id).run()
    const newStart = future(6)
    const moved = await send('PATCH', `/contests/${row.id}`, { startTime: newStart })
    expect((await moved.json<{ isNotified: boolean }>()).isNotified).toBe(false)
    // Recorded for the notifier, which tells those already reminded, as a synced reschedule is.
    const reschedule = await env.DB.prepare(
      'SELECT old_start_time, new_start_time FROM contest_reschedules WHERE contest_id = ?',
    )
      .bind(row.id)
      .first()
    expect(reschedule).toEqual({
      old_start_time: row.startTime,
      new_start_time: Date.parse(newStart),
    })
    const bad = await send('PATCH', `/contests/${row.id}`, { startTime: future(100) })
    expect(bad.status).toBe(400)
    expect((await bad.json<{ message: string[] }>()).message).toEqual([
      'endTime must be after startTime',
    ])
  })

  it('refuses to change platform or platformId, and an empty patch', async () => {
    const [row] = await addContests([contest(5)])
    const res = await send('PATCH', `/contests/${row.id}`, { platformId: 'x' })
    expect((await res.json<{ message: string[] }>()).message).toEqual([
      'property platformId should not exist',
    ])
    const empty = await send('PATCH', `/contests/${row.id}`, {})
    expect((await empty.json<{ message: string[] }>()).message).toEqual([
      'At least one field must be given',
    ])
  })

  it('deletes a contest, then answers 404 for it', async () => {
    const [row] = await addContests([contest(5)])
    const res = await send('DELETE', `/contests/${row.id}`)
    expect(await res.json()).toEqual({ message: 'Contest deleted successfully' })
    expect((await send('DELETE', `/contests/${row.id}`)).status).toBe(404)
    expect((await send('PATCH', `/contests/${row.id}`, { name: 'x y' })).status).toBe(404)
  })
})

describe('POST /contests/sync', () => {
  it('syncs every platform and answers each outcome', async () => {
    await serveAllPlatforms(Date.now())
    const res = await send('POST', '/contests/sync')
    expect(res.status).toBe(200)
    const { results } = await res.json<{ results: { platform: string; created: number }[] }>()
    expect(results.map((r) => r.platform)).toEqual(SOURCED_PLATFORMS)
    for (const r of results) expect(r.created).toBeGreaterThan(0)
  })

  it('syncs one platform and reports its failure without a 5xx', async () => {
    await servePlatform('codechef', 'upstream exploded', 502)
    const res = await send('POST', '/contests/sync/codechef')
    expect(res.status).toBe(200)
    const { results } = await res.json<{ results: { platform: string; error?: string }[] }>()
    expect(results).toHaveLength(1)
    expect(results[0].error).toMatch(/502/)
    expect((await send('POST', '/contests/sync/nosuchjudge')).status).toBe(400)
  })

  it('answers 409 while another sync runs, and 403 to a user', async () => {
    await env.DB.prepare(
      "INSERT INTO job_locks (name, holder, expires_at) VALUES ('contest-sync:codeforces', 'other', ?)",
    )
      .bind(Date.now() + 60_000)
      .run()
    const busy = await send('POST', '/contests/sync')
    expect(busy.status).toBe(409)
    expect((await send('POST', '/contests/sync', undefined, userToken)).status).toBe(403)
  })
})
