// Reads and writes of the notification history: list, get, read flags and statistics. Shared by
// the endpoints (api/) and the delivery, which reads a notification back once it is sent.
import { CHANNELS, isChannel, type Channel } from '../channels/registry.ts'
import { and, count, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { idList } from '../db/id-list.ts'
import { idSecond } from '../lib/ids.ts'
import { notificationDeliveries, notifications } from '../db/schema.ts'
import {
  toApiNotification,
  type NotificationDeliveryRow,
  type NotificationRow,
} from './serialize.ts'
import { attemptsOf } from './attempt-log.ts'
import { selectNotifications } from './contents.ts'
import { NOTIFICATION_TYPES } from './spec.ts'

interface Scope {
  /** Only this user's notifications; all users' when undefined (admins). */
  userId?: string
  startDate?: string
  endDate?: string
}

/** A page of the list and its filters (the endpoint's validated query). */
interface ListPage {
  status?: NotificationRow['status']
  type?: NotificationRow['type']
  /** Only notifications with a delivery on this channel; `status` is then that delivery's. */
  channel?: Channel
  page: number
  limit: number
}

/**
 * The scope as conditions. A date also bounds the id, which begins with the second of creation:
 * without a user, that range of the primary key is what finds the rows (created_at has no index).
 */
function scopeConditions(scope: Scope): (SQL | undefined)[] {
  const start = scope.startDate ? Date.parse(scope.startDate) : undefined
  const end = scope.endDate ? Date.parse(scope.endDate) : undefined
  return [
    scope.userId ? eq(notifications.userId, scope.userId) : undefined,
    start === undefined ? undefined : gte(notifications.createdAt, start),
    start === undefined ? undefined : gte(notifications.id, idSecond(start)),
    end === undefined ? undefined : lte(notifications.createdAt, end),
    end === undefined ? undefined : lt(notifications.id, idSecond(end + 1000)),
  ]
}

async function deliveriesOf(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, NotificationDeliveryRow[]>> {
  const byNotification = new Map<string, NotificationDeliveryRow[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byNotification
  const rows = await db
    .select()
    .from(notificationDeliveries)
    .where(sql`${notificationDeliveries.notificationId} IN ${idList(ids)}`)
  for (const row of rows) byNotification.get(row.notificationId)?.push(row)
  return byNotification
}

/**
 * Makes the words of a row kept without them (a result alert keeps its numbers only): the kinds'
 * withResultWords (kinds/result-words.ts). This shared module imports no room, so its callers
 * hand it in.
 */
export type RowWords = <Row extends NotificationRow>(
  row: Row,
  contentPayload: Record<string, unknown> | null | undefined,
) => Row

type ReadRow = NotificationRow & { contentPayload: Record<string, unknown> | null }

async function render(db: Db, rows: ReadRow[], words: RowWords) {
  const ids = rows.map((r) => r.id)
  const [deliveries, attempts] = await Promise.all([deliveriesOf(db, ids), attemptsOf(db, ids)])
  return rows.map(({ contentPayload, ...r }) =>
    toApiNotification(words(r, contentPayload), deliveries.get(r.id) ?? [], attempts),
  )
}

/**
 * Newest first; the id breaks ties so that pages never overlap. A user's list goes by their
 * (user, created_at) index; everyone's by id, which is newest first to the second.
 */
export async function listNotifications(db: Db, filters: ListPage & Scope, words: RowWords) {
  const d = notificationDeliveries
  // A channel's own status is what someone filtering by channel asks about ("my failed Slack
  // messages"); the unique (notification, channel) index answers the EXISTS.
  const onChannel = filters.channel
    ? sql`EXISTS (SELECT 1 FROM ${d} WHERE ${d.notificationId} = ${notifications.id}
        AND ${d.channel} = ${filters.channel}
        ${filters.status ? sql`AND ${d.status} = ${filters.status}` : sql``})`
    : undefined
  const where = and(
    ...scopeConditions(filters),
    filters.status && !filters.channel ? eq(notifications.status, filters.status) : undefined,
    filters.type ? eq(notifications.type, filters.type) : undefined,
    onChannel,
  )
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(notifications).where(where),
    selectNotifications(db)
      .where(where)
      .orderBy(...(filters.userId ? [desc(notifications.createdAt)] : []), desc(notifications.id))
      .limit(filters.limit)
      .offset((filters.page - 1) * filters.limit),
  ])
  return { notifications: await render(db, rows, words), total }
}

/** The notifications with these ids that exist, rendered, in one read of each table. */
export async function findNotifications(db: Db, ids: readonly string[], words: RowWords) {
  if (ids.length === 0) return []
  const rows = await selectNotifications(db).where(sql`${notifications.id} IN ${idList(ids)}`)
  return render(db, rows, words)
}

/** The notification if it exists and `ownerId` (when given) owns it. */
export async function findNotification(
  db: Db,
  id: string,
  ownerId: string | undefined,
  words: RowWords,
) {
  const row = await selectNotifications(db)
    .where(and(eq(notifications.id, id), ownerId ? eq(notifications.userId, ownerId) : undefined))
    .get()
  if (!row) return undefined
  return (await render(db, [row], words))[0]
}

export async function markRead(
  db: Db,
  id: string,
  ownerId: string | undefined,
  now: number,
  words: RowWords,
) {
  const [row] = await db
    .update(notifications)
    .set({ isRead: true, readAt: sql`coalesce(${notifications.readAt}, ${now})`, updatedAt: now })
    .where(and(eq(notifications.id, id), ownerId ? eq(notifications.userId, ownerId) : undefined))
    .returning({ id: notifications.id })
  return row && findNotification(db, row.id, undefined, words)
}

/** Marks every unread notification of the user read; returns how many changed. */
export async function markAllRead(db: Db, userId: string, now: number): Promise<number> {
  const result = await db
    .update(notifications)
    .set({ isRead: true, readAt: now, updatedAt: now })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
  return result.meta.changes
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100

/**
 * Counts by status, channel and type. `pending` counts notifications still in progress (PENDING
 * or RETRYING); `successRate` is the percentage of settled notifications (SENT or FAILED) that
 * were sent, so work still in flight does not count against it.
 */
export async function notificationStats(db: Db, scope: Scope) {
  const where = and(...scopeConditions(scope))
  const [[totals], types, channels] = await db.batch([
    db
      .select({
        total: count(),
        sent: sql<number>`coalesce(sum(${notifications.status} = 'SENT'), 0)`,
        failed: sql<number>`coalesce(sum(${notifications.status} = 'FAILED'), 0)`,
        pending: sql<number>`coalesce(sum(${notifications.status} IN ('PENDING', 'RETRYING')), 0)`,
      })
      .from(notifications)
      .where(where),
    db
      .select({ type: notifications.type, n: count() })
      .from(notifications)
      .where(where)
      .groupBy(notifications.type),
    db
      .select({ channel: notificationDeliveries.channel, n: count() })
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .where(where)
      .groupBy(notificationDeliveries.channel),
  ])
  const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<Channel, number>
  for (const c of channels) if (isChannel(c.channel)) byChannel[c.channel] = c.n
  const byType: Record<string, number> = Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, 0]))
  for (const t of types) byType[t.type] = t.n
  return {
    total: totals.total,
    sent: totals.sent,
    failed: totals.failed,
    pending: totals.pending,
    byChannel,
    byType,
    successRate: percent(totals.sent, totals.sent + totals.failed),
  }
}
