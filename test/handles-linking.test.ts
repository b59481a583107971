// An account links its own handles on judges (unproven, with a token to place in the public
// profile) and follows friends' handles, each bounded in number; another account's rows are
// missing to it; which result alerts it takes defaults to its own on, friends off; deleting the
// account gives its proven handles up (soft delete) or removes them (hard delete).
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { MAX_FRIENDS, MAX_OWN_HANDLES } from '../src/results/handles.ts'
import { resultsJudges } from '../src/results/judges.ts'
import { api, createAdmin, createUser, type TestUser } from './helpers/users.ts'

const link = (user: TestUser, body: unknown) =>
  api('POST', '/users/handles', { token: user.accessToken, body })
const follow = (user: TestUser, body: unknown) =>
  api('POST', '/users/friends', { token: user.accessToken, body })

/** The judge_handles rows of an account, as stored. */
async function storedHandles(userId: string) {
  const { results } = await env.DB.prepare(
    'SELECT * FROM judge_handles WHERE user_id = ? ORDER BY created_at, id',
  )
    .bind(userId)
    .all<Record<string, unknown>>()
  return results
}

/** Marks a row proven in SQL, as a proof would (the proof itself: handles-proof.test.ts). */
async function markProvenInSql(id: string) {
  await env.DB.prepare(
    `UPDATE judge_handles SET state = 'PROVEN', proof_token = NULL, proof_expires_at = NULL,
       proven_at = ? WHERE id = ?`,
  )
    .bind(Date.now(), id)
    .run()
}

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM judge_handles').run()
})

describe('linking an own handle', () => {
  it('makes an unproven handle with a fresh token, where to place it and until when', async () => {
    const user = await createUser()
    const before = Date.now()
    const res = await link(user, { platform: 'codeforces', handle: '  Kestrel_09 ' })
    expect(res.status).toBe(201)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const judge = resultsJudges().find((j) => j.module.id === 'codeforces')!
    expect(res.body).toMatchObject({
      platform: 'codeforces',
      handle: 'Kestrel_09',
      state: 'unproven',
      provenAt: null,
      rating: null,
      proof: {
        token: expect.stringMatching(/^cas-[a-z2-7]{10}$/),
        where: judge.results.proof.where,
        editUrl: judge.results.proof.editUrl,
        expired: false,
      },
    })
    const expiresIn = Date.parse(res.body.proof.expiresAt) - before
    expect(expiresIn).toBeGreaterThanOrEqual(24 * 3_600_000)
    expect(expiresIn).toBeLessThan(24 * 3_600_000 + 60_000)

    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.status).toBe(200)
    expect(listed.body.handles).toEqual([res.body])
    expect(listed.body.limit).toBe(MAX_OWN_HANDLES)
    expect(listed.body.judges).toContainEqual({
      platform: 'codeforces',
      name: 'Codeforces',
      where: judge.results.proof.where,
      editUrl: judge.results.proof.editUrl,
      source: 'judge',
      own: true,
      submissionProof: true,
      enabled: true,
    })
    // A new link has no submission challenge until one is asked for.
    expect(res.body.proof.challenge).toBeNull()
    // Two links never share a token.
    const other = await link(await createUser(), { platform: 'codeforces', handle: 'Kestrel_09' })
    expect(other.body.proof.token).not.toBe(res.body.proof.token)
  })

  it('answers a handle linked already with the same row, in any case, and renews a dead token', async () => {
    const user = await createUser()
    const first = await link(user, { platform: 'codeforces', handle: 'Kestrel_09' })
    const again = await link(user, { platform: 'codeforces', handle: 'KESTREL_09' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)

    await env.DB.prepare('UPDATE judge_handles SET proof_expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, first.body.id)
      .run()
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles[0].proof).toMatchObject({
      token: null,
      expiresAt: null,
      expired: true,
    })
    const renewed = await link(user, { platform: 'codeforces', handle: 'kestrel_09' })
    expect(renewed.status).toBe(200)
    expect(renewed.body.id).toBe(first.body.id)
    expect(renewed.body.proof.expired).toBe(false)
    expect(renewed.body.proof.token).not.toBe(first.body.proof.token)
  })

  it('refuses a platform without results, naming the judges that have them', async () => {
    const user = await createUser()
    const names = resultsJudges().map((j) => j.module.id)
    expect(names).toContain('codeforces')
    // Kattis' results come from clist.by: never an own handle, a friend only with its key.
    const own = await link(user, { platform: 'kattis', handle: 'someone' })
    expect(own.status).toBe(400)
    expect(own.body.message).toBe(
      "kattis's results come from clist.by, which shows no profile a proof can be read from, " +
        'so an own handle there can never be proven: follow the handle as a friend ' +
        '(POST /users/friends)',
    )
    const friend = await follow(user, { platform: 'kattis', handle: 'someone' })
    expect(friend.status).toBe(400)
    expect(friend.body.message).toBe(
      "kattis's results come from clist.by, which is off (CLIST_API_KEY is not set); " +
        `platform must be one of: ${names.join(', ')}`,
    )
    expect(await storedHandles(user.id)).toEqual([])
  })

  it('refuses malformed bodies in words', async () => {
    const user = await createUser()
    const cases: [unknown, string][] = [
      [{ platform: 'nowhere', handle: 'x' }, 'platform must be one of the following values'],
      [{ platform: 'codeforces', handle: '' }, 'handle must not be empty'],
      [{ platform: 'codeforces', handle: 'a;b' }, 'handle must hold only letters'],
      [{ platform: 'codeforces', handle: 'x'.repeat(65) }, 'handle must be at most 64'],
      [{ platform: 'codeforces', handle: 'ok', state: 'PROVEN' }, 'state'],
    ]
    for (const [body, words] of cases) {
      const res = await link(user, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(res.body.message)).toContain(words)
    }
    expect((await api('POST', '/users/handles', { body: cases[0][0] })).status).toBe(401)
  })

  it(`holds at most ${MAX_OWN_HANDLES} own handles per account`, async () => {
    const user = await createUser()
    for (let i = 0; i < MAX_OWN_HANDLES; i++) {
      expect((await link(user, { platform: 'codeforces', handle: `alt_${i}` })).status).toBe(201)
    }
    const refused = await link(user, { platform: 'codeforces', handle: 'one_more' })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      `At most ${MAX_OWN_HANDLES} own handles per account; remove one first`,
    )
    // One held already is still answered, and friends are counted apart.
    expect((await link(user, { platform: 'codeforces', handle: 'alt_3' })).status).toBe(200)
    expect((await follow(user, { platform: 'codeforces', handle: 'one_more' })).status).toBe(201)
    expect(await storedHandles(user.id)).toHaveLength(MAX_OWN_HANDLES + 1)
  })
})

describe('links at once', () => {
  it('never pass the cap', async () => {
    const user = await createUser()
    const answers = await Promise.all(
      Array.from({ length: MAX_OWN_HANDLES + 3 }, (_, i) =>
        link(user, { platform: 'codeforces', handle: `burst_${i}` }),
      ),
    )
    const statuses = answers.map((res) => res.status).sort()
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_OWN_HANDLES)
    expect(statuses.filter((s) => s === 400)).toHaveLength(3)
    expect(await storedHandles(user.id)).toHaveLength(MAX_OWN_HANDLES)
  })
})

describe('another account’s handles', () => {
  it('are missing to everyone else: verify, remove, history and listing', async () => {
    const owner = await createUser()
    const other = await createUser()
    const admin = await createAdmin()
    const own = (await link(owner, { platform: 'codeforces', handle: 'Kestrel_09' })).body
    const friend = (await follow(owner, { platform: 'codeforces', handle: 'lynx_dev' })).body
    for (const caller of [other, admin]) {
      const token = caller.accessToken
      for (const id of [own.id, friend.id]) {
        const verify = await api('POST', `/users/handles/${id}/verify`, { token })
        expect(verify.status).toBe(404)
        expect(verify.body.message).toBe('Your account has no own handle with that id')
        expect((await api('DELETE', `/users/handles/${id}`, { token })).status).toBe(404)
        expect((await api('DELETE', `/users/friends/${id}`, { token })).status).toBe(404)
        const history = await api('GET', `/users/handles/${id}/history`, { token })
        expect(history.status).toBe(404)
        expect(history.body.message).toBe('Your account has no handle with that id')
      }
      expect((await api('GET', '/users/handles', { token })).body.handles).toEqual([])
      expect((await api('GET', '/users/friends', { token })).body.friends).toEqual([])
    }
    // A friend's id is no own handle, and an own handle's id no friend.
    const token = owner.accessToken
    expect((await api('POST', `/users/handles/${friend.id}/verify`, { token })).status).toBe(404)
    expect((await api('DELETE', `/users/handles/${friend.id}`, { token })).status).toBe(404)
    expect((await api('DELETE', `/users/friends/${own.id}`, { token })).status).toBe(404)
    expect(await storedHandles(owner.id)).toHaveLength(2)
    const bad = await api('DELETE', '/users/handles/not-an-id', { token })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual(['Invalid handle ID format'])
  })

  it('is removed by its owner, and a proven one is then free to be proven by another', async () => {
    const owner = await createUser()
    const own = (await link(owner, { platform: 'codeforces', handle: 'Kestrel_09' })).body
    await markProvenInSql(own.id)
    const res = await api('DELETE', `/users/handles/${own.id}`, { token: owner.accessToken })
    expect(res.status).toBe(204)
    expect(await storedHandles(owner.id)).toEqual([])
    const again = await api('DELETE', `/users/handles/${own.id}`, { token: owner.accessToken })
    expect(again.status).toBe(404)
  })
})

describe('friends', () => {
  it('are followed without proof, listed, bounded and removed', async () => {
    const user = await createUser()
    const added = await follow(user, { platform: 'codeforces', handle: 'Lynx_Dev' })
    expect(added.status).toBe(201)
    expect(added.body).toEqual({
      id: expect.any(String),
      platform: 'codeforces',
      handle: 'Lynx_Dev',
      createdAt: expect.stringMatching(/^\d{4}-/),
    })
    expect((await follow(user, { platform: 'codeforces', handle: 'lynx_dev' })).status).toBe(200)
    // The same handle may be one's own and a friend's: the two are kept apart.
    expect((await link(user, { platform: 'codeforces', handle: 'lynx_dev' })).status).toBe(201)
    const listed = await api('GET', '/users/friends', { token: user.accessToken })
    expect(listed.body).toEqual({ friends: [added.body], limit: MAX_FRIENDS })
    const [stored] = (await storedHandles(user.id)).filter((r) => r.relation === 'FRIEND')
    expect(stored).toMatchObject({ state: 'UNPROVEN', proof_token: null, handle_key: 'lynx_dev' })

    const removed = await api('DELETE', `/users/friends/${added.body.id}`, {
      token: user.accessToken,
    })
    expect(removed.status).toBe(204)
    expect((await api('GET', '/users/friends', { token: user.accessToken })).body.friends).toEqual(
      [],
    )
  })

  it(`are at most ${MAX_FRIENDS} per account`, async () => {
    const user = await createUser()
    const now = Date.now()
    // The first ones in SQL: a hundred requests would spend the link limit the test is not about.
    const statements = Array.from({ length: MAX_FRIENDS - 1 }, (_, i) =>
      env.DB.prepare(
        `INSERT INTO judge_handles (id, user_id, platform, handle, handle_key, relation, state,
           created_at, updated_at) VALUES (?, ?, 'codeforces', ?, ?, 'FRIEND', 'UNPROVEN', ?, ?)`,
      ).bind(`f${String(i).padStart(23, '0')}`, user.id, `friend_${i}`, `friend_${i}`, now, now),
    )
    await env.DB.batch(statements)
    expect((await follow(user, { platform: 'codeforces', handle: 'last_one' })).status).toBe(201)
    const refused = await follow(user, { platform: 'codeforces', handle: 'too_many' })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      `At most ${MAX_FRIENDS} friends per account; remove one first`,
    )
    const listed = await api('GET', '/users/friends', { token: user.accessToken })
    expect(listed.body.friends).toHaveLength(MAX_FRIENDS)
  })
})

describe('/users/result-preferences', () => {
  it('defaults to own results on and friends’ off, and merges a change', async () => {
    const user = await createUser()
    const token = user.accessToken
    const read = await api('GET', '/users/result-preferences', { token })
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ ownResults: true, friendResults: false })

    const put = (body: unknown) => api('PUT', '/users/result-preferences', { token, body })
    expect((await put({ friendResults: true })).body).toEqual({
      ownResults: true,
      friendResults: true,
    })
    expect((await put({ ownResults: false })).body).toEqual({
      ownResults: false,
      friendResults: true,
    })
    expect((await api('GET', '/users/result-preferences', { token })).body).toEqual({
      ownResults: false,
      friendResults: true,
    })
    const refused = await put({ ownResults: 'yes', alerts: true })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body.message)).toContain('ownResults must be a boolean value')
    // Another account still has the defaults.
    const other = await createUser()
    expect(
      (await api('GET', '/users/result-preferences', { token: other.accessToken })).body,
    ).toEqual({ ownResults: true, friendResults: false })
    expect((await api('GET', '/users/result-preferences')).status).toBe(401)
  })
})

describe('deleting the account', () => {
  it('gives its proven handles up on a soft delete, and removes every row on a hard one', async () => {
    const user = await createUser()
    const own = (await link(user, { platform: 'codeforces', handle: 'Kestrel_09' })).body
    const unproven = (await link(user, { platform: 'codeforces', handle: 'other_09' })).body
    await follow(user, { platform: 'codeforces', handle: 'lynx_dev' })
    await markProvenInSql(own.id)
    await api('PUT', '/users/result-preferences', {
      token: user.accessToken,
      body: { friendResults: true },
    })

    const deleted = await api('DELETE', '/user/delete-account', { token: user.accessToken })
    expect(deleted.status).toBe(200)
    const rows = await storedHandles(user.id)
    expect(rows.map((r) => [r.id, r.state, r.proof_token])).toEqual([
      [own.id, 'UNPROVEN', null],
      [unproven.id, 'UNPROVEN', unproven.proof.token],
      [expect.any(String), 'UNPROVEN', null],
    ])
    const proven = await env.DB.prepare(
      "SELECT count(*) AS n FROM judge_handles WHERE state = 'PROVEN'",
    ).first<{ n: number }>()
    expect(proven!.n).toBe(0)

    const admin = await createAdmin()
    const purged = await api('DELETE', `/users/${user.id}`, { token: admin.accessToken })
    expect(purged.status).toBe(200)
    expect(await storedHandles(user.id)).toEqual([])
    const prefs = await env.DB.prepare(
      'SELECT count(*) AS n FROM result_preferences WHERE user_id = ?',
    )
      .bind(user.id)
      .first<{ n: number }>()
    expect(prefs!.n).toBe(0)
  })
})
