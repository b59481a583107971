// The result alerts of a contest whose results were just stored (results/ calls this through the
// hook the jobs wire): each account's personal alert about its proven handles, and the friends'
// summary of those who turned it on, made set-based in SQL from the stored results joined to the
// handles, the users and their preferences, as the reminders' fan-out is. One D1 batch: the two
// contents (the facts every alert of the publication shares), for each kind its notifications
// (each keeping only its handles' numbers: its words are made when it is read, by
// kinds/result-words.ts) and their deliveries, then the rows marked told, so a retry finds nothing
// left or everything still to do; the deliveries are made marked queued, and a retry queues those
// an earlier run made and never got to the queue (RESUME_SQL). The unique (contest, user, content) key makes a concurrent or
// repeated run add nothing; a re-calculation has a content of its own (its digest), so a changed
// delta is told once more. An account on a daily or weekly digest gets its own results there
// (scheduling/digest-results.ts), not in a personal alert.
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
import { FRIENDS_RESULTS_KIND } from '../kinds/friends-results.ts'
import { contestFacts, RESULT_KIND, resultContentSpec } from '../kinds/result.ts'
import { pageIdSql, randomHex } from './fan-out.ts'

/**
 * Own proven handles of the contest (?1) with a delta not told, of accounts that take them: the
 * FROM and WHERE of the personal alerts, `r` each result, `u` its account. While digests go out
 * (email is enabled), an account that takes one gets its results there instead
 * (scheduling/digests.ts), so it is left out here; its rows are marked told all the same.
 */
const ownToTell = (digestsCarryResults: boolean) => `FROM ${resultsToTellFrom('OWN')}
  ${joinUserSql('h.user_id')}
  WHERE r.contest_id = ?1 AND ${UNTOLD_SQL} AND ${LIVE_RECIPIENT_SQL} AND ${TAKES_OWN_RESULTS_SQL}
    ${digestsCarryResults ? `AND NOT ${TAKES_DIGEST_SQL}` : ''}`

/**
 * Every friend's result of the contest (?1, platform ?2) for the accounts that take the summary
 * and follow a handle whose delta is not told (`due`, FRIENDS_DUE_CTE): a summary lists all their
 * friends who took part.
 */
const FRIENDS_TO_TELL = `FROM ${DUE_FRIENDS_RESULTS_FROM} ${joinUserSql('due.user_id')}
  WHERE ${LIVE_RECIPIENT_SQL} AND ${TAKES_FRIEND_RESULTS_SQL}`

/** The enabled channels a user turned on and can be reached on, as a JSON array. */
const channelsSql = (enabled: readonly Channel[]) =>
  enabled.length === 0
    ? `'[]'`
    : `'[' || trim(${enabled
        .map((c) => `(CASE WHEN ${REACHABLE_ON_SQL[c]} THEN '"${c}",' ELSE '' END)`)
        .join(' || ')}, ',') || ']'`

/**
 * The alerts of one kind, set-based from the stored results, one a user of `told` (its `r` rows
 * grouped by `u`): the row keeps only the numbers of each handle, a JSON array per handle
 * (kinds/result-words.ts StoredLine) with ?7 the kind and ?8 whether this is a re-check, and its
 * words are made when it is read. ?1 contest, ?3 the content's dedupe key, ?4 seconds and ?5
 * random bytes (pageIdSql: the statement's rows are one stretch of the primary key), ?6 expiry,
 * ?9 now. The unique (contest, user, content) key makes a repeated or concurrent run add nothing.
 */
const insertAlertsSql = (told: string, enabled: readonly Channel[], ctes: string[] = []) => `WITH
  ${[
    ...ctes,
    `k AS MATERIALIZED (SELECT id FROM notification_contents
    WHERE contest_id = ?1 AND type = 'CONTEST_RESULT' AND dedupe_key = ?3)`,
  ].join(',\n  ')}
INSERT INTO notifications (id, user_id, contest_id, type, title, message, payload, content_id,
    channels, status, dedupe_key, scheduled_at, is_read, expires_at, created_at, updated_at)
  SELECT ${pageIdSql('?4', '?5', 'x.k')}, x.user_id, ?1, 'CONTEST_RESULT', '', '', x.payload,
    k.id, x.channels, 'PENDING', '', NULL, 0, ?6, ?9, ?9
  FROM (SELECT row_number() OVER (ORDER BY u.id) AS k, u.id AS user_id,
      json_object('kind', ?7, 'recheck', ?8 = 1, 'lines', json(json_group_array(json_array(
        r.handle, r.rank, r.solved, r.old_rating, r.new_rating, r.told_delta)))) AS payload,
      ${channelsSql(enabled)} AS channels
    ${told}
    GROUP BY u.id) x
    CROSS JOIN k
  WHERE x.channels <> '[]'
  ON CONFLICT (contest_id, user_id, content_id) DO NOTHING`

/**
 * The deliveries of the alerts the statement above made: its rows are the stretch of ids that
 * begins with its second and random bytes (?4, ?5), found by the primary key (a row a conflict
 * skipped is not there). ?10 random bytes of the deliveries' ids, ?9 now. RETURNING gives the
 * deliveries to queue. They are made already marked queued, as a fan-out page's are: until the
 * publication's check is recorded, its content stands for them (RESUME_SQL), which spares the
 * stranded sweep's index and an UPDATE of every delivery once the queue took it.
 */
const INSERT_DELIVERIES_SQL = `INSERT INTO notification_deliveries (id, notification_id, channel,
    status, retry_count, attempts, queued_at, created_at, updated_at)
  SELECT ${pageIdSql('?4', '?10', 'x.k')}, x.id, x.channel, 'PENDING', 0, 0, ?9, ?9, ?9
  FROM (SELECT row_number() OVER (ORDER BY n.id, c.key) AS k, n.id, c.value AS channel
    FROM notifications n JOIN json_each(n.channels) c
    WHERE n.id > printf('%08x', ?4) || ?5 AND n.id < printf('%08x', ?4) || ?5 || 'g'
      AND +n.contest_id = ?1) x
  WHERE 1
  ON CONFLICT (notification_id, channel) DO NOTHING
  RETURNING id, channel`

/**
 * The result contents of the contest (?1) that exist already among those with the dedupe keys of
 * the JSON array ?2: read in the batch before they are kept, so a first publication (none) asks
 * nothing more.
 */
const EXISTING_CONTENTS_SQL = `SELECT id FROM notification_contents
  WHERE contest_id = ?1 AND type = 'CONTEST_RESULT' AND dedupe_key IN (SELECT value FROM json_each(?2))`

/**
 * The deliveries of the contest's (?1) alerts of the contents in ?2 that an earlier run made
 * (before ?3) and nothing has touched: the hook failed, or the run died, between the batch and the
 * queue, so the check was not recorded and its message came back. Claimed ones count attempts and
 * held ones (quiet hours) were given back with a later updated_at: both are on their way already.
 * One queued twice is still claimed once. Through the contest-first dedupe key; +status keeps
 * SQLite off the status index.
 */
export const RESUME_SQL = `SELECT d.id AS id, d.channel AS channel
  FROM notifications n CROSS JOIN notification_deliveries d ON d.notification_id = n.id
  WHERE n.contest_id = ?1 AND n.content_id IN (SELECT value FROM json_each(?2))
    AND +d.status = 'PENDING' AND d.attempts = 0 AND d.updated_at = d.created_at
    AND d.created_at < ?3`

/** The friends' summaries' statement (insertAlertsSql) for the enabled channels. */
export const friendsSummariesSql = (enabled: readonly Channel[]) =>
  insertAlertsSql(FRIENDS_TO_TELL, enabled, [FRIENDS_DUE_CTE])

type Delivery = { id: string; channel: Channel }

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
 * enqueues their deliveries; answers the counts. Set-based: one batch of the two contents, for
 * each kind the alerts made in SQL from the stored results and their deliveries, and the told
 * mark, so a retry finds nothing left or everything still to do; no row is read into JavaScript
 * but the deliveries to queue. A publication whose contents exist already (a retry, or a
 * re-check that found the same rows) also queues the deliveries an earlier run left untouched.
 */
export async function createResultAlerts(n: Notifier, input: ResultAlertsInput) {
  const { contest, now } = input
  const facts = contestFacts(contest, input.rated, input.participants)
  const enabled = CHANNELS.filter((c) => n.enabled[c])
  const seconds = Math.floor(now / 1000)
  const expires = now + n.settings.NOTIFICATION_TTL_DAYS * DAY_MS
  const kinds = [
    { kind: RESULT_KIND, sql: insertAlertsSql(ownToTell(n.enabled.email), enabled) },
    { kind: FRIENDS_RESULTS_KIND, sql: friendsSummariesSql(enabled) },
  ]
  const specs = kinds.map(({ kind }) => resultContentSpec(contest, facts, kind, input.digest))
  const keys = JSON.stringify(specs.map((s) => s.dedupeKey))
  const statements = [n.d1.prepare(EXISTING_CONTENTS_SQL).bind(contest.id, keys)]
  for (const spec of specs) statements.push(keepContent(n.d1, spec, await contentKey(spec), now))
  for (const [i, { kind, sql }] of kinds.entries()) {
    const binds = [contest.id, contest.platform, specs[i].dedupeKey, seconds, randomHex(5)]
    statements.push(
      n.d1.prepare(sql).bind(...binds, expires, kind, input.recheck ? 1 : 0, now),
      n.d1.prepare(INSERT_DELIVERIES_SQL).bind(...binds, null, null, null, now, randomHex(5)),
    )
  }
  statements.push(n.d1.prepare(MARK_TOLD_SQL).bind(contest.id))
  const results = await n.d1.batch<Delivery>(statements)
  const [existing, , , own, ownDeliveries, friends, friendDeliveries] = results
  const deliveries = [...ownDeliveries.results, ...friendDeliveries.results]
  if (existing.results.length > 0) {
    const earlier = JSON.stringify(existing.results.map((c) => c.id))
    const resumed = await n.d1.prepare(RESUME_SQL).bind(contest.id, earlier, now).all<Delivery>()
    deliveries.push(...resumed.results)
  }
  const queued = await enqueueNotificationDeliveries(n.queue, n.d1, deliveries, now, {
    markQueued: false,
  })
  return {
    personalAlerts: own.meta.changes,
    friendSummaries: friends.meta.changes,
    created: own.meta.changes + friends.meta.changes,
    queued,
  }
}
