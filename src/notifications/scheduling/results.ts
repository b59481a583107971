// The result alerts of a contest whose results were just stored (results/ calls this through the
// hook the jobs wire): each account's personal alert about its proven handles, and the friends'
// summary of those who turned it on, made set-based. One read of the rows to tell (joined to the
// handles, the users and their preferences in SQL), the words written by the kinds, then one D1
// batch: the contents, the notifications and deliveries of every account bound as JSON (chunked),
// and the rows marked told, so a retry finds nothing left or everything still to do. The unique
// (contest, user, content) key makes a concurrent or repeated run add nothing; a re-calculation
// has a content of its own (its digest), so a changed delta is told once more.
import { CHANNELS, type Channel } from '../../channels/registry.ts'
import type { ContestRow } from '../../db/schema.ts'
import { DAY_MS } from '../../lib/time.ts'
import {
  DUE_FRIENDS_RESULTS_FROM,
  FRIENDS_DUE_CTE,
  MARK_TOLD_SQL,
  resultsToTellFrom,
  TAKES_FRIEND_RESULTS_SQL,
  TAKES_OWN_RESULTS_SQL,
  UNTOLD_SQL,
} from '../../results/handles-sql.ts'
import { TAKES_DIGEST_SQL } from '../../users/audiences.ts'
import { joinUserSql, LIVE_RECIPIENT_SQL, REACHABLE_ON_SQL } from '../../users/recipients.ts'
import type { Notifier } from '../context.ts'
import { contentKey, keepContent } from '../contents.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { FRIENDS_RESULTS_KIND, friendsAlert } from '../kinds/friends-results.ts'
import {
  RESULT_KIND,
  resultContentSpec,
  resultAlert,
  resultEntry,
  type ContestFacts,
  type ResultLine,
} from '../kinds/result.ts'
import { pageIdSql, randomHex } from './fan-out.ts'

/** Characters of one statement's alerts (?1) at most, below D1's 2 MB a string. */
export const ALERT_CHARS_PER_STATEMENT = 1_000_000

const LINE_COLUMNS = `h.user_id AS userId, r.handle, r.rank, r.solved, r.old_rating AS oldRating,
  r.new_rating AS newRating, r.told_delta AS toldDelta`

/**
 * Own proven handles of the contest (?1) with a delta not told, of accounts that take them. While
 * digests go out (email is enabled), an account that takes one gets its results there instead
 * (scheduling/digests.ts), so it is left out here; its rows are marked told all the same.
 */
export const ownToTellSql = (digestsCarryResults: boolean) => `SELECT ${LINE_COLUMNS}
  FROM ${resultsToTellFrom('OWN')} ${joinUserSql('h.user_id')}
  WHERE r.contest_id = ?1 AND ${UNTOLD_SQL} AND ${LIVE_RECIPIENT_SQL} AND ${TAKES_OWN_RESULTS_SQL}
    ${digestsCarryResults ? `AND NOT ${TAKES_DIGEST_SQL}` : ''}
  ORDER BY h.user_id, r.handle_key`

/**
 * Every friend's result of the contest (?1) for the accounts that take the summary and follow a
 * handle whose delta is not told: a summary lists all their friends who took part.
 */
export const FRIENDS_TO_TELL_SQL = `WITH ${FRIENDS_DUE_CTE}
SELECT ${LINE_COLUMNS}
  FROM ${DUE_FRIENDS_RESULTS_FROM} ${joinUserSql('due.user_id')}
  WHERE ${LIVE_RECIPIENT_SQL} AND ${TAKES_FRIEND_RESULTS_SQL}
  ORDER BY h.user_id, r.rank`

/** The enabled channels a user turned on and can be reached on, as a JSON array. */
const channelsSql = (enabled: readonly Channel[]) =>
  enabled.length === 0
    ? `'[]'`
    : `'[' || trim(${enabled
        .map((c) => `(CASE WHEN ${REACHABLE_ON_SQL[c]} THEN '"${c}",' ELSE '' END)`)
        .join(' || ')}, ',') || ']'`

/** ?1 the alerts [user id, title, message, payload]; ?2 contest; ?3..?5 the content's key. */
const ALERTS_CTE = `WITH a AS MATERIALIZED (SELECT j.key AS k, j.value ->> 0 AS user_id,
    j.value ->> 1 AS title, j.value ->> 2 AS message, j.value ->> 3 AS payload FROM json_each(?1) j),
  k AS MATERIALIZED (SELECT id FROM notification_contents
    WHERE contest_id = ?3 AND type = ?4 AND dedupe_key = ?5)`

/** ?6 seconds, ?7 random bytes, ?8 expiry, ?9 now. */
const insertAlertsSql = (enabled: readonly Channel[]) => `${ALERTS_CTE}
INSERT INTO notifications (id, user_id, contest_id, type, title, message, payload, content_id,
    channels, status, dedupe_key, scheduled_at, is_read, expires_at, created_at, updated_at)
  SELECT ${pageIdSql('?6', '?7', 'x.k')}, x.user_id, ?2, ?4, x.title, x.message, x.payload, x.cid,
    x.channels, 'PENDING', '', NULL, 0, ?8, ?9, ?9
  FROM (SELECT a.k, u.id AS user_id, a.title, a.message, a.payload, k.id AS cid,
      ${channelsSql(enabled)} AS channels
    FROM a CROSS JOIN k ${joinUserSql('a.user_id')}) x
  WHERE x.channels <> '[]'
  ON CONFLICT (contest_id, user_id, content_id) DO NOTHING`

/** The deliveries of the statement's alerts; RETURNING gives only those this run made. */
const INSERT_DELIVERIES_SQL = `${ALERTS_CTE}
INSERT INTO notification_deliveries (id, notification_id, channel, status, retry_count, attempts,
    queued_at, created_at, updated_at)
  SELECT ${pageIdSql('?6', '?7', `a.k * ${CHANNELS.length} + c.key`)}, n.id, c.value, 'PENDING',
    0, 0, NULL, ?9, ?9
  FROM a CROSS JOIN k CROSS JOIN notifications n ON n.contest_id = ?2 AND n.user_id = a.user_id
      AND n.content_id = k.id
    JOIN json_each(n.channels) c
  WHERE ?8 IS NOT NULL
  ON CONFLICT (notification_id, channel) DO NOTHING
  RETURNING id, channel`

interface LineRow extends ResultLine {
  userId: string
}

type Alert = [userId: string, title: string, message: string, payload: string]

/** Rows of one user after another, grouped by user (the read orders them so). */
function byUser(rows: readonly LineRow[]) {
  const users = new Map<string, LineRow[]>()
  for (const row of rows) {
    const list = users.get(row.userId)
    if (list) list.push(row)
    else users.set(row.userId, [row])
  }
  return users
}

/** The alerts cut into JSON arrays of at most `maxChars` characters. */
function alertChunks(alerts: readonly Alert[], maxChars: number): string[] {
  const chunks: string[] = []
  let current: string[] = []
  let chars = 2
  for (const alert of alerts) {
    const text = JSON.stringify(alert)
    if (current.length > 0 && chars + text.length + 1 > maxChars) {
      chunks.push(`[${current.join(',')}]`)
      current = []
      chars = 2
    }
    current.push(text)
    chars += text.length + 1
  }
  if (current.length > 0) chunks.push(`[${current.join(',')}]`)
  return chunks
}

export interface ResultAlertsInput {
  contest: ContestRow
  rated: boolean
  participants: number | null
  /** Tells this publication's alerts from an earlier one's (results_digest). */
  digest: string
  /** A re-check, not the first publication. */
  recheck: boolean
  now: number
}

/**
 * Creates the personal alerts and friends' summaries of the contest's rows not told yet, and
 * enqueues their deliveries; answers the counts. Statements: two reads, then one batch of two
 * contents, two per chunk of alerts, and the told mark.
 */
export async function createResultAlerts(
  n: Notifier,
  input: ResultAlertsInput,
  { charsPerStatement = ALERT_CHARS_PER_STATEMENT } = {},
) {
  const { contest, now } = input
  const [own, friends] = await n.d1.batch<LineRow>([
    n.d1.prepare(ownToTellSql(n.enabled.email)).bind(contest.id),
    n.d1.prepare(FRIENDS_TO_TELL_SQL).bind(contest.id, contest.platform),
  ])
  const facts = (recalculated: boolean): ContestFacts => ({
    contest,
    rated: input.rated,
    participants: input.participants,
    recalculated,
  })
  const ownAlerts: Alert[] = [...byUser(own.results)].map(([userId, lines]) => {
    const entries = lines.map((line) => resultEntry(contest.platform, line))
    const recalculated = input.recheck && lines.some((l) => l.toldDelta !== null)
    const { title, message, payload } = resultAlert(facts(recalculated), entries)
    return [userId, title, message, JSON.stringify(payload)]
  })
  const friendAlerts: Alert[] = [...byUser(friends.results)].map(([userId, lines]) => {
    const entries = lines.map((line) => resultEntry(contest.platform, line))
    const { title, message, payload } = friendsAlert(facts(input.recheck), entries)
    return [userId, title, message, JSON.stringify(payload)]
  })
  const enabled = CHANNELS.filter((c) => n.enabled[c])
  const seconds = Math.floor(now / 1000)
  const expires = now + n.settings.NOTIFICATION_TTL_DAYS * DAY_MS
  const statements: D1PreparedStatement[] = []
  const kinds = [
    { kind: RESULT_KIND, alerts: ownAlerts },
    { kind: FRIENDS_RESULTS_KIND, alerts: friendAlerts },
  ]
  const inserts: { first: number; count: number }[] = []
  for (const { kind, alerts } of kinds) {
    if (alerts.length === 0) continue
    const spec = resultContentSpec(facts(input.recheck), kind, input.digest)
    const key = await contentKey(spec)
    statements.push(keepContent(n.d1, spec, key, now))
    for (const chunk of alertChunks(alerts, charsPerStatement)) {
      const binds = [
        chunk,
        contest.id,
        contest.id,
        spec.type,
        spec.dedupeKey,
        seconds,
        randomHex(5),
      ]
      inserts.push({ first: statements.length, count: 2 })
      statements.push(
        n.d1.prepare(insertAlertsSql(enabled)).bind(...binds, expires, now),
        n.d1.prepare(INSERT_DELIVERIES_SQL).bind(...binds, expires, now),
      )
    }
  }
  statements.push(n.d1.prepare(MARK_TOLD_SQL).bind(contest.id))
  const results = await n.d1.batch<{ id: string; channel: Channel }>(statements)
  let created = 0
  const deliveries: { id: string; channel: Channel }[] = []
  for (const { first } of inserts) {
    created += results[first].meta.changes
    deliveries.push(...results[first + 1].results)
  }
  const queued = await enqueueNotificationDeliveries(n.queue, n.d1, deliveries, now)
  return {
    personalAlerts: ownAlerts.length,
    friendSummaries: friendAlerts.length,
    created,
    queued,
  }
}
