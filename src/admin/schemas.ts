// Zod schemas of the admin area: statistics, the user list and user records (snake_case wire
// names, as the second API area uses), role changes and session revocation.
import { z } from '@hono/zod-openapi'
import { idParam, pagingFields } from '../lib/validation.ts'
import { ROLES } from '../users/schemas.ts'

export { RoleBody } from '../users/schemas.ts'

const MAX_SEARCH = 100
const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

export const AdminStatsSchema = z
  .object({
    total_users: z.number().openapi({ description: 'Users not soft-deleted' }),
    active_today: z
      .number()
      .openapi({ description: 'Users (not soft-deleted) created in the last 24 hours' }),
    total_conversations: z.number(),
    total_messages: z.number(),
    total_resources: z.number().nullable().openapi({
      description: 'Resources of the intelligence service; null when it could not be asked',
    }),
    intelligence_available: z
      .boolean()
      .openapi({ description: 'Whether the intelligence service answered for total_resources' }),
  })
  .openapi('AdminStats')

export const AdminUserIdParam = idParam('user')

export const AdminUsersQuery = z.object({
  ...pagingFields(),
  search: z
    .string({ error: 'search must be a string' })
    .trim()
    .max(MAX_SEARCH, { error: `search must be at most ${MAX_SEARCH} characters long` })
    .optional()
    .openapi({ description: 'Case-insensitive part of the email or the name', example: 'ada' }),
})

export const AdminAreaUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    phone_number: z.string().optional(),
    role: z.enum(ROLES),
    is_active: z.boolean(),
    email_verified: z.boolean(),
    last_login: timestamp.optional(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('AdminAreaUser')

export const AdminUserListSchema = z
  .object({
    users: z.array(AdminAreaUserSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  })
  .openapi('AdminAreaUserList')

export const AdminRoleResultSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    message: z.string(),
  })
  .openapi('AdminRoleResult')

export const RevokedSessionsSchema = z
  .object({ message: z.string(), revoked: z.number() })
  .openapi('RevokedSessions')
