// Removal of old notifications: on request (DELETE .../cleanup) and daily once they expire. Rows
// go in chunks, deliveries before their notifications, each chunk one D1 batch.
import { removeUnusedContents } from './contents.ts'

// Rows per chunk: small enough that one batch stays quick, large enough to get through a backlog.
const CHUNK = 1000

interface Selection {
  /** SQL condition on the notifications table, and its parameters from ?2 on. */
  where: string
  params: unknown[]
  /** Column the chunks are taken in order of (an indexed one). */
  order: string
}

/** Deletes up to `maxChunks` chunks of the selected notifications; returns how many went. */
async function deleteInChunks(d1: D1Database, selection: Selection, maxChunks: number) {
  const chosen = `SELECT id FROM notifications WHERE ${selection.where}
    ORDER BY ${selection.order}, id LIMIT ?1`
  let deleted = 0
  for (let i = 0; i < maxChunks; i++) {
    // Both statements choose the same rows: one transaction, one deterministic order.
    const [, removed] = await d1.batch([
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

/** Notifications created before `before`, of `userId` only or of everyone (admins). */
export function cleanupNotifications(d1: D1Database, before: number, userId?: string) {
  const selection: Selection = userId
    ? { where: 'user_id = ?2 AND created_at < ?3', params: [userId, before], order: 'created_at' }
    : { where: 'created_at < ?2', params: [before], order: 'created_at' }
  return deleteInChunks(d1, selection, REQUEST_CHUNKS)
}

// The daily job may take a large backlog, still bounded so it ends within its time.
const DAILY_CHUNKS = 500

/**
 * Notifications past their expiry: created before `createdBefore` (now less
 * NOTIFICATION_TTL_DAYS), read through the creation index rather than one on expires_at, which
 * every reminder would pay for.
 */
export async function removeExpiredNotifications(d1: D1Database, createdBefore: number) {
  const selection = { where: 'created_at < ?2', params: [createdBefore], order: 'created_at' }
  const { deleted } = await deleteInChunks(d1, selection, DAILY_CHUNKS)
  await removeUnusedContents(d1)
  return deleted
}
