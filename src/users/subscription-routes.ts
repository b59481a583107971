// Follow or mute one contest (PUT, DELETE) and the caller's list of choices, under /users.
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { chooseForContest, clearForContest, listChoices } from './contest-choices.ts'
import {
  ContestIdParam,
  SubscriptionBody,
  SubscriptionListQuery,
  SubscriptionListSchema,
  SubscriptionSchema,
} from './subscription-schemas.ts'
import { toContestSummary, toSubscription } from './subscription-serialize.ts'

const tags = ['Users']
const invalid = errorResponse('Validation failed (message is an array of strings)')
const badId = errorResponse('Invalid contest ID format, or validation failed')
const missing = errorResponse('No contest with that id (or the account was deleted)')
// The general rate limit covers these routes.
const limited = { 429: errorResponse('Too many requests') }

const list = signedInRoute({
  method: 'get',
  path: '/contests/subscriptions',
  tags,
  summary: 'The caller’s followed and muted contests, the latest choice first',
  request: { query: SubscriptionListQuery },
  responses: {
    200: json(SubscriptionListSchema, 'A page of choices'),
    400: invalid,
    ...limited,
  },
})

const choose = signedInRoute({
  method: 'put',
  path: '/contests/{id}/subscription',
  tags,
  summary: 'Follow or mute one contest (replaces an earlier choice for it)',
  request: { params: ContestIdParam, ...jsonBody(SubscriptionBody) },
  responses: {
    200: json(SubscriptionSchema, 'The choice'),
    400: badId,
    404: missing,
    ...limited,
  },
})

const clear = signedInRoute({
  method: 'delete',
  path: '/contests/{id}/subscription',
  tags,
  summary: 'Back to the default for one contest (the preferences decide); also when none was made',
  request: { params: ContestIdParam },
  responses: {
    204: { description: 'No choice is stored for the contest now' },
    400: errorResponse('Invalid contest ID format'),
    404: errorResponse('No contest with that id'),
    ...limited,
  },
})

/**
 * Mounted at /users beside the profile routes. The user is always the token's (no path or body
 * names one), so nobody reads or changes another's choices.
 */
export const contestSubscriptionRoutes = createRouter()
  .openapi(list, async (c) => {
    const page = c.req.valid('query')
    const db = createDb(c.env.DB)
    const { entries, total } = await listChoices(db, { userId: currentUser(c).sub, ...page })
    const now = Date.now()
    const subscriptions = entries.map((e) => ({
      ...toSubscription(e),
      contest: toContestSummary(e.contest, now),
    }))
    return c.json({ subscriptions, total, ...page }, 200)
  })
  .openapi(choose, async (c) => {
    const input = { userId: currentUser(c).sub, contestId: c.req.valid('param').id }
    const { mode } = c.req.valid('json')
    const choice = await chooseForContest(createDb(c.env.DB), { ...input, mode }, Date.now())
    return c.json(toSubscription(choice), 200)
  })
  .openapi(clear, async (c) => {
    const input = { userId: currentUser(c).sub, contestId: c.req.valid('param').id }
    await clearForContest(createDb(c.env.DB), input)
    return c.body(null, 204)
  })
