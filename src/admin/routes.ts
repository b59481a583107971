// The admin area of the second API: statistics and user management (list, read, role, hard
// delete, session revocation). Every route needs the admin role and a live admin session.
import { changeUserRole } from '../auth/roles.ts'
import { revokeUserSessionsStatement } from '../auth/sessions.ts'
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { countResources } from '../resources/service.ts'
import { deleteUser } from '../account/deletion.ts'
import { searchUsers } from '../users/admin-queries.ts'
import { findUser } from '../users/queries.ts'
import { toRoleChangeResult } from '../users/serialize.ts'
import {
  AdminAreaUserSchema,
  AdminRoleResultSchema,
  AdminUserIdParam,
  AdminUserListSchema,
  AdminUsersQuery,
  RevokedSessionsSchema,
  RoleBody,
  AdminStatsSchema,
} from './schemas.ts'
import { adminRoute, createRouter } from '../http/router.ts'
import { toAdminAreaUser } from './serialize.ts'
import { adminStats } from './stats.ts'

const USER_NOT_FOUND = 'User not found'
const tags = ['Admin']
const badId = errorResponse('Invalid user ID format')
const missing = errorResponse('User not found')

const stats = adminRoute({
  method: 'get',
  path: '/stats',
  tags,
  summary: 'Platform-wide counts; total_resources is null while the intelligence service is down',
  responses: { 200: json(AdminStatsSchema, 'The counts') },
})

const listUsers = adminRoute({
  method: 'get',
  path: '/users',
  tags,
  summary: 'Users newest first, optionally those whose email or name contains `search`',
  request: { query: AdminUsersQuery },
  responses: {
    200: json(AdminUserListSchema, 'A page of users'),
    400: errorResponse('Pagination or search out of range'),
  },
})

const getUser = adminRoute({
  method: 'get',
  path: '/users/{id}',
  tags,
  summary: 'One user',
  request: { params: AdminUserIdParam },
  responses: { 200: json(AdminAreaUserSchema, 'The user'), 400: badId, 404: missing },
})

const changeRole = adminRoute({
  method: 'patch',
  path: '/users/{id}/role',
  tags,
  summary: 'Change another user’s role; a demotion ends their sessions at once',
  request: {
    params: AdminUserIdParam,
    ...jsonBody(RoleBody),
  },
  responses: {
    200: json(AdminRoleResultSchema, 'Role changed'),
    400: errorResponse('Invalid role or id, or the caller’s own role'),
    404: missing,
  },
})

const deleteUserRoute = adminRoute({
  method: 'delete',
  path: '/users/{id}',
  tags,
  summary: 'Delete a user for good, with their sessions and everything they own',
  request: { params: AdminUserIdParam },
  responses: {
    200: json(MessageSchema, 'Deleted'),
    400: errorResponse('Invalid id, or the caller’s own account'),
    404: missing,
  },
})

const revokeSessions = adminRoute({
  method: 'delete',
  path: '/users/{id}/sessions',
  tags,
  summary: 'End every session of a user at once (e.g. to apply a role change now)',
  request: { params: AdminUserIdParam },
  responses: {
    200: json(RevokedSessionsSchema, 'Sessions ended'),
    400: badId,
    404: missing,
  },
})

export const adminRoutes = createRouter()

adminRoutes
  .openapi(stats, async (c) => {
    const body = await adminStats(createDb(c.env.DB), () => countResources(c.env), Date.now())
    return c.json(body, 200)
  })
  .openapi(listUsers, async (c) => {
    const page = c.req.valid('query')
    const { rows, total } = await searchUsers(createDb(c.env.DB), page)
    return c.json(
      { users: rows.map(toAdminAreaUser), total, limit: page.limit, offset: page.offset },
      200,
    )
  })
  .openapi(getUser, async (c) => {
    const user = await findUser(createDb(c.env.DB), c.req.valid('param').id)
    if (!user) throw notFound(USER_NOT_FOUND)
    return c.json(toAdminAreaUser(user), 200)
  })
  .openapi(changeRole, async (c) => {
    const { id } = c.req.valid('param')
    const { role } = c.req.valid('json')
    const db = createDb(c.env.DB)
    const user = await changeUserRole(db, currentUser(c).sub, { id, role }, Date.now())
    if (!user) throw notFound(USER_NOT_FOUND)
    return c.json(toRoleChangeResult(user), 200)
  })
  .openapi(deleteUserRoute, async (c) => {
    const { id } = c.req.valid('param')
    if (id === currentUser(c).sub) {
      throw badRequest('You cannot delete your own account here; use DELETE /user/delete-account')
    }
    if (!(await deleteUser(createDb(c.env.DB), id))) throw notFound(USER_NOT_FOUND)
    return c.json({ message: 'User deleted successfully' }, 200)
  })
  .openapi(revokeSessions, async (c) => {
    const { id } = c.req.valid('param')
    const db = createDb(c.env.DB)
    if (!(await findUser(db, id))) throw notFound(USER_NOT_FOUND)
    const result = await revokeUserSessionsStatement(db, id, Date.now()).run()
    return c.json({ message: 'Sessions revoked successfully', revoked: result.meta.changes }, 200)
  })
