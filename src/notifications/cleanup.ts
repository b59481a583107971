// Removal of old notifications: on request (DELETE .../cleanup) and daily once they expire. Rows
// go in chunks, the delivery log and deliveries before their notifications, each chunk one D1
// batch.
import { idSecond } from '../lib/ids.ts'
import { removeUnusedContents } from './contents.ts'

// Rows per chunk: small enough that one batch stays quick, large enough to get through a backlog.
const CHUNK = 1000

interface Selection {
  /** SQL condition on the notifications table, and its parameters from ?2 on. */
  where: string
  params: unknown[]
  /** The order the chunks are taken in (an index's, ending with the id so it is total). */
  order: string
}

/** Deletes up to `maxChunks` chunks of the selected notifications; returns how many went. */
async function deleteInChunks(d1: D1Database, selection: Selection, maxChunks: number) {
  const chosen = `SELECT id FROM notifications WHERE ${selection.where}
    ORDER BY ${selection.order} LIMIT ?1`
  let deleted = 0
  for (let i = 0; i < maxChunks; i++) {
    // Both statements choose the same rows: one transaction, one deterministic order.
    const [, , removed] = await d1.batch([
      d1
        .prepare(`DELETE FROM delivery_attempts WHERE notification_id IN (${chosen})`)
        .bind(CHUNK, ...selection.params),
      d1
        .prepare(`DELETE FROM notification_deliveries WHERE notification_id IN (${chosen})`)
        .bind(CHUNK, ...selection.params),
      d1
        .prepare(`DELETE FROM notifications WHERE id IN (${chosen})`)
        .bind(CHUNK, ...selection.params),
    ])
    deleted += removed.meta.changes
    if (removed.meta.changes < CHUNK) return { deleted, complete: true }
  }
  return { deleted, complete: false }
}

// One request removes at most this many chunks; a larger backlog takes further calls.
const REQUEST_CHUNKS = 50

/**
 * Created before `before`, by id: ids begin with the second of creation, so the rows come in
 * order of the primary key (created_at has no index) and the condition on created_at is exact.
 */
const createdBefore = (before: number, first: number): Selection => ({
  where: `id < ?${first} AND created_at < ?${first + 1}`,
  params: [idSecond(before - 1 + 1000), before],
  order: 'id',
})

/** Notifications created before `before`, of `userId` only or of everyone (admins). */
export function cleanupNotifications(d1: D1Database, before: number, userId?: string) {
  const selection: Selection = userId
    ? {
        where: 'user_id = ?2 AND created_at < ?3',
        params: [userId, before],
        order: 'created_at, id',
      }
    : createdBefore(before, 2)
  return deleteInChunks(d1, selection, REQUEST_CHUNKS)
}

// The daily job may take a large backlog, still bounded so it ends within its time.
const DAILY_CHUNKS = 500

/**
 * Notifications past their expiry: created before `before` (now less NOTIFICATION_TTL_DAYS), found
 * by id rather than through an index on expires_at or created_at, which every reminder would pay
 * for; then the contents no notification points at any more.
 */
export async function removeExpiredNotifications(d1: D1Database, before: number) {
  const { deleted } = await deleteInChunks(d1, createdBefore(before, 2), DAILY_CHUNKS)
  await removeUnusedContents(d1)
  return deleted
}
