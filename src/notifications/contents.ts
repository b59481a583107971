// What a notification says, stored once for all its recipients (notification_contents): the
// statement that keeps a spec's content, the SQL that finds it, and the reads of notifications
// with their words: joined, or (for a batch of deliveries) their contents read once each.
import { eq, getTableColumns, sql, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { notificationContents, notifications } from '../db/schema.ts'
import { sha256Hex } from '../lib/crypto.ts'
import type { NotificationRow } from './serialize.ts'
import type { NotificationSpec } from './spec.ts'

/**
 * Where a spec's content is found: a notice about a contest by (contest, type, dedupe key), whose
 * notifications then leave the key to it; any other kind by a digest of its words.
 */
export type ContentKey = NoticeKey | { digest: string }
type NoticeKey = { contestId: string; type: NotificationSpec['type']; dedupeKey: string }

export async function contentKey(spec: NotificationSpec): Promise<ContentKey> {
  if (spec.contestId !== null) {
    return { contestId: spec.contestId, type: spec.type, dedupeKey: spec.dedupeKey }
  }
  return { digest: await sha256Hex(JSON.stringify([spec.title, spec.message, spec.payload])) }
}

const isNotice = (key: ContentKey): key is NoticeKey => 'contestId' in key

/** The parameters of a content key, in the order of its columns. */
const contentParams = (key: ContentKey): unknown[] =>
  isNotice(key) ? [key.contestId, key.type, key.dedupeKey] : [key.digest]

/**
 * Keeps the content of `key` with the spec's words (the words it was first kept with stay) and
 * marks it used now, first in the batch that creates notifications pointing at it.
 */
export function keepContent(d1: D1Database, spec: NotificationSpec, key: ContentKey, now: number) {
  const columns = isNotice(key) ? 'contest_id, type, dedupe_key' : 'digest'
  const params = contentParams(key)
  const keyValues = params.map((_, i) => `?${i + 1}`).join(', ')
  const n = params.length
  return d1
    .prepare(
      `INSERT INTO notification_contents (${columns}, title, message, payload, used_at)
        VALUES (${keyValues}, ?${n + 1}, ?${n + 2}, ?${n + 3}, ?${n + 4})
        ON CONFLICT (${columns}) DO UPDATE SET used_at = max(used_at, excluded.used_at)`,
    )
    .bind(...params, spec.title, spec.message, JSON.stringify(spec.payload), now)
}

/** The content key as a JSON object, for statements that bind many keys at once (fan-out.ts). */
export const contentKeyJson = (key: ContentKey) =>
  isNotice(key)
    ? { contestId: key.contestId, type: key.type, dedupeKey: key.dedupeKey }
    : { digest: key.digest }

/** The id of the content whose key is the JSON object `keyExpr` (contentKeyJson). */
export const contentIdOfKeySql = (keyExpr: string) => `(CASE WHEN ${keyExpr} ->> 'digest' IS NULL
    THEN (SELECT id FROM notification_contents WHERE contest_id = ${keyExpr} ->> 'contestId'
      AND type = ${keyExpr} ->> 'type' AND dedupe_key = ${keyExpr} ->> 'dedupeKey')
    ELSE (SELECT id FROM notification_contents WHERE digest = ${keyExpr} ->> 'digest') END)`

/** The dedupe key a notification row stores: a notice's is its content's. */
export const rowDedupeKey = (key: ContentKey, spec: NotificationSpec) =>
  isNotice(key) ? '' : spec.dedupeKey

/**
 * A notification created at some time points at a content used at that time or later, so a
 * content last used before the oldest notification was made has nothing pointing at it. The
 * oldest notification is the first by id (its first 8 hex digits are the second it was made);
 * the second's margin covers the milliseconds within it.
 */
export async function removeUnusedContents(d1: D1Database): Promise<number> {
  const { meta } = await d1
    .prepare(
      `DELETE FROM notification_contents WHERE used_at < coalesce(
        (SELECT created_at - 1000 FROM notifications ORDER BY id LIMIT 1), 9e15)`,
    )
    .run()
  return meta.changes
}

// The row's own words where it keeps them (they differ from the content's, or the row was made
// before contents existed), else the content's. withContent (below) applies the same rules to the
// words in JavaScript for the consumer's batch read, which has no use for the dedupe key; a change
// to one is a change to both.
const fields = {
  ...getTableColumns(notifications),
  title: sql<string>`coalesce(nullif(${notifications.title}, ''), ${notificationContents.title}, '')`,
  message: sql<string>`coalesce(nullif(${notifications.message}, ''), ${notificationContents.message}, '')`,
  payload: sql`coalesce(${notifications.payload}, ${notificationContents.payload})`.mapWith(
    notifications.payload,
  ),
  dedupeKey: sql<string>`coalesce(${notificationContents.dedupeKey}, ${notifications.dedupeKey})`,
  /** The content's own payload: a result alert's words are made from it and the row's numbers. */
  contentPayload: notificationContents.payload,
}

/** Notifications with their words, as the history, deliveries and webhooks show them. */
export const selectNotifications = (db: Db) =>
  db
    .select(fields)
    .from(notifications)
    .leftJoin(notificationContents, eq(notificationContents.id, notifications.contentId))

/**
 * The contents whose ids `contentIds` (a subquery) gives, each once. A batch of deliveries names
 * one contest's content hundreds of times; read through selectNotifications' join, its words came
 * back with every row (two thirds of what the consumer read per delivery).
 */
export const contentsOf = (db: Db, contentIds: SQLWrapper) =>
  db
    .select({
      id: notificationContents.id,
      title: notificationContents.title,
      message: notificationContents.message,
      payload: notificationContents.payload,
    })
    .from(notificationContents)
    .where(sql`${notificationContents.id} IN ${contentIds}`)

type Content = Awaited<ReturnType<typeof contentsOf>>[number]

/** A notification's own row with its words, by the rules of selectNotifications' `fields`. */
export function withContent<Row extends Pick<NotificationRow, 'title' | 'message' | 'payload'>>(
  row: Row,
  content: Content | undefined,
): Row {
  return {
    ...row,
    title: row.title || content?.title || '',
    message: row.message || content?.message || '',
    payload: row.payload ?? content?.payload ?? null,
  }
}
