// User endpoints: own profile and preferences, account state, push subscriptions, admin management.
import { createDb, type Db } from '../db/client.ts'
import type { UserRow } from '../db/schema.ts'
import { currentUser } from '../http/auth.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { pushEndpointProblem } from '../channels/push/push-target.ts'
import { badRequest, forbidden, notFound } from '../lib/errors.ts'
import type { Role } from '../lib/jwt.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { adminRoute, createRouter, signedInRoute } from '../http/router.ts'
import { removePushSubscription, savePushSubscription } from './push-subscriptions.ts'
import { webhookUrlProblems } from './preferences.ts'
import { findUser, findUserWithBlocks, listUsers, setActive, updateProfile } from './queries.ts'
import {
  ListUsersQuery,
  ProfileSchema,
  ProfileUpdateBody,
  ProfileUpdateResultSchema,
  PushEndpointBody,
  PushSubscriptionBody,
  PushSubscriptionSchema,
  RoleBody,
  RoleChangeResultSchema,
  UserIdParam,
  UserListSchema,
  UserViewSchema,
} from './schemas.ts'
import {
  toAdminUser,
  toOwnProfile,
  toProfileUpdateResult,
  toPushSubscription,
  toRoleChangeResult,
  toUserView,
} from './serialize.ts'

const USER_NOT_FOUND = 'User not found'
const tags = ['Users']
const common = {
  429: errorResponse('Too many requests'),
}
const invalid = errorResponse('Validation failed (message is an array of strings)')
const missing = errorResponse('User not found')

const getProfile = signedInRoute({
  method: 'get',
  path: '/profile',
  tags,
  summary: 'The signed-in user’s profile',
  middleware: [rateLimit(RULES.getProfile)] as const,
  responses: { 200: json(ProfileSchema, 'The profile'), 404: missing, ...common },
})

const putProfile = signedInRoute({
  method: 'put',
  path: '/profile',
  tags,
  summary: 'Update name, phone number or preferences (partial, merged, atomic)',
  middleware: [rateLimit(RULES.updateProfile)] as const,
  request: jsonBody(ProfileUpdateBody),
  responses: {
    200: json(ProfileUpdateResultSchema, 'The updated profile'),
    400: invalid,
    404: missing,
    ...common,
  },
})

const deactivate = signedInRoute({
  method: 'delete',
  path: '/profile',
  tags,
  summary: 'Deactivate the account (no notifications until reactivated)',
  middleware: [rateLimit(RULES.deactivate)] as const,
  responses: { 200: json(MessageSchema, 'Deactivated'), 404: missing, ...common },
})

const activate = signedInRoute({
  method: 'put',
  path: '/activate',
  tags,
  summary: 'Reactivate the account',
  middleware: [rateLimit(RULES.activate)] as const,
  responses: { 200: json(MessageSchema, 'Activated'), 404: missing, ...common },
})

const addPushSubscription = signedInRoute({
  method: 'post',
  path: '/push-subscriptions',
  tags,
  summary: 'Register a Web Push subscription of this browser (at most 10 per account)',
  middleware: [rateLimit(RULES.pushSubscriptions)] as const,
  request: jsonBody(PushSubscriptionBody),
  responses: {
    200: json(PushSubscriptionSchema, 'An existing subscription, updated'),
    201: json(PushSubscriptionSchema, 'Registered'),
    400: errorResponse('Validation failed, not a known push service, or 10 subscriptions held'),
    409: errorResponse('Another account holds the endpoint and the keys do not match'),
    ...common,
  },
})

const deletePushSubscription = signedInRoute({
  method: 'delete',
  path: '/push-subscriptions',
  tags,
  summary: 'Remove one of the caller’s Web Push subscriptions by endpoint',
  middleware: [rateLimit(RULES.pushSubscriptions)] as const,
  request: jsonBody(PushEndpointBody),
  responses: {
    200: json(MessageSchema, 'Removed'),
    400: invalid,
    404: errorResponse('The caller has no subscription at that endpoint'),
    ...common,
  },
})

const list = adminRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'All users, newest first (admin)',
  middleware: [rateLimit(RULES.listUsers)] as const,
  request: { query: ListUsersQuery },
  responses: {
    200: json(UserListSchema, 'A page of users'),
    400: invalid,
    ...common,
  },
})

const getUser = signedInRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One user: the caller themself, or anyone for an admin',
  middleware: [rateLimit(RULES.getUser)] as const,
  request: { params: UserIdParam },
  responses: {
    200: json(UserViewSchema, 'The user'),
    400: errorResponse('Invalid user ID format'),
    403: errorResponse('Another user’s record, and the caller is not an admin'),
    404: missing,
    ...common,
  },
})

const changeRole = adminRoute({
  method: 'patch',
  path: '/{id}/role',
  tags,
  summary: 'Change another user’s role (admin); a demotion ends their sessions at once',
  request: { params: UserIdParam, ...jsonBody(RoleBody) },
  responses: {
    200: json(RoleChangeResultSchema, 'Role changed'),
    400: errorResponse('Validation failed, or the caller’s own role'),
    404: missing,
    ...common,
  },
})

const remove = adminRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete a user and everything they own, permanently (admin)',
  request: { params: UserIdParam },
  responses: {
    200: json(MessageSchema, 'Deleted'),
    400: errorResponse('Invalid user ID format'),
    404: missing,
    ...common,
  },
})

/**
 * Deletes a user and everything every feature keeps of them; true when there was one. The app
 * passes the account feature's deletion, which collects each table owner's statements.
 */
export type DeleteAccount = (db: Db, userId: string) => Promise<boolean>

/**
 * Changes another user's role on behalf of `actorId`; undefined when no live user has that id.
 * The app passes auth's, since a demotion also ends the user's sessions.
 */
export type ChangeRole = (
  db: Db,
  actorId: string,
  input: { id: string; role: Role },
  now: number,
) => Promise<UserRow | undefined>

/** What the users router needs of the features above it. */
export interface UserRouteDeps {
  deleteAccount: DeleteAccount
  changeUserRole: ChangeRole
}

// Literal paths are registered before /{id}, so they win over it.
export function userRoutes({ deleteAccount, changeUserRole }: UserRouteDeps) {
  return createRouter()
    .openapi(getProfile, async (c) => {
      const found = await findUserWithBlocks(createDb(c.env.DB), currentUser(c).sub)
      if (!found) throw notFound(USER_NOT_FOUND)
      return c.json(toOwnProfile(found.user, found.blocks), 200)
    })
    .openapi(putProfile, async (c) => {
      const input = c.req.valid('json')
      const refused = webhookUrlProblems(c.env, input.preferences ?? {})
      if (refused.length > 0) throw badRequest(refused)
      const db = createDb(c.env.DB)
      const user = await updateProfile(db, currentUser(c).sub, input, Date.now())
      if (!user) throw notFound(USER_NOT_FOUND)
      return c.json(toProfileUpdateResult(user), 200)
    })
    .openapi(deactivate, async (c) => {
      const found = await setActive(createDb(c.env.DB), currentUser(c).sub, false, Date.now())
      if (!found) throw notFound(USER_NOT_FOUND)
      return c.json({ message: 'Account deactivated successfully' }, 200)
    })
    .openapi(activate, async (c) => {
      const found = await setActive(createDb(c.env.DB), currentUser(c).sub, true, Date.now())
      if (!found) throw notFound(USER_NOT_FOUND)
      return c.json({ message: 'Account activated successfully' }, 200)
    })
    .openapi(addPushSubscription, async (c) => {
      const input = c.req.valid('json')
      const refused = pushEndpointProblem(c.env, input.endpoint)
      if (refused) throw badRequest([refused])
      const db = createDb(c.env.DB)
      const { row, created } = await savePushSubscription(db, currentUser(c).sub, input, Date.now())
      return created ? c.json(toPushSubscription(row), 201) : c.json(toPushSubscription(row), 200)
    })
    .openapi(deletePushSubscription, async (c) => {
      const db = createDb(c.env.DB)
      const { endpoint } = c.req.valid('json')
      if (!(await removePushSubscription(db, currentUser(c).sub, endpoint))) {
        throw notFound('Push subscription not found')
      }
      return c.json({ message: 'Push subscription removed' }, 200)
    })
    .openapi(list, async (c) => {
      const page = c.req.valid('query')
      const { rows, total } = await listUsers(createDb(c.env.DB), page)
      return c.json({ users: rows.map(toAdminUser), total, ...page }, 200)
    })
    .openapi(getUser, async (c) => {
      const { id } = c.req.valid('param')
      const caller = currentUser(c)
      // Refused before any lookup, so a non-admin learns nothing about other ids.
      if (caller.sub !== id && caller.role !== 'admin') throw forbidden()
      const user = await findUser(createDb(c.env.DB), id)
      if (!user) throw notFound(USER_NOT_FOUND)
      return c.json(toUserView(user), 200)
    })
    .openapi(changeRole, async (c) => {
      const { id } = c.req.valid('param')
      const { role } = c.req.valid('json')
      const db = createDb(c.env.DB)
      const user = await changeUserRole(db, currentUser(c).sub, { id, role }, Date.now())
      if (!user) throw notFound(USER_NOT_FOUND)
      return c.json(toRoleChangeResult(user), 200)
    })
    .openapi(remove, async (c) => {
      if (!(await deleteAccount(createDb(c.env.DB), c.req.valid('param').id))) {
        throw notFound(USER_NOT_FOUND)
      }
      return c.json({ message: 'User deleted successfully' }, 200)
    })
}
