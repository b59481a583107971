// An own handle is proven by the token the service showed, placed in a field of the handle's
// public profile on the judge and read back through the judge's API (Codeforces' user.info,
// answered here by the stand-in in its real format): found, absent, expired, spelt otherwise by the
// judge, renamed; a proof moves a handle another account held; the judge's failures are 502/503 in
// the API's error shape; each account's verifications are limited; the rating history is read.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { HANDLE_RULES } from '../src/results/handle-routes.ts'
import sakuraProfile from '../src/platforms/atcoder/fixtures/results/profile-sakura_k.html?raw'
import kestrelRating from '../src/platforms/codeforces/fixtures/results/user-rating-kestrel.json'
import { resultsJudge } from '../src/results/judges.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'

const USER_INFO = '/codeforces-api/user.info'

/** user.info's answer for one handle, as Codeforces sends it (its fields trimmed to a few). */
function userInfo(handle: string, fields: { firstName?: string; organization?: string } = {}) {
  return {
    status: 200,
    body: {
      status: 'OK',
      result: [
        {
          handle,
          ...fields,
          lastName: 'Petrova',
          country: 'Kazakhstan',
          contribution: 3,
          rank: 'expert',
          rating: 1623,
          maxRank: 'expert',
          maxRating: 1623,
          lastOnlineTimeSeconds: 1795290000,
          registrationTimeSeconds: 1661400000,
          friendOfCount: 41,
          avatar: 'https://userpic.codeforces.org/no-avatar.jpg',
          titlePhoto: 'https://userpic.codeforces.org/no-title.jpg',
        },
      ],
    },
  }
}

/** The profile the stand-in answers for `asked` (the handle as the service asks for it). */
const answerProfile = (asked: string, response: ReturnType<typeof userInfo> | object) =>
  standIn.script({
    pathPrefix: USER_INFO,
    query: { handles: asked },
    responses: [response as never],
  })

async function linked(user: TestUser, handle: string) {
  const res = await api('POST', '/users/handles', {
    token: user.accessToken,
    body: { platform: 'codeforces', handle },
  })
  expect([200, 201]).toContain(res.status)
  return res.body as { id: string; proof: { token: string } }
}

const verify = (user: TestUser, id: string) =>
  api('POST', `/users/handles/${id}/verify`, { token: user.accessToken })

const askedFor = async (handle: string) =>
  (await standIn.requests(USER_INFO)).filter((r) => r.path.includes(`handles=${handle}`)).length

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM judge_handles').run()
  await standIn.reset()
})

describe('proving an own handle', () => {
  it('proves it when the token is in a profile field, in the judge’s spelling', async () => {
    const user = await createUser()
    // Typed in other letters' case than Codeforces spells it.
    const handle = await linked(user, 'kestrel_09')
    await answerProfile('kestrel_09', userInfo('Kestrel_09', { firstName: handle.proof.token }))

    const res = await verify(user, handle.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: handle.id,
      handle: 'Kestrel_09',
      state: 'proven',
      provenAt: expect.stringMatching(/^\d{4}-/),
      rating: 1623,
      proof: null,
    })
    const [asked] = await standIn.requests(USER_INFO)
    expect(asked.path).toContain('checkHistoricHandles=true')
    expect(asked.headers['user-agent']).toContain('ContestAlertService')
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles).toEqual([res.body])

    // Proven is proven: a second call answers without asking the judge again.
    expect((await verify(user, handle.id)).body).toEqual(res.body)
    expect(await askedFor('kestrel_09')).toBe(1)
  })

  it('finds the token among other words of any field, whatever its letters’ case', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    const organization = `Nazarbayev University ${handle.proof.token.toUpperCase()}`
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: 'Aru', organization }))
    expect((await verify(user, handle.id)).body.state).toBe('proven')
  })

  it('refuses with 422 while the token is not in the profile, and proves once it is', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    // Another account's token is no proof of this one's link.
    const stranger = await linked(await createUser(), 'Kestrel_09')
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: stranger.proof.token }))
    const refused = await verify(user, handle.id)
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: `The token ${handle.proof.token} is not in the public profile of Kestrel_09 on Codeforces yet: place it in ${resultsJudge('codeforces')!.results.proof.where} and try again`,
    })
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles[0]).toMatchObject({ state: 'unproven', proof: handle.proof })

    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: handle.proof.token }))
    expect((await verify(user, handle.id)).body.state).toBe('proven')
  })

  it('refuses an expired token without asking the judge', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: handle.proof.token }))
    await env.DB.prepare('UPDATE judge_handles SET proof_expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, handle.id)
      .run()
    const res = await verify(user, handle.id)
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'The proof token has expired: link the handle again (POST /users/handles) for a fresh one',
    )
    expect(await askedFor('Kestrel_09')).toBe(0)
    // The old token, still in the profile, proves nothing after a renewal.
    const renewed = await linked(user, 'Kestrel_09')
    expect(renewed.proof.token).not.toBe(handle.proof.token)
    expect((await verify(user, handle.id)).status).toBe(422)
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: renewed.proof.token }))
    expect((await verify(user, handle.id)).body.state).toBe('proven')
  })

  it('refuses a handle the judge does not have, in words', async () => {
    const user = await createUser()
    const handle = await linked(user, 'nobody_here')
    await answerProfile('nobody_here', {
      status: 400,
      body: { status: 'FAILED', comment: 'handles: User with handle nobody_here not found' },
    })
    const res = await verify(user, handle.id)
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Codeforces has no handle nobody_here')
  })

  it('follows a rename the judge reports: the handle proven is the judge’s new one', async () => {
    const user = await createUser()
    const old = await linked(user, 'lynx_old')
    // The new name linked as well, unproven: the proof merges the two rows into one.
    const renamedRow = await linked(user, 'lynx_dev')
    await answerProfile('lynx_old', userInfo('lynx_dev', { organization: old.proof.token }))
    const res = await verify(user, old.id)
    expect(res.body).toMatchObject({ id: old.id, handle: 'lynx_dev', state: 'proven' })
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles.map((h: { id: string }) => h.id)).toEqual([old.id])
    expect(renamedRow.id).not.toBe(old.id)
  })
})

describe('proving an AtCoder handle', () => {
  it('reads the Affiliation of its profile page', async () => {
    const user = await createUser()
    const handle = (
      await api('POST', '/users/handles', {
        token: user.accessToken,
        body: { platform: 'atcoder', handle: 'Sakura_K' },
      })
    ).body
    expect(handle.proof.where).toBe(resultsJudge('atcoder')!.results.proof.where)
    // AtCoder's recorded profile page, its Affiliation holding this link's token.
    const page = sakuraProfile.replace('CAS-3M8T6QZR', handle.proof.token)
    expect(page).not.toBe(sakuraProfile)
    const script = (body: string, status = 200) =>
      standIn.script({
        pathPrefix: '/atcoder/users/Sakura_K',
        responses: [{ status, body, headers: { 'content-type': 'text/html; charset=utf-8' } }],
      })

    await script(sakuraProfile)
    expect((await verify(user, handle.id)).status).toBe(422)
    await script('<html><body>404 Not Found</body></html>', 404)
    const missing = await verify(user, handle.id)
    expect(missing.status).toBe(422)
    expect(missing.body.message).toBe('AtCoder has no handle Sakura_K')
    await script(page)
    const res = await verify(user, handle.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ handle: 'sakura_k', state: 'proven', proof: null })
  })
})

describe('a handle another account proved', () => {
  it('moves to the account that proves it now; the other keeps it unproven and learns no one', async () => {
    const first = await createUser()
    const second = await createUser()
    const firstRow = await linked(first, 'Kestrel_09')
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: firstRow.proof.token }))
    expect((await verify(first, firstRow.id)).body.state).toBe('proven')

    const secondRow = await linked(second, 'KESTREL_09')
    await answerProfile('KESTREL_09', userInfo('Kestrel_09', { firstName: secondRow.proof.token }))
    const moved = await verify(second, secondRow.id)
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ handle: 'Kestrel_09', state: 'proven' })
    expect(JSON.stringify(moved.body)).not.toContain(first.id)

    const left = await api('GET', '/users/handles', { token: first.accessToken })
    expect(left.body.handles).toEqual([
      expect.objectContaining({
        id: firstRow.id,
        state: 'unproven',
        provenAt: null,
        proof: expect.objectContaining({ token: null, expired: true }),
      }),
    ])
    const text = JSON.stringify(left.body)
    expect(text).not.toContain(second.id)
    expect(text).not.toContain(second.email)
    const { results } = await env.DB.prepare(
      "SELECT user_id FROM judge_handles WHERE handle_key = 'kestrel_09' AND state = 'PROVEN'",
    ).all<{ user_id: string }>()
    expect(results).toEqual([{ user_id: second.id }])

    // The first account can take it back only with a new proof of its own.
    const again = await linked(first, 'Kestrel_09')
    expect(again.id).toBe(firstRow.id)
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: again.proof.token }))
    expect((await verify(first, firstRow.id)).body.state).toBe('proven')
    const back = await api('GET', '/users/handles', { token: second.accessToken })
    expect(back.body.handles[0].state).toBe('unproven')
  })
})

describe('proofs at once', () => {
  it('leave the handle proven by exactly one account', async () => {
    const users = await Promise.all([createUser(), createUser(), createUser()])
    const rows = await Promise.all(users.map((u) => linked(u, 'Kestrel_09')))
    // The profile holds every one of their tokens: each proof succeeds when it runs.
    const firstName = rows.map((r) => r.proof.token).join(' ')
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName }))
    const answers = await Promise.all(users.map((u, i) => verify(u, rows[i].id)))
    for (const res of answers) expect(res.status).toBe(200)
    const { results } = await env.DB.prepare(
      "SELECT user_id FROM judge_handles WHERE handle_key = 'kestrel_09' AND state = 'PROVEN'",
    ).all<{ user_id: string }>()
    expect(results).toHaveLength(1)
    const states = await Promise.all(
      users.map(async (u) => {
        const listed = await api('GET', '/users/handles', { token: u.accessToken })
        return listed.body.handles[0].state
      }),
    )
    expect(states.filter((state) => state === 'proven')).toHaveLength(1)
    expect(users.map((u) => u.id)).toContain(results[0].user_id)
  })
})

describe('when the judge fails', () => {
  const failures: [string, object, number, string][] = [
    ['a 500', { status: 500, body: 'Internal Server Error' }, 502, 'HTTP 500'],
    ['an answer that is not JSON', { status: 200, body: '<html>maintenance</html>' }, 502, ''],
    ['its 503', { status: 503, body: 'Service Unavailable' }, 503, 'answered HTTP 503'],
    ['its rate limit', { status: 429, body: 'Too Many Requests' }, 503, 'answered HTTP 429'],
  ]
  for (const [what, response, status, words] of failures) {
    it(`answers ${status} in the error shape for ${what}, the handle left unproven`, async () => {
      const user = await createUser()
      const handle = await linked(user, 'Kestrel_09')
      await answerProfile('Kestrel_09', response)
      const res = await verify(user, handle.id)
      expect(res.status).toBe(status)
      expect(res.body).toMatchObject({
        statusCode: status,
        error: status === 502 ? 'Bad Gateway' : 'Service Unavailable',
      })
      expect(res.body.message).toMatch(/^Codeforces /)
      expect(res.body.message).toContain(words)
      expect(res.body.message).not.toContain(env.STAND_IN_URL)
      const listed = await api('GET', '/users/handles', { token: user.accessToken })
      expect(listed.body.handles[0].state).toBe('unproven')
    })
  }
})

describe('verification limits', () => {
  it(`asks the judge at most ${HANDLE_RULES.verify.limits.user} times per account in 15 minutes`, async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    await answerProfile('Kestrel_09', userInfo('Kestrel_09', { firstName: 'no token here' }))
    const limit = HANDLE_RULES.verify.limits.user!
    for (let i = 0; i < limit; i++) expect((await verify(user, handle.id)).status).toBe(422)
    const refused = await verify(user, handle.id)
    expect(refused.status).toBe(429)
    expect(await askedFor('Kestrel_09')).toBe(limit)
    // Another account has its own allowance.
    const other = await createUser()
    expect((await verify(other, (await linked(other, 'Kestrel_09')).id)).status).toBe(422)
  })
})

describe('the rating history', () => {
  it('gives the judge’s history with deltas and titles, asking the judge once in a while', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    await env.KV.delete('results:history:codeforces:kestrel_09')
    // Codeforces' recorded user.rating of Kestrel_09.
    await standIn.script({
      pathPrefix: '/codeforces-api/user.rating',
      query: { handle: 'Kestrel_09' },
      responses: [{ status: 200, body: kestrelRating }],
    })
    const read = () =>
      api('GET', `/users/handles/${handle.id}/history`, { token: user.accessToken })
    const res = await read()
    expect(res.status).toBe(200)
    const { points, current } = res.body
    const rank = resultsJudge('codeforces')!.results.rank!
    expect(points).toEqual(
      kestrelRating.result.map((c) => ({
        contestName: c.contestName,
        platformId: String(c.contestId),
        time: new Date(c.ratingUpdateTimeSeconds * 1000).toISOString(),
        rank: c.rank,
        oldRating: c.oldRating,
        newRating: c.newRating,
        delta: c.newRating - c.oldRating,
        ...rank(c.newRating),
      })),
    )
    expect(current).toEqual({ rating: points.at(-1).newRating, ...rank(points.at(-1).newRating) })
    expect((await read()).body).toEqual(res.body)
    expect(await standIn.requests('/codeforces-api/user.rating')).toHaveLength(1)
  })

  it('is read for a friend too, and a judge’s failure is a 502, nothing kept', async () => {
    const user = await createUser()
    const friend = await api('POST', '/users/friends', {
      token: user.accessToken,
      body: { platform: 'codeforces', handle: 'lynx_dev' },
    })
    await env.KV.delete('results:history:codeforces:lynx_dev')
    await standIn.script({
      pathPrefix: '/codeforces-api/user.rating',
      query: { handle: 'lynx_dev' },
      responses: [
        { status: 500, body: 'oops' },
        { status: 200, body: { status: 'OK', result: [] } },
      ],
    })
    const path = `/users/handles/${friend.body.id}/history`
    const failed = await api('GET', path, { token: user.accessToken })
    expect(failed.status).toBe(502)
    const empty = await api('GET', path, { token: user.accessToken })
    expect(empty.status).toBe(200)
    expect(empty.body).toMatchObject({ handle: 'lynx_dev', points: [], current: null })
  })
})
