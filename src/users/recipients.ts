// SQL fragments of the users tables for the notifier's set-based statements, which join users to
// its own tables in one statement: who is a live recipient and on which channels a user can be
// reached. Every fragment names the users row `u`. These tables' names appear in SQL only under
// src/users (scripts/check-table-owners.mjs). When and about what a user is notified
// (alert_frequency, lead_times, contest_types, the noise filters) stays the notifier's rule over
// those columns.
import { perChannel, type Channel } from '../channels/registry.ts'
import type { Destination } from '../channels/define.ts'
import { users } from '../db/schema.ts'
import { LIVE_USER_SQL } from './live.ts'

/** A user who can be notified at all: live (not deleted), not deactivated, email verified. */
export const LIVE_RECIPIENT_SQL = `${LIVE_USER_SQL}
    AND u.is_active = 1 AND u.email_verified_at IS NOT NULL`

/**
 * A phone number WhatsApp may use: not blank, and the very number a code proved (isPhoneVerified
 * in users/phone.ts, the same rule in code).
 */
export const VERIFIED_PHONE_SQL =
  "trim(coalesce(u.phone_number, '')) <> '' AND u.phone_verified_number = u.phone_number"

/** At least one browser subscribed to Web Push for the user. */
export const HAS_PUSH_SUBSCRIPTION_SQL =
  'EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.user_id = u.id)'

/** How a user is reachable at a kind of destination, over the users row `u`. */
function reachableSql(destination: Destination): string | undefined {
  switch (destination.kind) {
    case 'email':
      return undefined
    case 'phone':
      return VERIFIED_PHONE_SQL
    case 'push':
      return HAS_PUSH_SUBSCRIPTION_SQL
    case 'linked':
    case 'webhook':
      return `u.${users[destination.field].name} IS NOT NULL`
  }
}

/** Per channel: the user turned it on and can be reached on it. */
export const REACHABLE_ON_SQL: Record<Channel, string> = perChannel((m) => {
  const on = `u.${users[m.switchField].name}`
  const reachable = reachableSql(m.destination)
  return reachable ? `${on} AND ${reachable}` : on
})

/** Joins the users row whose id is `idExpr` (a column or parameter of the caller's SQL) as `u`. */
export const joinUserSql = (idExpr: string) => `JOIN users u ON u.id = ${idExpr}`

/**
 * FROM clause of the followers of platforms: each (user, platform) pair as `up` (filter on
 * `up.platform` and walk `up.user_id` in order through the (platform, user_id) index) with the
 * follower's users row as `u`.
 */
export const PLATFORM_FOLLOWERS_FROM = `user_platforms up ${joinUserSql('up.user_id')}`

/** The user follows one of the platforms in the JSON array bound at `platformsParam`. */
export const followsAnyPlatformSql = (platformsParam: string) =>
  `EXISTS (SELECT 1 FROM user_platforms up WHERE up.user_id = u.id
      AND up.platform IN (SELECT value FROM json_each(${platformsParam})))`

/**
 * Every `every`-th follower of the platform, in user id order: the ends of pages of `every`
 * followers each, read from the (platform, user_id) index alone. Empty when one page holds them all.
 */
export async function followerPageEnds(d1: D1Database, platform: string, every: number) {
  const { results } = await d1
    .prepare(
      `SELECT user_id AS id FROM (SELECT user_id, row_number() OVER (ORDER BY user_id) AS rn
        FROM user_platforms WHERE platform = ?1) WHERE rn % ?2 = 0`,
    )
    .bind(platform, every)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}
