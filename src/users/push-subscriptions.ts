// Web Push subscriptions of a user: register (at most 10 a user; an endpoint changes account only
// with its keys), renew when the browser replaces one, and remove.
import { addToGroup } from '../lib/group.ts'
import { and, eq, sql } from 'drizzle-orm'
import { MAX_PUSH_SUBSCRIPTIONS } from '../channels/push/index.ts'
import type { Db } from '../db/client.ts'
import { idList } from '../db/id-list.ts'
import { pushSubscriptions, type PushSubscriptionRow } from '../db/schema.ts'
import { badRequest, conflict } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { requireProvenAddress } from './destinations.ts'
import { findUser } from './queries.ts'

// Each subscription costs a request per notification, so one account cannot fan out unbounded.
export { MAX_PUSH_SUBSCRIPTIONS }

export interface PushSubscriptionInput {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

// One statement, so the cap and the owner rule hold under concurrent registrations. A new row is
// offered only while the caller is under the cap (or already holds the endpoint); an existing one
// is updated only for its owner, or for a request carrying its keys, which only the browser that
// made the subscription knows (another account signed in on that browser).
const SAVE_SQL = `INSERT INTO push_subscriptions
    (id, user_id, endpoint, p256dh, auth, created_at, updated_at)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6
  WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE endpoint = ?3 AND user_id = ?2)
    OR (SELECT count(*) FROM push_subscriptions WHERE user_id = ?2) < ?7
  ON CONFLICT (endpoint) DO UPDATE SET
    user_id = excluded.user_id,
    p256dh = excluded.p256dh,
    auth = excluded.auth,
    updated_at = excluded.updated_at
  WHERE push_subscriptions.user_id = excluded.user_id
    OR (push_subscriptions.p256dh = excluded.p256dh AND push_subscriptions.auth = excluded.auth)
  RETURNING id, user_id AS userId, endpoint, p256dh, auth,
    created_at AS createdAt, updated_at AS updatedAt`

/**
 * Stores the subscription: new (created), or the caller's own again after a key rotation, or
 * another account's moved to the caller when the keys match. Throws 409 for an endpoint another
 * account holds under other keys and 400 past the cap.
 */
export async function savePushSubscription(
  db: Db,
  userId: string,
  input: PushSubscriptionInput,
  now: number,
): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  const user = await findUser(db, userId)
  if (user) requireProvenAddress(user)
  const id = newId(now)
  const { endpoint, keys } = input
  const row = await db.$client
    .prepare(SAVE_SQL)
    .bind(id, userId, endpoint, keys.p256dh, keys.auth, now, MAX_PUSH_SUBSCRIPTIONS)
    .first<PushSubscriptionRow>()
  if (row) return { row, created: row.id === id }
  const holder = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpoint, endpoint))
    .get()
  const keysMatch = holder?.p256dh === keys.p256dh && holder?.auth === keys.auth
  if (holder && holder.userId !== userId && !keysMatch) {
    throw conflict('This push endpoint is registered to another account')
  }
  throw badRequest(
    `At most ${MAX_PUSH_SUBSCRIPTIONS} push subscriptions per account; remove one first`,
  )
}

// The old subscription is found by its endpoint and keys together: only the browser that made it
// knows its auth secret, so no session is needed (the service worker that asks has none to send).
// OR IGNORE: when the new endpoint is registered already (the settings page got there first), the
// old row is only removed; a renewal to the same endpoint (the browser kept it) removes nothing.
const RENEW_SQL = `UPDATE OR IGNORE push_subscriptions
  SET endpoint = ?4, p256dh = ?5, auth = ?6, updated_at = ?7
  WHERE endpoint = ?1 AND p256dh = ?2 AND auth = ?3
  RETURNING id`
const REMOVE_OLD_SQL = `DELETE FROM push_subscriptions
  WHERE endpoint = ?1 AND p256dh = ?2 AND auth = ?3 AND endpoint <> ?4
  RETURNING id`

/**
 * Puts the browser's new subscription in the place of the one it replaced (the service worker's
 * pushsubscriptionchange), for the same account; false when no subscription has the old endpoint
 * with those keys.
 */
export async function renewPushSubscription(
  db: Db,
  old: PushSubscriptionInput,
  next: PushSubscriptionInput,
  now: number,
) {
  const proof = [old.endpoint, old.keys.p256dh, old.keys.auth]
  const [renewed, removed] = await db.$client.batch<{ id: string }>([
    db.$client
      .prepare(RENEW_SQL)
      .bind(...proof, next.endpoint, next.keys.p256dh, next.keys.auth, now),
    db.$client.prepare(REMOVE_OLD_SQL).bind(...proof, next.endpoint),
  ])
  return renewed.results.length + removed.results.length > 0
}

/** Removes the caller's subscription at `endpoint`; false when the caller has none there. */
export async function removePushSubscription(db: Db, userId: string, endpoint: string) {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id })
  return rows.length > 0
}

export function listPushSubscriptions(db: Db, userId: string) {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
}

/** The subscriptions of many users in one read, by user id (users without any are absent). */
export async function pushSubscriptionsOf(db: Db, userIds: readonly string[]) {
  const byUser = new Map<string, PushSubscriptionRow[]>()
  if (userIds.length === 0) return byUser
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(sql`${pushSubscriptions.userId} IN ${idList(userIds)}`)
  for (const row of rows) addToGroup(byUser, row.userId, row)
  return byUser
}
