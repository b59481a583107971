// User rows as the admin area shows them: snake_case, no secret column ever read.
import type { UserRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'

export function toAdminAreaUser(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    ...(row.phoneNumber != null && { phone_number: row.phoneNumber }),
    role: row.role,
    is_active: row.isActive,
    email_verified: row.emailVerifiedAt != null,
    ...(row.lastLogin != null && { last_login: toIso(row.lastLogin) }),
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  }
}
