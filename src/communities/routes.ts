// /communities: the signed-in account's claimed Discord channels and Telegram groups, listed with
// their state, their filters changed, released; and the one-time code that claims another.
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { notFound, unauthorized } from '../lib/errors.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import { issueClaimCode } from './claims.ts'
import { ownedDestinations, releaseDestination, updateOwnedFilters } from './owned.ts'
import {
  ClaimCodeSchema,
  CommunityIdParam,
  CommunityListSchema,
  CommunitySchema,
  CommunityUpdateBody,
} from './schemas.ts'
import { toApiCommunity } from './serialize.ts'

const tags = ['Communities']
const invalid = errorResponse('Validation failed (message is an array of strings)')
const missing = errorResponse('Your account has no community with that id')
const notYours = () => notFound('Your account has no community with that id')
// A deleted account's token, still unexpired, names no one who could hold a community.
const ACCOUNT_GONE = 'Your session has ended: sign in again'

const list = signedInRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'The communities the account claimed (at most 100), the latest change first',
  responses: { 200: json(CommunityListSchema, 'The claimed communities') },
})

const update = signedInRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change what a claimed community announces: platforms, types, lead times, words, length',
  request: { params: CommunityIdParam, ...jsonBody(CommunityUpdateBody) },
  responses: { 200: json(CommunitySchema, 'The community'), 400: invalid, 404: missing },
})

const release = signedInRoute({
  method: 'post',
  path: '/{id}/release',
  tags,
  summary: 'Give a claimed community up; it keeps announcing, managed from its chat only',
  request: { params: CommunityIdParam },
  responses: { 204: { description: 'Released' }, 400: invalid, 404: missing },
})

const claimCode = signedInRoute({
  method: 'post',
  path: '/claim-codes',
  tags,
  summary:
    'A one-time code (15 minutes) that an administrator sends in the chat (/claim in Telegram, /contests claim in Discord)',
  responses: {
    201: json(ClaimCodeSchema, 'The code, shown once; only its hash is stored'),
    403: errorResponse('The account’s email address is not verified yet'),
  },
})

export const communityApiRoutes = createRouter()
  .openapi(list, async (c) => {
    const rows = await ownedDestinations(createDb(c.env.DB), currentUser(c).sub)
    return c.json({ communities: rows.map(toApiCommunity) }, 200)
  })
  .openapi(update, async (c) => {
    const input = { userId: currentUser(c).sub, id: c.req.valid('param').id }
    const { rankUpdates, ...filters } = c.req.valid('json')
    const row = await updateOwnedFilters(
      createDb(c.env.DB),
      { ...input, filters, rankUpdates },
      Date.now(),
    )
    if (!row) throw notYours()
    return c.json(toApiCommunity(row), 200)
  })
  .openapi(release, async (c) => {
    const { id } = c.req.valid('param')
    const released = await releaseDestination(
      createDb(c.env.DB),
      currentUser(c).sub,
      id,
      Date.now(),
    )
    if (!released) throw notYours()
    return c.body(null, 204)
  })
  .openapi(claimCode, async (c) => {
    const issued = await issueClaimCode(createDb(c.env.DB), currentUser(c).sub, Date.now())
    if (!issued) throw unauthorized(ACCOUNT_GONE)
    c.header('Cache-Control', 'no-store')
    return c.json({ code: issued.code, expiresAt: toIso(issued.expiresAt) }, 201)
  })
