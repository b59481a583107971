// Creates notifications for a page of users in SQL: one notification per user and one delivery per
// channel the user can be reached on, in one transaction that returns the deliveries to enqueue.
import { CHANNELS, type Channel } from '../../channels/registry.ts'
import { DIGEST_KEY_SQL } from '../../db/schema.ts'
import { toHex } from '../../lib/crypto.ts'
import { DAY_MS } from '../../lib/time.ts'
import { joinUserSql, REACHABLE_ON_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import {
  contentIdOfKeySql,
  contentKey,
  contentKeyJson,
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
export const pageIdSql = (secondsParam: string, randomParam: string, position: string) =>
  `printf('%08x', ${secondsParam}) || ${randomParam} || printf('%06x', ${position})`
export const randomHex = (bytes: number) => toHex(crypto.getRandomValues(new Uint8Array(bytes)))

/**
 * Users a statement takes at most, in all its groups: a user id is bound as about 27 bytes of
 * JSON, and D1 takes a string of 2 MB at most. A position takes 3 bytes, and a delivery's is its
 * user's times the channels, plus its channel's: well within.
 */
export const USERS_PER_STATEMENT = 50_000
/** Characters of the groups' JSON (?1) a statement takes at most, below D1's 2 MB a string. */
export const GROUP_CHARS_PER_STATEMENT = 1_000_000

/**
 * The groups of a statement, bound at ?1 as a JSON array (groupJson), read once a statement into
 * `g` with the id and words of each group's content, and where the group's users start in the
 * statement's positions: ?6 holds, for each group, [that start, [its user ids]].
 */
const GROUPS_CTE = `WITH g AS MATERIALIZED (SELECT j.key AS k, j.value ->> 'contestId' AS contest_id,
    j.value ->> 'type' AS type, j.value ->> 'title' AS title, j.value ->> 'message' AS message,
    j.value ->> 'payload' AS payload, j.value ->> 'dedupeKey' AS dedupe_key,
    j.value ->> 'scheduledAt' AS scheduled_at,
    ${CHANNELS.map((c, i) => `j.value -> 'allowed' ->> ${i} AS allow_${c}`).join(', ')},
    k.id AS content_id, k.title AS content_title, k.message AS content_message,
    k.payload AS content_payload, ?6 ->> ('$[' || j.key || '][0]') AS start,
    jsonb_extract(?6, '$[' || j.key || '][1]') AS users
  FROM json_each(?1) j JOIN notification_contents k ON k.id = ${contentIdOfKeySql("(j.value -> 'key')")})`

/**
 * Each group's users in this statement, group after group, `p.value` the user id: the statement
 * walks one group's users in their order and writes that stretch of each index, then the next.
 * `g.users` is binary JSON cut from ?6, which SQLite parses once a statement, not once a group.
 */
const USERS_FROM = `g CROSS JOIN json_each(g.users) p`
/** A user's position in the statement, for its ids (pageIdSql). */
const POSITION_SQL = `(g.start + p.key)`

// The user's channels as a JSON array: the group allows the channel, the user turned it on, and
// the user can be reached on it (a verified phone number, a push subscription, a linked Telegram
// chat, a Discord webhook).
const CHANNELS_SQL = `'[' || trim(
    ${CHANNELS.map(
      (c) => `(CASE WHEN g.allow_${c} AND ${REACHABLE_ON_SQL[c]} THEN '"${c}",' ELSE '' END)`,
    ).join(' ||\n    ')}, ',') || ']'`

// A row keeps its own words only where they differ from its content's (contents.ts).
export const INSERT_NOTIFICATIONS_SQL = `${GROUPS_CTE}
INSERT INTO notifications (id, user_id, contest_id, type, title, message, payload, content_id,
    channels, status, dedupe_key, scheduled_at, is_read, expires_at, created_at, updated_at)
  SELECT ${pageIdSql('?2', '?3', 'r.position')}, r.user_id, r.contest_id, r.type,
    CASE WHEN r.content_title = r.title THEN '' ELSE r.title END,
    CASE WHEN r.content_message = r.message THEN '' ELSE r.message END,
    CASE WHEN r.content_payload = r.payload THEN NULL ELSE r.payload END,
    r.content_id, r.channels, 'PENDING', r.dedupe_key, r.scheduled_at, 0, ?4, ?5, ?5
  FROM (SELECT ${POSITION_SQL} AS position, u.id AS user_id, g.*, ${CHANNELS_SQL} AS channels
    FROM ${USERS_FROM} ${joinUserSql('p.value')}) r
  WHERE r.channels <> '[]'
  ON CONFLICT (contest_id, user_id, content_id) DO NOTHING
  ON CONFLICT (user_id, type, dedupe_key) WHERE ${DIGEST_KEY_SQL} DO NOTHING`

/**
 * The deliveries of the statement's notifications, found through the (contest, user, content)
 * key; CROSS JOIN keeps SQLite walking the users and looking each up by that key. RETURNING
 * gives only the rows inserted: a delivery another run made first is that run's to enqueue, or
 * the sweep's if it died before (enqueue.ts).
 */
export const INSERT_DELIVERIES_SQL = `${GROUPS_CTE}
INSERT INTO notification_deliveries (id, notification_id, channel, status, retry_count, attempts,
    queued_at, created_at, updated_at)
  SELECT ${pageIdSql('?2', '?3', `${POSITION_SQL} * ${CHANNELS.length} + c.key`)}, n.id,
    c.value, 'PENDING', 0, 0, ?4, ?5, ?5
  FROM ${USERS_FROM}
    CROSS JOIN notifications n ON n.contest_id IS g.contest_id AND n.user_id = p.value
      AND n.content_id = g.content_id
    JOIN json_each(n.channels) c
  WHERE 1
  ON CONFLICT (notification_id, channel) DO NOTHING
  RETURNING id, channel`

const flag = (on: boolean) => (on ? 1 : 0)

/** A group as its element of ?1 (GROUPS_CTE). */
const groupJson = (ctx: FanOutContext, spec: NotificationSpec, key: ContentKey) => ({
  key: contentKeyJson(key),
  contestId: spec.contestId,
  type: spec.type,
  title: spec.title,
  message: spec.message,
  payload: JSON.stringify(spec.payload),
  dedupeKey: rowDedupeKey(key, spec),
  scheduledAt: spec.scheduledAt ?? null,
  allowed: CHANNELS.map((c) => flag(spec.channels[c] && ctx.enabled[c])),
})

/**
 * One statement's share of a page: the groups it writes (their indexes in the page), and for each
 * of them where its users start in the statement's positions and their ids (?6).
 */
interface Statement {
  groups: number[]
  users: [start: number, userIds: readonly string[]][]
  /** Characters of the groups' JSON (?1) so far. */
  chars: number
}

/** How much a statement takes at most (USERS_PER_STATEMENT, GROUP_CHARS_PER_STATEMENT). */
interface StatementLimits {
  usersPerStatement?: number
  groupCharsPerStatement?: number
}

/**
 * The groups' users cut into statements, group after group: a statement takes at most so many
 * users, and groups of so many characters of JSON (both are bound as strings, which D1 takes up
 * to 2 MB), so a page of many groups with long words (digests) is cut too.
 */
function statementsOf(
  groups: readonly { userIds: readonly string[] }[],
  encoded: readonly string[],
  {
    usersPerStatement: maxUsers = USERS_PER_STATEMENT,
    groupCharsPerStatement: maxChars = GROUP_CHARS_PER_STATEMENT,
  }: StatementLimits,
) {
  const statements: Statement[] = []
  let current: Statement = { groups: [], users: [], chars: 0 }
  let used = 0
  const close = () => {
    statements.push(current)
    current = { groups: [], users: [], chars: 0 }
    used = 0
  }
  for (const [i, { userIds }] of groups.entries()) {
    for (let from = 0; from < userIds.length;) {
      const full = current.chars + encoded[i].length > maxChars
      if (used === maxUsers || (full && current.groups.length > 0)) close()
      const to = Math.min(userIds.length, from + maxUsers - used)
      current.groups.push(i)
      current.users.push([used, userIds.slice(from, to)])
      current.chars += encoded[i].length + 1
      used += to - from
      from = to
    }
  }
  if (used > 0) close()
  return statements
}

/**
 * Creates the notifications of every group (a spec and its users) in one D1 batch, so a page is
 * written whole or not at all, and returns the deliveries to enqueue. The batch keeps each group's
 * content, then inserts the notifications of all groups in one statement and their deliveries in
 * another (statementsOf cuts a large page into several): a statement of a batch first copies each
 * page of the database it changes to a statement journal, so one statement for all groups copies
 * a page once, not once a group.
 */
export async function createNotifications(
  ctx: FanOutContext,
  groups: readonly { spec: NotificationSpec; userIds: readonly string[] }[],
  limits: StatementLimits = {},
): Promise<PageResult> {
  const toQueueByGroup = groups.map((): QueuedDelivery[] => [])
  const kept = [...groups.keys()].filter((i) => groups[i].userIds.length > 0)
  if (kept.length === 0) return { created: 0, toQueue: [], toQueueByGroup }
  const keys = await Promise.all(groups.map(({ spec }) => contentKey(spec)))
  const encoded = groups.map(({ spec }, i) => JSON.stringify(groupJson(ctx, spec, keys[i])))
  const statements = statementsOf(groups, encoded, limits)
  const seconds = Math.floor(ctx.now / 1000)
  const insert = (sql: string, statement: Statement, at: number | null) =>
    ctx.d1
      .prepare(sql)
      .bind(
        `[${statement.groups.map((i) => encoded[i]).join(',')}]`,
        seconds,
        randomHex(5),
        at,
        ctx.now,
        JSON.stringify(statement.users),
      )
  const results = await ctx.d1.batch<QueuedDelivery>([
    ...kept.map((i) => keepContent(ctx.d1, groups[i].spec, keys[i], ctx.now)),
    ...statements.flatMap((statement) => [
      insert(INSERT_NOTIFICATIONS_SQL, statement, ctx.now + ctx.ttlMs),
      insert(INSERT_DELIVERIES_SQL, statement, ctx.queuedOnCreate ? ctx.now : null),
    ]),
  ])
  let created = 0
  for (const [s, statement] of statements.entries()) {
    const [notified, delivered] = results.slice(kept.length + 2 * s)
    created += notified.meta.changes
    const groupAt = statement.users.flatMap(([, userIds], k) =>
      userIds.map(() => statement.groups[k]),
    )
    for (const delivery of delivered.results) {
      // A delivery's id ends with its user's position times the channels, plus its channel's.
      const position = Math.floor(parseInt(delivery.id.slice(-6), 16) / CHANNELS.length)
      toQueueByGroup[groupAt[position]].push(delivery)
    }
  }
  return { created, toQueue: toQueueByGroup.flat(), toQueueByGroup }
}
