// /users/handles, /users/friends, /users/result-preferences and /users/results: the signed-in
// account's handles on judges (linked, proven by a token in the public profile or by a submission
// to a challenge's problem, removed, their rating history), the friends it follows, which result
// alerts it takes, and its recent results. Mounted under /users ahead of the users router, whose
// /{id} routes would take these paths.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { currentUser } from '../http/auth.ts'
import { rateLimit, type RateRule } from '../http/rate-limit.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { pagination } from '../lib/pagination.ts'
import { MINUTE_MS, toIso } from '../lib/time.ts'
import {
  findHandle,
  linkHandle,
  listHandles,
  MAX_FRIENDS,
  MAX_OWN_HANDLES,
  removeHandle,
} from './handles.ts'
import {
  FriendListSchema,
  FriendSchema,
  HandleHistorySchema,
  HandleIdParam,
  HandleLinkBody,
  HandleListSchema,
  HandleSchema,
  ResultPreferencesBody,
  ResultPageSchema,
  ResultPreferencesSchema,
  ResultsQuery,
  ChallengeSchema,
  VerifyBody,
} from './handle-schemas.ts'
import {
  apiJudges,
  toApiChallenge,
  toApiFriend,
  toApiHandle,
  toApiHistory,
} from './handle-serialize.ts'
import { ALREADY_PROVEN, CHALLENGE_TTL_MS, issueChallenge, proveBySubmission } from './challenge.ts'
import { handleHistory } from './history.ts'
import {
  clistEnabled,
  isClistJudge,
  noResultsMessage,
  ownOnClistMessage,
  resultsJudge,
  resultsRequest,
  type ResultsJudge,
} from './judges.ts'
import { NO_OWN_HANDLE, proveHandle } from './prove.ts'
import { recentResults, toApiResult } from './recent.ts'
import { resultPreferencesOf, updateResultPreferences } from './result-preferences.ts'

const tags = ['Handles']
const window = 15 * MINUTE_MS
const rule = (name: string, user: number): RateRule => ({
  name,
  windowMs: window,
  limits: { user },
  counts: 'requests',
})
// Each verification and each history not in KV is a request to the judge, whose own limits
// (Codeforces: one request per 2 s) the whole service shares: a few tries per account.
export const HANDLE_RULES = {
  link: rule('link-handle', 30),
  verify: rule('verify-handle', 10),
  // A challenge asks the judge nothing, but each is checked by a verification: as few.
  challenge: rule('challenge-handle', 10),
  history: rule('handle-history', 30),
}

const invalid = errorResponse('Validation failed (message is an array of strings)')
const tooMany = errorResponse('Too many requests')
const noOwn = errorResponse(NO_OWN_HANDLE)
const NO_FRIEND = 'Your account follows no friend with that id'
const NO_HANDLE = 'Your account has no handle with that id'
const judgeAway = {
  502: errorResponse('The judge gave an answer the service cannot read'),
  503: errorResponse('The judge did not answer, or is holding requests off'),
}

const list = signedInRoute({
  method: 'get',
  path: '/handles',
  tags,
  summary: 'The account’s own handles on judges, with their state and how to prove them',
  responses: { 200: json(HandleListSchema, 'The own handles, oldest link first') },
})

const link = signedInRoute({
  method: 'post',
  path: '/handles',
  tags,
  summary: `Link an own handle, unproven until its token is in its public profile (the token proves for 24 h; at most ${MAX_OWN_HANDLES} per account)`,
  middleware: [rateLimit(HANDLE_RULES.link)] as const,
  request: jsonBody(HandleLinkBody),
  responses: {
    200: json(HandleSchema, 'Linked already; an expired token is renewed'),
    201: json(HandleSchema, 'Linked'),
    400: errorResponse(
      `Validation failed, a platform without results, or ${MAX_OWN_HANDLES} handles held`,
    ),
    429: tooMany,
  },
})

const verify = signedInRoute({
  method: 'post',
  path: '/handles/{id}/verify',
  tags,
  summary:
    'Prove an own handle: the judge’s public profile must hold its token, or with {"method": "submission"} its challenge’s submission must be listed',
  description:
    'Without a body (or with `{"method": "token"}`) the token is looked for in the public ' +
    'profile. `{"method": "submission"}` looks for the submission the challenge asked for ' +
    '(POST /users/handles/{id}/challenge) among the handle’s latest submissions.',
  middleware: [rateLimit(HANDLE_RULES.verify)] as const,
  request: {
    params: HandleIdParam,
    body: { content: { 'application/json': { schema: VerifyBody } }, required: false },
  },
  responses: {
    200: json(HandleSchema, 'Proven, in the judge’s spelling; the account holds it alone now'),
    400: invalid,
    404: noOwn,
    422: errorResponse(
      'Not proven: the token or the challenge expired, the judge has no such handle, its ' +
        'profile lacks the token, no submission proves it yet, or the judge offers no such ' +
        'proof; or never provable: the platform’s results come from clist.by, which shows no ' +
        'profile (follow the handle as a friend instead)',
    ),
    429: tooMany,
    ...judgeAway,
  },
})

const challenge = signedInRoute({
  method: 'post',
  path: '/handles/{id}/challenge',
  tags,
  summary: `Ask for a submission challenge for an own unproven handle: a problem to submit a compilation error to within ${CHALLENGE_TTL_MS / MINUTE_MS} minutes (Codeforces and its gyms)`,
  description:
    'A new challenge replaces the last. Submit the verdict it names to its problem before ' +
    '`expiresAt`, then POST /users/handles/{id}/verify with `{"method": "submission"}`. The ' +
    'judge is not asked; `GET /users/handles` shows the challenge in `proof.challenge`.',
  middleware: [rateLimit(HANDLE_RULES.challenge)] as const,
  request: { params: HandleIdParam },
  responses: {
    201: json(ChallengeSchema, 'The challenge'),
    400: invalid,
    404: noOwn,
    409: errorResponse(ALREADY_PROVEN),
    422: errorResponse('The judge offers no proof by a submission'),
    429: tooMany,
  },
})

const remove = signedInRoute({
  method: 'delete',
  path: '/handles/{id}',
  tags,
  summary: 'Remove an own handle (a proven one is free to be proven by another account)',
  request: { params: HandleIdParam },
  responses: { 204: { description: 'Removed' }, 400: invalid, 404: noOwn },
})

const history = signedInRoute({
  method: 'get',
  path: '/handles/{id}/history',
  tags,
  summary: 'The rating history of an own handle or a friend, as its judge publishes it',
  middleware: [rateLimit(HANDLE_RULES.history)] as const,
  request: { params: HandleIdParam },
  responses: {
    200: json(HandleHistorySchema, 'Oldest first, with the judge’s title after each contest'),
    400: invalid,
    404: errorResponse(NO_HANDLE),
    429: tooMany,
    ...judgeAway,
  },
})

const listFriends = signedInRoute({
  method: 'get',
  path: '/friends',
  tags,
  summary: 'The handles the account follows as friends',
  responses: { 200: json(FriendListSchema, 'The friends, oldest first') },
})

const addFriend = signedInRoute({
  method: 'post',
  path: '/friends',
  tags,
  summary: `Follow a handle as a friend (no proof; at most ${MAX_FRIENDS} per account)`,
  middleware: [rateLimit(HANDLE_RULES.link)] as const,
  request: jsonBody(HandleLinkBody),
  responses: {
    200: json(FriendSchema, 'Followed already'),
    201: json(FriendSchema, 'Followed'),
    400: errorResponse(`Validation failed, a platform without results, or ${MAX_FRIENDS} held`),
    429: tooMany,
  },
})

const removeFriend = signedInRoute({
  method: 'delete',
  path: '/friends/{id}',
  tags,
  summary: 'Stop following a friend',
  request: { params: HandleIdParam },
  responses: { 204: { description: 'Removed' }, 400: invalid, 404: errorResponse(NO_FRIEND) },
})

const getPreferences = signedInRoute({
  method: 'get',
  path: '/result-preferences',
  tags,
  summary: 'Which result alerts the account takes (own on, friends off by default)',
  responses: { 200: json(ResultPreferencesSchema, 'The choice') },
})

const putPreferences = signedInRoute({
  method: 'put',
  path: '/result-preferences',
  tags,
  summary: 'Switch own or friends’ result alerts (fields left out keep their value)',
  request: jsonBody(ResultPreferencesBody),
  responses: { 200: json(ResultPreferencesSchema, 'The choice'), 400: invalid },
})

const results = signedInRoute({
  method: 'get',
  path: '/results',
  tags,
  summary: 'The account’s recent results across its own proven handles, newest contest first',
  request: { query: ResultsQuery },
  responses: { 200: json(ResultPageSchema, 'A page of results'), 400: invalid },
})

function judgeFor(platform: string) {
  const judge = resultsJudge(platform)
  if (!judge) {
    throw badRequest(
      isClistJudge(platform) ? ownOnClistMessage(platform) : noResultsMessage(platform),
    )
  }
  return judge
}

/** A friend is followed on a judge with results, or one clist.by reads while its key is set. */
function friendJudgeFor(env: Env, platform: string) {
  if (resultsJudge(platform)) return
  if (isClistJudge(platform) && clistEnabled(env)) return
  throw badRequest(noResultsMessage(platform, env))
}

export const resultUserRoutes = createRouter()
  .openapi(list, async (c) => {
    const rows = await listHandles(createDb(c.env.DB), currentUser(c).sub, 'OWN')
    const now = Date.now()
    const handles = rows.map((row) => toApiHandle(row, now))
    return c.json({ handles, limit: MAX_OWN_HANDLES, judges: apiJudges(c.env) }, 200)
  })
  .openapi(link, async (c) => {
    const { platform, handle } = c.req.valid('json')
    judgeFor(platform)
    const now = Date.now()
    const input = { userId: currentUser(c).sub, platform, handle, relation: 'OWN' as const }
    const { row, created } = await linkHandle(createDb(c.env.DB), input, now)
    // The token is no secret (it goes into a public profile), but no cache should keep it.
    c.header('Cache-Control', 'no-store')
    return c.json(toApiHandle(row, now), created ? 201 : 200)
  })
  .openapi(verify, async (c) => {
    const now = Date.now()
    const deps = { request: (judge: ResultsJudge) => resultsRequest(c.env, judge, now) }
    const input = { userId: currentUser(c).sub, id: c.req.valid('param').id }
    // No body is validated as {}: the token, as before the submission proof existed.
    const prove = c.req.valid('json').method === 'submission' ? proveBySubmission : proveHandle
    const row = await prove(createDb(c.env.DB), deps, input, now)
    return c.json(toApiHandle(row, now), 200)
  })
  .openapi(challenge, async (c) => {
    const now = Date.now()
    const input = { userId: currentUser(c).sub, id: c.req.valid('param').id }
    const row = await issueChallenge(createDb(c.env.DB), input, now)
    c.header('Cache-Control', 'no-store')
    return c.json(toApiChallenge(row, now)!, 201)
  })
  .openapi(remove, async (c) => {
    const db = createDb(c.env.DB)
    if (!(await removeHandle(db, currentUser(c).sub, c.req.valid('param').id, 'OWN'))) {
      throw notFound(NO_OWN_HANDLE)
    }
    return c.body(null, 204)
  })
  .openapi(history, async (c) => {
    const row = await findHandle(createDb(c.env.DB), currentUser(c).sub, c.req.valid('param').id)
    if (!row) throw notFound(NO_HANDLE)
    if (isClistJudge(row.platform) && !resultsJudge(row.platform)) {
      // A friend followed through clist.by: its results are read, its history is not.
      throw badRequest(`${row.platform}'s results come from clist.by: no rating history is read`)
    }
    const judge = judgeFor(row.platform)
    const now = Date.now()
    const request = () => resultsRequest(c.env, judge, now)
    const found = await handleHistory(c.env.KV, judge, request, row.handle)
    return c.json(toApiHistory(row, found), 200)
  })
  .openapi(listFriends, async (c) => {
    const rows = await listHandles(createDb(c.env.DB), currentUser(c).sub, 'FRIEND')
    return c.json({ friends: rows.map(toApiFriend), limit: MAX_FRIENDS }, 200)
  })
  .openapi(addFriend, async (c) => {
    const { platform, handle } = c.req.valid('json')
    friendJudgeFor(c.env, platform)
    const input = { userId: currentUser(c).sub, platform, handle, relation: 'FRIEND' as const }
    const { row, created } = await linkHandle(createDb(c.env.DB), input, Date.now())
    return c.json(toApiFriend(row), created ? 201 : 200)
  })
  .openapi(removeFriend, async (c) => {
    const db = createDb(c.env.DB)
    if (!(await removeHandle(db, currentUser(c).sub, c.req.valid('param').id, 'FRIEND'))) {
      throw notFound(NO_FRIEND)
    }
    return c.body(null, 204)
  })
  .openapi(getPreferences, async (c) => {
    return c.json(await resultPreferencesOf(createDb(c.env.DB), currentUser(c).sub), 200)
  })
  .openapi(putPreferences, async (c) => {
    const db = createDb(c.env.DB)
    const change = c.req.valid('json')
    return c.json(await updateResultPreferences(db, currentUser(c).sub, change, Date.now()), 200)
  })
  .openapi(results, async (c) => {
    const page = c.req.valid('query')
    const { rows, total } = await recentResults(createDb(c.env.DB), currentUser(c).sub, page)
    const data = rows.map((row) => toApiResult(row, toIso))
    return c.json(
      { data, pagination: pagination(total, page.limit, page.offset, rows.length) },
      200,
    )
  })
