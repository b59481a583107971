// What a notification says, stored once for every recipient of the same words: the statement that
// keeps a spec's text in notification_contents, and the read of notifications with their text.
import { eq, getTableColumns, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { notificationContents, notifications } from '../db/schema.ts'
import { sha256Hex } from '../lib/crypto.ts'
import type { NotificationSpec } from './spec.ts'

export type ContentText = Pick<NotificationSpec, 'title' | 'message' | 'payload'>

/** The key of a text: equal words, one row, whichever run or page writes them. */
export const contentDigest = (text: ContentText) =>
  sha256Hex(JSON.stringify([text.title, text.message, text.payload]))

/**
 * Keeps the text under its digest and marks it used now, in the batch that creates notifications
 * pointing at it; `CONTENT_ID_SQL` then finds its id inside the same batch.
 */
export const keepContent = (d1: D1Database, text: ContentText, digest: string, now: number) =>
  d1
    .prepare(
      `INSERT INTO notification_contents (digest, title, message, payload, used_at)
        VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (digest) DO UPDATE SET used_at = max(used_at, excluded.used_at)`,
    )
    .bind(digest, text.title, text.message, JSON.stringify(text.payload), now)

/** The id of the content whose digest is the parameter given. */
export const contentIdSql = (param: string) =>
  `(SELECT id FROM notification_contents WHERE digest = ${param})`

/**
 * A notification created at some time points at a content used at that time or later, so once no
 * notification is as old as a content's last use, nothing points at it any more.
 */
export async function removeUnusedContents(d1: D1Database): Promise<number> {
  const { meta } = await d1
    .prepare(
      `DELETE FROM notification_contents
        WHERE used_at < coalesce((SELECT min(created_at) FROM notifications), 9e15)`,
    )
    .run()
  return meta.changes
}

// A row's own text when it has no content (rows made before contents existed).
const fields = {
  ...getTableColumns(notifications),
  title: sql<string>`coalesce(${notificationContents.title}, ${notifications.title})`,
  message: sql<string>`coalesce(${notificationContents.message}, ${notifications.message})`,
  payload: sql`coalesce(${notificationContents.payload}, ${notifications.payload})`.mapWith(
    notifications.payload,
  ),
}

/** Notifications with their text, as the history, deliveries and webhooks show them. */
export const selectNotifications = (db: Db) =>
  db
    .select(fields)
    .from(notifications)
    .leftJoin(notificationContents, eq(notificationContents.id, notifications.contentId))
