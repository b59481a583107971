// Creates notifications for a page of users in SQL: one notification per user and one delivery per
// channel the user can be reached on, in one transaction that returns the deliveries to enqueue.
import { CHANNELS, type Channel } from '../../channels/registry.ts'
import { DIGEST_KEY_SQL } from '../../db/schema.ts'
import { toHex } from '../../lib/crypto.ts'
import { DAY_MS } from '../../lib/time.ts'
import { joinUserSql, REACHABLE_ON_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import {
  contentIdSql,
  contentKey,
  contentParams,
  contentSql,
  keepContent,
  rowDedupeKey,
  type ContentKey,
} from '../contents.ts'
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

/**
 * The ids of a page, in the shape of lib/ids (24 lowercase hex characters, the second first):
 * the second, 5 random bytes drawn once for the statement, then the row's position in 3 bytes.
 * A page's rows so sort together and are written into one stretch of every index keyed by them
 * (with 8 random bytes each, every row went to a random leaf: three times the time per page).
 * The conflict clauses name the unique keys, so two pages that drew the same bytes in the same
 * second fail and are made again rather than skipped.
 */
const pageIdSql = (secondsParam: string, randomParam: string, position: string) =>
  `printf('%08x', ${secondsParam}) || ${randomParam} || printf('%06x', ${position})`
const randomHex = (bytes: number) => toHex(crypto.getRandomValues(new Uint8Array(bytes)))
// A position takes 3 bytes, and a delivery's is its user's times the channels, plus its channel's.
const MAX_PAGE_USERS = Math.floor(0x1000000 / CHANNELS.length)

// The user's channels as a JSON array: the channel is allowed here (?12 onwards, in CHANNELS'
// order), the user turned it on, and the user can be reached on it (a verified phone number, a
// push subscription, a linked Telegram chat, a Discord webhook).
const CHANNELS_SQL = `'[' || trim(
    ${CHANNELS.map(
      (c, i) => `(CASE WHEN ?${12 + i} AND ${REACHABLE_ON_SQL[c]} THEN '"${c}",' ELSE '' END)`,
    ).join(' ||\n    ')}, ',') || ']'`
// The ids' random bytes come after the channels' parameters, the content's after them.
const RANDOM_PARAM = 12 + CHANNELS.length
const CONTENT_PARAM = RANDOM_PARAM + 1

// A row keeps its own words only where they differ from its content's (contents.ts).
const insertNotificationsSql = (key: ContentKey) => `INSERT INTO notifications (id, user_id,
    contest_id, type, title, message, payload, content_id, channels, status, dedupe_key,
    scheduled_at, is_read, expires_at, created_at, updated_at)
  SELECT ${pageIdSql('?1', `?${RANDOM_PARAM}`, 'r.position')}, r.id, ?2, ?3,
    CASE WHEN k.title = ?4 THEN '' ELSE ?4 END,
    CASE WHEN k.message = ?5 THEN '' ELSE ?5 END, CASE WHEN k.payload = ?6 THEN NULL ELSE ?6 END,
    k.id, r.channels, 'PENDING', ?7, ?8, 0, ?9, ?10, ?10
  FROM ${contentSql(key, CONTENT_PARAM)} k CROSS JOIN (SELECT u.id AS id, j.key AS position,
      ${CHANNELS_SQL} AS channels
    FROM json_each(?11) j ${joinUserSql('j.value')}) r
  WHERE r.channels <> '[]'
  ON CONFLICT (contest_id, user_id, content_id) DO NOTHING
  ON CONFLICT (user_id, type, dedupe_key) WHERE ${DIGEST_KEY_SQL} DO NOTHING`

/**
 * The page's notifications of one content, through the (contest, user, content) key. CROSS JOIN
 * makes SQLite walk the page's user ids and look each up by that key; left to itself it scans
 * every notification of the contest once per page, which grows with the audience.
 */
const pageNotifications = (key: ContentKey) => `json_each(?3) j
  CROSS JOIN notifications n ON n.contest_id IS ?4 AND n.user_id = j.value
    AND n.content_id = ${contentIdSql(key, 7)}`

// RETURNING gives only the rows inserted: a delivery another run made first is that run's to
// enqueue, or the sweep's if it died before (enqueue.ts).
const insertDeliveriesSql = (key: ContentKey) => `INSERT INTO notification_deliveries (id,
    notification_id, channel, status, retry_count, attempts, queued_at, created_at, updated_at)
  SELECT ${pageIdSql('?1', '?6', `j.key * ${CHANNELS.length} + c.key`)}, n.id, c.value,
    'PENDING', 0, 0, ?5, ?2, ?2
  FROM ${pageNotifications(key)} JOIN json_each(n.channels) c
  WHERE 1
  ON CONFLICT (notification_id, channel) DO NOTHING
  RETURNING id, channel`

const flag = (on: boolean) => (on ? 1 : 0)

/** The three statements for one spec (its content found by `key`) and one page of user ids. */
function pageStatements(
  ctx: FanOutContext,
  spec: NotificationSpec,
  key: ContentKey,
  userIds: readonly string[],
): D1PreparedStatement[] {
  const seconds = Math.floor(ctx.now / 1000)
  const ids = JSON.stringify(userIds)
  const allowed = (c: Channel) => flag(spec.channels[c] && ctx.enabled[c])
  return [
    keepContent(ctx.d1, spec, key, ctx.now),
    ctx.d1
      .prepare(insertNotificationsSql(key))
      .bind(
        seconds,
        spec.contestId,
        spec.type,
        spec.title,
        spec.message,
        JSON.stringify(spec.payload),
        rowDedupeKey(key, spec),
        spec.scheduledAt ?? null,
        ctx.now + ctx.ttlMs,
        ctx.now,
        ids,
        ...CHANNELS.map(allowed),
        randomHex(5),
        ...contentParams(key),
      ),
    ctx.d1
      .prepare(insertDeliveriesSql(key))
      .bind(
        seconds,
        ctx.now,
        ids,
        spec.contestId,
        ctx.queuedOnCreate ? ctx.now : null,
        randomHex(5),
        ...contentParams(key),
      ),
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
  if (live.some((i) => groups[i].userIds.length > MAX_PAGE_USERS)) {
    throw new Error(`A page holds at most ${MAX_PAGE_USERS} users`)
  }
  const keys = await Promise.all(live.map((i) => contentKey(groups[i].spec)))
  const results = await ctx.d1.batch<QueuedDelivery>(
    live.flatMap((i, k) => pageStatements(ctx, groups[i].spec, keys[k], groups[i].userIds)),
  )
  let created = 0
  for (const [k, i] of live.entries()) {
    created += results[3 * k + 1].meta.changes
    toQueueByGroup[i] = results[3 * k + 2].results
  }
  return { created, toQueue: toQueueByGroup.flat(), toQueueByGroup }
}
