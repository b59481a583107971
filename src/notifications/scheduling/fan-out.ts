// Creates notifications for a page of users in SQL: one notification per user and one delivery per
// channel the user can be reached on, in one transaction that returns the deliveries to enqueue.
import { CHANNELS, type Channel } from '../../channels/registry.ts'
import { DAY_MS } from '../../lib/time.ts'
import { joinUserSql, REACHABLE_ON_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { contentDigest, contentIdSql, keepContent } from '../contents.ts'
import type { NotificationSpec } from '../spec.ts'

export interface FanOutContext {
  d1: D1Database
  now: number
  /** How long a notification is kept (NOTIFICATION_TTL_DAYS). */
  ttlMs: number
  /** Channels whose provider can send; the others are left out of new notifications. */
  enabled: Record<Channel, boolean>
  /**
   * Deliveries are created already marked queued: set for a fan-out page, whose own queue message
   * stands for its deliveries until it is acked (page-resume.ts), which spares marking each one.
   * Elsewhere they are marked once the queue took them, and the sweep finds any left unmarked.
   */
  queuedOnCreate: boolean
}

export function fanOutContext(
  n: Notifier,
  now: number,
  { queuedOnCreate = false } = {},
): FanOutContext {
  const ttlMs = n.settings.NOTIFICATION_TTL_DAYS * DAY_MS
  return { d1: n.d1, now, ttlMs, enabled: n.enabled, queuedOnCreate }
}

export interface QueuedDelivery {
  id: string
  channel: Channel
}

export interface PageResult {
  /** Notifications created (users already holding one with the same key are not counted). */
  created: number
  /** Deliveries this page created, to hand to the queue. */
  toQueue: QueuedDelivery[]
  /** The same, per group in the order given. */
  toQueueByGroup: QueuedDelivery[][]
}

// Same shape as lib/ids: 4 bytes of seconds then 8 random bytes, as 24 lowercase hex characters.
const newIdSql = (secondsParam: string) =>
  `printf('%08x', ${secondsParam}) || lower(hex(randomblob(8)))`

// The user's channels as a JSON array: the channel is allowed here (?10 onwards, in CHANNELS'
// order), the user turned it on, and the user can be reached on it (a verified phone number, a
// push subscription, a linked Telegram chat, a Discord webhook).
const CHANNELS_SQL = `'[' || trim(
    ${CHANNELS.map(
      (c, i) => `(CASE WHEN ?${10 + i} AND ${REACHABLE_ON_SQL[c]} THEN '"${c}",' ELSE '' END)`,
    ).join(' ||\n    ')}, ',') || ']'`

// The text is the page's content (contents.ts): the row's own title and message stay empty.
const INSERT_NOTIFICATIONS_SQL = `INSERT INTO notifications (id, user_id, contest_id, type, title,
    message, content_id, channels, status, dedupe_key, scheduled_at, is_read, expires_at,
    created_at, updated_at)
  SELECT ${newIdSql('?1')}, r.id, ?2, ?3, '', '', ${contentIdSql('?4')}, r.channels, 'PENDING',
    ?5, ?6, 0, ?7, ?8, ?8
  FROM (SELECT u.id AS id, ${CHANNELS_SQL} AS channels
    FROM json_each(?9) j ${joinUserSql('j.value')}) r
  WHERE r.channels <> '[]'
  ON CONFLICT DO NOTHING`

/**
 * The page's notifications of one spec, with its parameters numbered from `first`. CROSS JOIN
 * makes SQLite walk the page's user ids and look each up by the dedupe index; left to itself it
 * scans every notification of the contest once per page, which grows with the audience.
 */
const pageNotifications = (first: number) => `json_each(?${first}) j
  CROSS JOIN notifications n ON n.user_id = j.value AND n.contest_id IS ?${first + 1}
    AND n.type = ?${first + 2} AND n.dedupe_key = ?${first + 3}`

// RETURNING gives only the rows inserted: a delivery another run made first is that run's to
// enqueue, or the sweep's if it died before (enqueue.ts).
const INSERT_DELIVERIES_SQL = `INSERT INTO notification_deliveries (id, notification_id, channel,
    status, retry_count, attempts, queued_at, created_at, updated_at)
  SELECT ${newIdSql('?1')}, n.id, c.value, 'PENDING', 0, 0, ?7, ?2, ?2
  FROM ${pageNotifications(3)} JOIN json_each(n.channels) c
  WHERE 1
  ON CONFLICT DO NOTHING
  RETURNING id, channel`

const flag = (on: boolean) => (on ? 1 : 0)

/** The three statements for one spec (whose text has `digest`) and one page of user ids. */
function pageStatements(
  ctx: FanOutContext,
  spec: NotificationSpec,
  digest: string,
  userIds: readonly string[],
): D1PreparedStatement[] {
  const seconds = Math.floor(ctx.now / 1000)
  const ids = JSON.stringify(userIds)
  const allowed = (c: Channel) => flag(spec.channels[c] && ctx.enabled[c])
  const key = [ids, spec.contestId, spec.type, spec.dedupeKey] as const
  return [
    keepContent(ctx.d1, spec, digest, ctx.now),
    ctx.d1
      .prepare(INSERT_NOTIFICATIONS_SQL)
      .bind(
        seconds,
        spec.contestId,
        spec.type,
        digest,
        spec.dedupeKey,
        spec.scheduledAt ?? null,
        ctx.now + ctx.ttlMs,
        ctx.now,
        ids,
        ...CHANNELS.map(allowed),
      ),
    ctx.d1
      .prepare(INSERT_DELIVERIES_SQL)
      .bind(seconds, ctx.now, ...key, ctx.queuedOnCreate ? ctx.now : null),
  ]
}

/**
 * Creates the notifications of every group (a spec and its users) in one D1 batch, so a page is
 * written whole or not at all, and returns the deliveries to enqueue.
 */
export async function createNotifications(
  ctx: FanOutContext,
  groups: readonly { spec: NotificationSpec; userIds: readonly string[] }[],
): Promise<PageResult> {
  const toQueueByGroup = groups.map((): QueuedDelivery[] => [])
  const live = [...groups.keys()].filter((i) => groups[i].userIds.length > 0)
  if (live.length === 0) return { created: 0, toQueue: [], toQueueByGroup }
  const digests = await Promise.all(live.map((i) => contentDigest(groups[i].spec)))
  const results = await ctx.d1.batch<QueuedDelivery>(
    live.flatMap((i, k) => pageStatements(ctx, groups[i].spec, digests[k], groups[i].userIds)),
  )
  let created = 0
  for (const [k, i] of live.entries()) {
    created += results[3 * k + 1].meta.changes
    toQueueByGroup[i] = results[3 * k + 2].results
  }
  return { created, toQueue: toQueueByGroup.flat(), toQueueByGroup }
}
