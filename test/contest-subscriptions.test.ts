// Follow and mute of one contest through the API: writes, list, errors, each user's own rows.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { newId } from '../src/lib/ids.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { addContests, contest } from './helpers/contests.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'

const subscription = (id: string) => `/users/contests/${id}/subscription`
const LIST = '/users/contests/subscriptions'

const choose = (user: TestUser, contestId: string, body: unknown) =>
  api('PUT', subscription(contestId), { token: user.accessToken, body })
const clear = (user: TestUser, contestId: string) =>
  api('DELETE', subscription(contestId), { token: user.accessToken })
const listOf = async (user: TestUser, query = '') => {
  const res = await api('GET', `${LIST}${query}`, { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body
}

let rounds: Awaited<ReturnType<typeof addContests>>

beforeAll(async () => {
  rounds = await addContests([
    contest(10, { name: 'Codeforces Round 2001', websiteUrl: 'https://codeforces.com/c/2001' }),
    contest(20),
    contest(30),
  ])
})

describe('PUT /users/contests/{id}/subscription', () => {
  it('follows a contest and answers the choice', async () => {
    const me = await createUser()
    const before = Date.now()
    const res = await choose(me, rounds[0].id, { mode: 'follow' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['contestId', 'mode', 'updatedAt'])
    expect(res.body).toMatchObject({ contestId: rounds[0].id, mode: 'follow' })
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(before)
    expect(res.body.updatedAt).toBe(new Date(Date.parse(res.body.updatedAt)).toISOString())
  })

  it('switches between follow and mute, keeping one choice per contest', async () => {
    const me = await createUser()
    expect((await choose(me, rounds[0].id, { mode: 'follow' })).body.mode).toBe('follow')
    expect((await choose(me, rounds[0].id, { mode: 'mute' })).body.mode).toBe('mute')
    const list = await listOf(me)
    expect(list.total).toBe(1)
    expect(list.subscriptions).toHaveLength(1)
    expect(list.subscriptions[0]).toMatchObject({ contestId: rounds[0].id, mode: 'mute' })
    expect((await choose(me, rounds[0].id, { mode: 'follow' })).body.mode).toBe('follow')
    expect((await listOf(me)).subscriptions.map((s: { mode: string }) => s.mode)).toEqual([
      'follow',
    ])
  })

  it('answers 404 in the error shape for a contest that does not exist', async () => {
    const me = await createUser()
    const unknown = newId()
    const res = await choose(me, unknown, { mode: 'mute' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      statusCode: 404,
      message: `Contest with ID ${unknown} not found`,
      error: 'Not Found',
    })
    expect((await listOf(me)).total).toBe(0)
  })

  it('answers 400 for an id that is not a record id', async () => {
    const me = await createUser()
    const res = await choose(me, 'not-an-id', { mode: 'follow' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      statusCode: 400,
      message: ['Invalid contest ID format'],
      error: 'Bad Request',
    })
  })

  it('answers 400 for an unknown mode, a missing mode and an unknown key', async () => {
    const me = await createUser()
    const id = rounds[1].id
    const wrong = await choose(me, id, { mode: 'snooze' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toEqual(['mode must be one of the following values: follow, mute'])
    const missing = await choose(me, id, {})
    expect(missing.status).toBe(400)
    expect(missing.body.message).toEqual(['mode must be one of the following values: follow, mute'])
    const extra = await choose(me, id, { mode: 'follow', userId: newId() })
    expect(extra.status).toBe(400)
    expect(extra.body).toEqual({
      statusCode: 400,
      message: ['property userId should not exist'],
      error: 'Bad Request',
    })
    expect((await listOf(me)).total).toBe(0)
  })
})

describe('DELETE /users/contests/{id}/subscription', () => {
  it('goes back to the default with 204, and again with 204 when no choice is left', async () => {
    const me = await createUser()
    await choose(me, rounds[0].id, { mode: 'mute' })
    await choose(me, rounds[1].id, { mode: 'follow' })
    const res = await clear(me, rounds[0].id)
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    const list = await listOf(me)
    expect(list.subscriptions.map((s: { contestId: string }) => s.contestId)).toEqual([
      rounds[1].id,
    ])
    expect((await clear(me, rounds[0].id)).status).toBe(204)
  })

  it('answers 404 for an unknown contest and 400 for a malformed id', async () => {
    const me = await createUser()
    const unknown = newId()
    const res = await clear(me, unknown)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      statusCode: 404,
      message: `Contest with ID ${unknown} not found`,
      error: 'Not Found',
    })
    expect((await clear(me, 'xyz')).body.message).toEqual(['Invalid contest ID format'])
  })
})

describe('GET /users/contests/subscriptions', () => {
  it('lists the choices, the latest first, each with a short summary of its contest', async () => {
    const me = await createUser()
    const db = createDb(env.DB)
    const t = Date.UTC(2026, 10, 20, 12)
    await setSubscription(db, me.id, rounds[0].id, 'follow', t)
    await setSubscription(db, me.id, rounds[1].id, 'mute', t + 2000)
    await setSubscription(db, me.id, rounds[2].id, 'follow', t + 1000)

    const list = await listOf(me)
    expect(list).toMatchObject({ total: 3, limit: 50, offset: 0 })
    expect(list.subscriptions.map((s: { contestId: string }) => s.contestId)).toEqual([
      rounds[1].id,
      rounds[2].id,
      rounds[0].id,
    ])
    const first = list.subscriptions.find(
      (s: { contestId: string }) => s.contestId === rounds[0].id,
    )
    expect(first).toEqual({
      contestId: rounds[0].id,
      mode: 'follow',
      updatedAt: new Date(t).toISOString(),
      contest: {
        id: rounds[0].id,
        name: 'Codeforces Round 2001',
        platform: 'codeforces',
        type: 'CF',
        phase: 'BEFORE',
        startTime: new Date(rounds[0].startTime).toISOString(),
        endTime: new Date(rounds[0].endTime).toISOString(),
        durationMinutes: rounds[0].durationMinutes,
        websiteUrl: 'https://codeforces.com/c/2001',
      },
    })
  })

  it('pages with limit and offset and refuses limits out of range', async () => {
    const me = await createUser()
    const db = createDb(env.DB)
    const t = Date.UTC(2026, 10, 20, 12)
    for (const [i, round] of rounds.entries()) {
      await setSubscription(db, me.id, round.id, 'mute', t + i)
    }
    const page = await listOf(me, '?limit=1&offset=1')
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 })
    expect(page.subscriptions.map((s: { contestId: string }) => s.contestId)).toEqual([
      rounds[1].id,
    ])
    const tooMany = await api('GET', `${LIST}?limit=101`, { token: me.accessToken })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toEqual(['limit must not be greater than 100'])
  })

  it('shows each user only their own choices, and nobody can change another’s', async () => {
    const ada = await createUser()
    const bob = await createUser()
    await choose(ada, rounds[0].id, { mode: 'follow' })
    expect(await listOf(bob)).toMatchObject({ subscriptions: [], total: 0 })

    // Bob's writes on the same contest touch Bob's row only.
    await choose(bob, rounds[0].id, { mode: 'mute' })
    await clear(bob, rounds[0].id)
    const adas = await listOf(ada)
    expect(adas.subscriptions).toHaveLength(1)
    expect(adas.subscriptions[0]).toMatchObject({ contestId: rounds[0].id, mode: 'follow' })
    expect((await listOf(bob)).total).toBe(0)
  })
})

describe('signed-in only', () => {
  it('answers 401 without a token on every route', async () => {
    const id = rounds[0].id
    for (const [method, path, body] of [
      ['GET', LIST, undefined],
      ['PUT', subscription(id), { mode: 'mute' }],
      ['DELETE', subscription(id), undefined],
    ] as const) {
      const res = await api(method, path, { body })
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
    }
  })

  it('declares the routes in the OpenAPI document with bearer security', async () => {
    const { body } = await api('GET', '/openapi.json')
    const item = body.paths['/users/contests/{id}/subscription']
    expect(item.put.security).toEqual([{ bearerAuth: [] }])
    expect(item.delete.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(item.delete.responses)).toContain('204')
    expect(body.paths['/users/contests/subscriptions'].get.security).toEqual([{ bearerAuth: [] }])
  })
})
