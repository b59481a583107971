// /communities: the signed-in account's claimed Discord channels and Telegram groups, listed with
// their state, their filters changed, released; and the one-time code that claims another.
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import { CLAIM_CODE_TTL_SECONDS, issueClaimCode } from './claims.ts'
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
  responses: { 201: json(ClaimCodeSchema, 'The code, shown once; only its hash is stored') },
})

export const communityApiRoutes = createRouter()
  .openapi(list, async (c) => {
    const rows = await ownedDestinations(createDb(c.env.DB), currentUser(c).sub)
    return c.json({ communities: rows.map(toApiCommunity) }, 200)
  })
  .openapi(update, async (c) => {
    const input = { userId: currentUser(c).sub, id: c.req.valid('param').id }
    const filters = c.req.valid('json')
    const row = await updateOwnedFilters(createDb(c.env.DB), { ...input, filters }, Date.now())
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
    const code = await issueClaimCode(c.env.KV, currentUser(c).sub)
    c.header('Cache-Control', 'no-store')
    const expiresAt = toIso(Date.now() + CLAIM_CODE_TTL_SECONDS * 1000)
    return c.json({ code, expiresAt }, 201)
  })
