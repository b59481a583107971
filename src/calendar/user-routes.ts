// POST and DELETE /users/calendar: the signed-in user creates, rotates or revokes the secret
// address of their private feed.
import { createDb } from '../db/client.ts'
import { settings } from '../env.ts'
import { currentUser } from '../http/auth.ts'
import { createRouter, signedInRoute } from '../http/router.ts'
import { notFound } from '../lib/errors.ts'
import { errorResponse, json } from '../lib/openapi.ts'
import { newFeedAddress } from './feed-address.ts'
import { revokeFeed } from './feeds.ts'
import { CalendarFeedSchema } from './schemas.ts'

const tags = ['Calendar']

const create = signedInRoute({
  method: 'post',
  path: '/calendar',
  tags,
  summary: 'Create the private feed address, or replace it (the old address then answers 404)',
  responses: {
    201: json(CalendarFeedSchema, 'The new address, shown once; only its hash is stored'),
    404: errorResponse('User not found'),
  },
})

const revoke = signedInRoute({
  method: 'delete',
  path: '/calendar',
  tags,
  summary: 'Revoke the private feed address (204 also when there was none)',
  responses: { 204: { description: 'No feed address any more' } },
})

// Mounted under /users ahead of the users router, whose admin DELETE /{id} would take `calendar`.
export const calendarUserRoutes = createRouter()
  .openapi(create, async (c) => {
    const db = createDb(c.env.DB)
    const appUrl = settings(c.env).APP_URL
    const address = await newFeedAddress(db, currentUser(c).sub, appUrl, Date.now())
    if (!address) throw notFound('User not found')
    // The answer carries a secret: no cache may keep it.
    c.header('Cache-Control', 'no-store')
    return c.json(address, 201)
  })
  .openapi(revoke, async (c) => {
    // Idempotent: a retried revoke, after a lost answer, must not read as a failure.
    await revokeFeed(createDb(c.env.DB), currentUser(c).sub)
    return c.body(null, 204)
  })
