// An own Codeforces handle proven by a submission (D164): the account asks for a challenge, the
// service picks a problem and a deadline, the account submits a compilation error, and the verify
// finds it in the handle's latest submissions (user.status, answered by the stand-in in its real
// format). Each way it is no proof is pinned: another problem, verdict or author, too early, too
// late, no challenge, expired, no such handle, the judge down; and who may ask, and how often.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import userStatusKestrel from '../src/platforms/codeforces/fixtures/results/user-status-kestrel.json'
import { CHALLENGE_PROBLEMS, STATUS_COUNT } from '../src/platforms/codeforces/submission-proof.ts'
import { CHALLENGE_TTL_MS, CHECK_GRACE_MS } from '../src/results/challenge.ts'
import { HANDLE_RULES } from '../src/results/handle-routes.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'

const USER_STATUS = '/codeforces-api/user.status'
const USER_INFO = '/codeforces-api/user.info'

interface Challenge {
  method: 'submission'
  problem: { contestId: number; index: string; name: string; url: string }
  verdict: string
  instruction: string
  issuedAt: string
  expiresAt: string
  checkUntil: string
  expired: boolean
}

/** One Submission as user.status lists it: the recorded compilation error, moved and changed. */
function submission(fields: {
  problem: { contestId: number; index: string; name: string }
  at: number
  verdict?: string
  handles?: string[]
  id?: number
}) {
  const recorded = userStatusKestrel.result[1]!
  const { verdict = 'COMPILATION_ERROR', handles = ['Kestrel_09'], id = recorded.id } = fields
  const { verdict: _recorded, ...rest } = recorded
  return {
    ...rest,
    id,
    contestId: fields.problem.contestId,
    creationTimeSeconds: Math.floor(fields.at / 1000),
    problem: { ...recorded.problem, ...fields.problem },
    author: {
      ...recorded.author,
      contestId: fields.problem.contestId,
      members: handles.map((handle) => ({ handle })),
    },
    // A submission in the queue has no verdict at all.
    ...(verdict !== '' && { verdict }),
  }
}

/** The stand-in's user.status for `asked`, newest submission first. */
const answerStatus = (asked: string, submissions: object[], status = 200) =>
  standIn.script({
    pathPrefix: USER_STATUS,
    query: { handle: asked },
    responses: [{ status, body: { status: 'OK', result: submissions } }],
  })

async function linked(user: TestUser, handle: string, platform = 'codeforces') {
  const res = await api('POST', '/users/handles', {
    token: user.accessToken,
    body: { platform, handle },
  })
  expect([200, 201]).toContain(res.status)
  return res.body as { id: string; proof: { token: string } }
}

const challenge = (user: TestUser, id: string) =>
  api('POST', `/users/handles/${id}/challenge`, { token: user.accessToken })

const verify = (user: TestUser, id: string, body?: object) =>
  api('POST', `/users/handles/${id}/verify`, { token: user.accessToken, body })

const bySubmission = (user: TestUser, id: string) => verify(user, id, { method: 'submission' })

const statusAsks = async () => (await standIn.requests(USER_STATUS)).length

/** A linked Kestrel_09 and its challenge, as the API answered it. */
async function challenged(user?: TestUser) {
  const owner = user ?? (await createUser())
  const handle = await linked(owner, 'Kestrel_09')
  const res = await challenge(owner, handle.id)
  expect(res.status).toBe(201)
  const issuedAt = Date.parse(res.body.issuedAt)
  return { user: owner, handle, challenge: res.body as Challenge, issuedAt }
}

/** Moves the handle's challenge back in time by `ms`, as if it had been issued that long ago. */
const ageChallenge = (id: string, ms: number) =>
  env.DB.prepare(
    `UPDATE judge_handles SET challenge_issued_at = challenge_issued_at - ?1,
      challenge_expires_at = challenge_expires_at - ?1 WHERE id = ?2`,
  )
    .bind(ms, id)
    .run()

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM judge_handles').run()
  await standIn.reset()
})

describe('asking for a challenge', () => {
  it('picks a known problem, names its page and a deadline, and shows it with the handle', async () => {
    const { user, handle, challenge: body, issuedAt } = await challenged()
    expect(CHALLENGE_PROBLEMS).toContainEqual(body.problem)
    expect(body).toMatchObject({
      method: 'submission',
      verdict: 'COMPILATION_ERROR',
      expired: false,
      problem: {
        url: `https://codeforces.com/problemset/problem/${body.problem.contestId}/${body.problem.index}`,
      },
    })
    expect(Date.parse(body.expiresAt) - issuedAt).toBe(CHALLENGE_TTL_MS)
    expect(Date.parse(body.checkUntil) - Date.parse(body.expiresAt)).toBe(CHECK_GRACE_MS)
    expect(Math.abs(issuedAt - Date.now())).toBeLessThan(60_000)
    expect(body.instruction).toContain(
      `Submit a compilation error to problem ${body.problem.contestId}${body.problem.index} (${body.problem.name})`,
    )
    expect(body.instruction).toContain(body.problem.url)
    // Asking asks the judge nothing.
    expect(await standIn.requests('/codeforces-api/')).toEqual([])

    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    const [row] = listed.body.handles
    expect(row).toMatchObject({ id: handle.id, state: 'unproven' })
    // The token still proves: the challenge is a second way, not a replacement.
    expect(row.proof).toMatchObject({ token: handle.proof.token, expired: false, challenge: body })
    const judges = Object.fromEntries(
      listed.body.judges.map((j: { platform: string; submissionProof: boolean }) => [
        j.platform,
        j.submissionProof,
      ]),
    )
    expect(judges).toMatchObject({ codeforces: true, 'codeforces-gym': true, atcoder: false })
  })

  it('replaces the last challenge with another problem, whose submission alone proves', async () => {
    const { user, handle, challenge: first } = await challenged()
    const second = await challenge(user, handle.id)
    expect(second.status).toBe(201)
    expect(second.body.problem).not.toEqual(first.problem)
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles[0].proof.challenge).toEqual(second.body)

    // A compilation error to the first problem, made after the second was asked, is no proof.
    const now = Date.now()
    await answerStatus('Kestrel_09', [submission({ problem: first.problem, at: now })])
    expect((await bySubmission(user, handle.id)).status).toBe(422)
    await answerStatus('Kestrel_09', [submission({ problem: second.body.problem, at: now })])
    expect((await bySubmission(user, handle.id)).body.state).toBe('proven')
  })

  it('is refused on a judge that offers no submission proof, and once proven', async () => {
    const user = await createUser()
    const atcoder = await linked(user, 'Sakura_K', 'atcoder')
    const refused = await challenge(user, atcoder.id)
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: expect.stringMatching(/^AtCoder offers no proof by a submission: place the token/),
    })
    const verified = await bySubmission(user, atcoder.id)
    expect(verified.status).toBe(422)
    expect(verified.body.message).toBe(refused.body.message)

    const { handle, challenge: body } = await challenged(user)
    await answerStatus('Kestrel_09', [submission({ problem: body.problem, at: Date.now() })])
    expect((await bySubmission(user, handle.id)).status).toBe(200)
    const again = await challenge(user, handle.id)
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('The handle is proven already')
  })

  it('answers 404 for another account’s handle, and 400 for an id of the wrong form', async () => {
    const { handle } = await challenged()
    const stranger = await createUser()
    expect((await challenge(stranger, handle.id)).status).toBe(404)
    expect((await bySubmission(stranger, handle.id)).status).toBe(404)
    expect((await challenge(stranger, 'not-an-id')).status).toBe(400)
  })

  it(`is limited to ${HANDLE_RULES.challenge.limits.user} per account in 15 minutes`, async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    const limit = HANDLE_RULES.challenge.limits.user!
    for (let i = 0; i < limit; i++) expect((await challenge(user, handle.id)).status).toBe(201)
    expect((await challenge(user, handle.id)).status).toBe(429)
  })
})

describe('proving by the submission', () => {
  it('proves with a compilation error to the problem in time, in Codeforces’ spelling', async () => {
    const user = await createUser()
    // Typed in other letters' case than Codeforces spells it.
    const handle = await linked(user, 'kestrel_09')
    const { body } = await challenge(user, handle.id)
    const issuedAt = Date.parse(body.issuedAt)
    await answerStatus('kestrel_09', [
      submission({ problem: body.problem, at: issuedAt + 20_000 }),
      // An older accepted one of the same problem changes nothing.
      submission({ problem: body.problem, at: issuedAt - 3_600_000, verdict: 'OK', id: 1 }),
    ])
    await standIn.script({
      pathPrefix: USER_INFO,
      query: { handles: 'Kestrel_09' },
      responses: [
        { status: 200, body: { status: 'OK', result: [{ handle: 'Kestrel_09', rating: 1623 }] } },
      ],
    })
    const res = await bySubmission(user, handle.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: handle.id,
      handle: 'Kestrel_09',
      state: 'proven',
      provenAt: expect.stringMatching(/^\d{4}-/),
      proof: null,
      // The rating comes from the profile, read once the submission proved the handle.
      rating: 1623,
    })
    const [asked] = await standIn.requests(USER_STATUS)
    expect(asked.path).toBe(`${USER_STATUS}?handle=kestrel_09&from=1&count=${STATUS_COUNT}`)
    expect(asked.headers['user-agent']).toContain('ContestAlertService')
    const [profile] = await standIn.requests(USER_INFO)
    expect(profile.path).toContain('handles=Kestrel_09')
    const stored = await env.DB.prepare(
      'SELECT challenge_problem, challenge_issued_at, challenge_expires_at, proof_token FROM judge_handles WHERE id = ?',
    )
      .bind(handle.id)
      .first()
    expect(stored).toEqual({
      challenge_problem: null,
      challenge_issued_at: null,
      challenge_expires_at: null,
      proof_token: null,
    })
    // Proven is proven: asked again, answered without the judge.
    expect((await bySubmission(user, handle.id)).body).toEqual(res.body)
    expect(await statusAsks()).toBe(1)
  })

  it('finds it when checked after the deadline, within the grace, if made in time', async () => {
    const { user, handle, challenge: body } = await challenged()
    await ageChallenge(handle.id, CHALLENGE_TTL_MS + 60_000)
    const issuedAt = Date.parse(body.issuedAt) - CHALLENGE_TTL_MS - 60_000
    await answerStatus('Kestrel_09', [submission({ problem: body.problem, at: issuedAt + 1_000 })])
    expect((await bySubmission(user, handle.id)).body.state).toBe('proven')
  })

  const refusals: [string, (c: Challenge, issuedAt: number) => object[], RegExp][] = [
    [
      'a compilation error to another problem',
      (c, at) => {
        const other = CHALLENGE_PROBLEMS.find((p) => p.contestId !== c.problem.contestId)!
        return [submission({ problem: other, at: at + 10_000 })]
      },
      /lists no compilation error of Kestrel_09 to problem \d+A \(.+\) since the challenge was issued yet: submit one at https:\/\/codeforces\.com\/problemset\/problem\/\d+\/A before .+, then check again$/,
    ],
    [
      'another verdict on the problem',
      (c, at) => [submission({ problem: c.problem, at: at + 10_000, verdict: 'WRONG_ANSWER' })],
      /lists no compilation error/,
    ],
    [
      'a compilation error made before the challenge was issued',
      (c, at) => [submission({ problem: c.problem, at: at - 2_000 })],
      /lists no compilation error/,
    ],
    [
      'another handle’s compilation error',
      (c, at) => [submission({ problem: c.problem, at: at + 10_000, handles: ['someone_else'] })],
      /lists no compilation error/,
    ],
    [
      'a team’s compilation error',
      (c, at) => [
        submission({ problem: c.problem, at: at + 10_000, handles: ['Kestrel_09', 'lynx_dev'] }),
      ],
      /lists no compilation error/,
    ],
    [
      'a submission still waiting for its verdict',
      (c, at) => [submission({ problem: c.problem, at: at + 10_000, verdict: '' })],
      /^Codeforces is still judging the submission of Kestrel_09 to problem \d+A \(.+\): check again in a few seconds$/,
    ],
    ['no submission at all', () => [], /lists no compilation error/],
  ]
  for (const [what, answer, message] of refusals) {
    it(`refuses with 422 for ${what}, the handle left unproven`, async () => {
      const { user, handle, challenge: body, issuedAt } = await challenged()
      await answerStatus('Kestrel_09', answer(body, issuedAt))
      const res = await bySubmission(user, handle.id)
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity' })
      expect(res.body.message).toMatch(message)
      const listed = await api('GET', '/users/handles', { token: user.accessToken })
      expect(listed.body.handles[0]).toMatchObject({ state: 'unproven' })
      expect(listed.body.handles[0].proof.challenge).toEqual(body)
    })
  }

  it('refuses a compilation error made after the deadline', async () => {
    const { user, handle, challenge: body } = await challenged()
    await ageChallenge(handle.id, CHALLENGE_TTL_MS + 60_000)
    // Made now: a minute after the (moved) deadline.
    await answerStatus('Kestrel_09', [submission({ problem: body.problem, at: Date.now() })])
    const res = await bySubmission(user, handle.id)
    expect(res.status).toBe(422)
    expect(res.body.message).toMatch(
      /^Codeforces lists no compilation error of Kestrel_09 to problem .+ made before .+: ask for a new challenge and try again$/,
    )
  })

  it('refuses without asking the judge when there is no challenge, or it expired', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09')
    const none = await bySubmission(user, handle.id)
    expect(none.status).toBe(422)
    expect(none.body.message).toBe(
      'No submission challenge to check: ask for one first (POST /users/handles/{id}/challenge)',
    )

    const { body } = await challenge(user, handle.id)
    await ageChallenge(handle.id, CHALLENGE_TTL_MS + CHECK_GRACE_MS + 1_000)
    await answerStatus('Kestrel_09', [
      submission({ problem: body.problem, at: Date.parse(body.issuedAt) }),
    ])
    const expired = await bySubmission(user, handle.id)
    expect(expired.status).toBe(422)
    expect(expired.body.message).toMatch(
      /^The challenge expired at .+ UTC: ask for a new one \(POST \/users\/handles\/\{id\}\/challenge\)$/,
    )
    const listed = await api('GET', '/users/handles', { token: user.accessToken })
    expect(listed.body.handles[0].proof.challenge.expired).toBe(true)
    expect(await statusAsks()).toBe(0)
  })

  it('refuses a handle Codeforces does not know, in words', async () => {
    const user = await createUser()
    const handle = await linked(user, 'nobody_here')
    expect((await challenge(user, handle.id)).status).toBe(201)
    await standIn.script({
      pathPrefix: USER_STATUS,
      query: { handle: 'nobody_here' },
      responses: [
        {
          status: 400,
          body: { status: 'FAILED', comment: 'handle: User with handle nobody_here not found' },
        },
      ],
    })
    const res = await bySubmission(user, handle.id)
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Codeforces has no handle nobody_here')
  })

  it('keeps the token the default proof: no body, or method token, reads the profile', async () => {
    const { user, handle } = await challenged()
    await standIn.script({
      pathPrefix: USER_INFO,
      query: { handles: 'Kestrel_09' },
      responses: [
        { status: 200, body: { status: 'OK', result: [{ handle: 'Kestrel_09', rating: 1623 }] } },
        {
          status: 200,
          body: {
            status: 'OK',
            result: [{ handle: 'Kestrel_09', firstName: handle.proof.token, rating: 1623 }],
          },
        },
      ],
    })
    const early = await verify(user, handle.id)
    expect(early.status).toBe(422)
    expect(early.body.message).toContain(`The token ${handle.proof.token} is not in`)
    const proven = await verify(user, handle.id, { method: 'token' })
    expect(proven.body).toMatchObject({ state: 'proven', rating: 1623, proof: null })
    expect(await statusAsks()).toBe(0)
  })

  it('refuses a method it does not know, or another field, with 400', async () => {
    const { user, handle } = await challenged()
    const unknown = await verify(user, handle.id, { method: 'telepathy' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toEqual([
      'method must be one of the following values: token, submission',
    ])
    expect((await verify(user, handle.id, { method: 'submission', extra: 1 })).status).toBe(400)
  })

  it('proves a Codeforces Gym handle the same way, asking the same API', async () => {
    const user = await createUser()
    const handle = await linked(user, 'Kestrel_09', 'codeforces-gym')
    const { body } = await challenge(user, handle.id)
    await answerStatus('Kestrel_09', [
      submission({ problem: body.problem, at: Date.parse(body.issuedAt) + 5_000 }),
    ])
    const res = await bySubmission(user, handle.id)
    expect(res.body).toMatchObject({ platform: 'codeforces-gym', state: 'proven' })
  })
})

describe('a handle another account proved', () => {
  it('moves to the account that proves it by a submission; the other keeps it unproven', async () => {
    const first = await createUser()
    const firstRow = await linked(first, 'Kestrel_09')
    await standIn.script({
      pathPrefix: USER_INFO,
      query: { handles: 'Kestrel_09' },
      responses: [
        {
          status: 200,
          body: {
            status: 'OK',
            result: [{ handle: 'Kestrel_09', firstName: firstRow.proof.token }],
          },
        },
      ],
    })
    expect((await verify(first, firstRow.id)).body.state).toBe('proven')

    const { user: second, handle, challenge: body, issuedAt } = await challenged()
    await answerStatus('Kestrel_09', [submission({ problem: body.problem, at: issuedAt + 1_000 })])
    expect((await bySubmission(second, handle.id)).body.state).toBe('proven')
    const left = await api('GET', '/users/handles', { token: first.accessToken })
    expect(left.body.handles[0]).toMatchObject({
      id: firstRow.id,
      state: 'unproven',
      proof: expect.objectContaining({ token: null, challenge: null }),
    })
    const { results } = await env.DB.prepare(
      "SELECT user_id FROM judge_handles WHERE handle_key = 'kestrel_09' AND state = 'PROVEN'",
    ).all<{ user_id: string }>()
    expect(results).toEqual([{ user_id: second.id }])
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
    it(`answers ${status} for ${what}, the challenge kept for another check`, async () => {
      const { user, handle, challenge: body } = await challenged()
      await standIn.script({ pathPrefix: USER_STATUS, responses: [response as never] })
      const res = await bySubmission(user, handle.id)
      expect(res.status).toBe(status)
      expect(res.body).toMatchObject({
        statusCode: status,
        error: status === 502 ? 'Bad Gateway' : 'Service Unavailable',
      })
      expect(res.body.message).toMatch(/^Codeforces /)
      expect(res.body.message).toContain(words)
      expect(res.body.message).not.toContain(env.STAND_IN_URL)
      const listed = await api('GET', '/users/handles', { token: user.accessToken })
      expect(listed.body.handles[0]).toMatchObject({ state: 'unproven' })
      expect(listed.body.handles[0].proof.challenge).toEqual(body)
    })
  }

  it(`shares the verification limit: ${HANDLE_RULES.verify.limits.user} checks per account in 15 minutes`, async () => {
    const { user, handle } = await challenged()
    await answerStatus('Kestrel_09', [])
    const limit = HANDLE_RULES.verify.limits.user!
    for (let i = 0; i < limit; i++) expect((await bySubmission(user, handle.id)).status).toBe(422)
    expect((await bySubmission(user, handle.id)).status).toBe(429)
    expect(await statusAsks()).toBe(limit)
  })
})

describe('the OpenAPI document', () => {
  it('declares the challenge, and the verification’s optional body of a method', async () => {
    const { body } = await api('GET', '/openapi.json')
    const challengeRoute = body.paths['/users/handles/{id}/challenge'].post
    expect(challengeRoute.security).toEqual([{ bearerAuth: [] }])
    for (const status of ['201', '400', '404', '409', '422', '429']) {
      expect(challengeRoute.responses, status).toHaveProperty([status])
    }
    expect(challengeRoute.responses['201'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/HandleChallenge',
    )
    const verifyRoute = body.paths['/users/handles/{id}/verify'].post
    expect(verifyRoute.requestBody.required).toBe(false)
    expect(body.components.schemas.HandleVerify.properties.method.enum).toEqual([
      'token',
      'submission',
    ])
    expect(body.components.schemas.HandleProof.properties).toHaveProperty('challenge')
  })
})
