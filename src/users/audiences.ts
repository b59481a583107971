// The users notifications go to, read for the notifier: whether requested users can get an email,
// keyset pages of an announcement's audience and of one time zone's digest audience, the zones
// that take digests, and the one recipient a send is for.
import { sql, type SQLWrapper } from 'drizzle-orm'
import type { DestinationField } from '../channels/define.ts'
import { CHANNEL_MODULES, perChannel } from '../channels/registry.ts'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { LIVE_USER_SQL } from './live.ts'
import type { AlertFrequency } from './preferences.ts'
import { followsAnyPlatformSql, LIVE_RECIPIENT_SQL } from './recipients.ts'

/** The alert frequencies that gather contests into a digest. */
type DigestAlertFrequency = Exclude<AlertFrequency, 'immediate'>

/** A requested id and the account state that decides whether it can be emailed. */
export interface EmailEligibility {
  id: string
  found: string | null
  isActive: number | null
  verified: number | null
  deleted: number | null
  notifyEmail: number | null
}

// The requested ids bound as one JSON array (D1 allows 100 parameters; a request may name 1000).
const ELIGIBILITY_SQL = `SELECT j.value AS id, u.id AS found, u.is_active AS isActive,
    u.email_verified_at IS NOT NULL AS verified, u.deleted_at IS NOT NULL AS deleted,
    u.notify_email AS notifyEmail
  FROM json_each(?1) j LEFT JOIN users u ON u.id = j.value`

/** One row per requested id, found or not. */
export async function emailEligibility(
  db: Db,
  userIds: readonly string[],
): Promise<EmailEligibility[]> {
  const { results } = await db.$client
    .prepare(ELIGIBILITY_SQL)
    .bind(JSON.stringify(userIds))
    .all<EmailEligibility>()
  return results
}

// Live, verified users accepting email, with the requested account state, following one of the
// requested platforms when any are given. Keyset-paged by id over the primary key.
const EMAIL_AUDIENCE_SQL = `SELECT u.id AS id FROM users u
  WHERE u.id > ?1 AND ${LIVE_USER_SQL} AND u.email_verified_at IS NOT NULL
    AND u.is_active = ?2 AND u.notify_email = 1
    AND (?3 IS NULL OR ${followsAnyPlatformSql('?3')})
  ORDER BY u.id LIMIT ?4`

export interface EmailAudiencePage {
  /** Ids above this one (the last of the previous page; '' for the first). */
  after: string
  /** Active accounts, or deactivated ones. */
  active: boolean
  /** Followers of one of these platforms only; everyone when undefined. */
  platforms?: readonly string[]
  limit: number
}

export async function pageEmailAudience(db: Db, page: EmailAudiencePage): Promise<string[]> {
  const platforms = page.platforms ? JSON.stringify(page.platforms) : null
  const { results } = await db.$client
    .prepare(EMAIL_AUDIENCE_SQL)
    .bind(page.after, page.active ? 1 : 0, platforms, page.limit)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}

export interface DigestRecipient {
  /** The rowid the keyset walk continues after. */
  rid: number
  id: string
  platforms: string[]
  contestTypes: string[]
  filters: { minDuration: number | null; maxDuration: number | null; excludeWords: string[] }
  /** Contests the user follows or muted (contest_subscriptions). */
  followed: string[]
  muted: string[]
}

/**
 * The user `u` takes a digest by email (daily or weekly): its own results wait for the digest
 * instead of coming as alerts of their own (notifications/scheduling/results.ts). The audience
 * read below asks the same of one (frequency, zone) through its index.
 */
export const TAKES_DIGEST_SQL = `(u.alert_frequency IN ('daily', 'weekly') AND u.notify_email = 1)`

const chosenSql = (mode: string) => `(SELECT json_group_array(cs.contest_id)
    FROM contest_subscriptions cs WHERE cs.user_id = u.id AND cs.mode = '${mode}')`

// Users of one (frequency, time zone), walked through the users_frequency_timezone index, whose
// entries are ordered by rowid within a key: a keyset walk without sorting. Their follows and mutes
// come along through the (user_id, contest_id) key.
const DIGEST_AUDIENCE_SQL = `SELECT u.rowid AS rid, u.id AS id, u.platforms AS platforms,
    u.contest_types AS contestTypes, u.min_duration AS minDuration, u.max_duration AS maxDuration,
    u.exclude_words AS excludeWords, ${chosenSql('follow')} AS followed,
    ${chosenSql('mute')} AS muted
  FROM users u
  WHERE u.alert_frequency = ?1 AND u.timezone = ?2 AND u.rowid > ?3
    AND ${LIVE_RECIPIENT_SQL} AND u.notify_email = 1
  ORDER BY u.rowid LIMIT ?4`

function parseList(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/** Live users taking the digest of `frequency` in `zone` by email, after rowid `after`. */
export async function pageDigestAudience(
  db: Db,
  frequency: DigestAlertFrequency,
  zone: string,
  after: number,
  limit: number,
): Promise<DigestRecipient[]> {
  const { results } = await db.$client
    .prepare(DIGEST_AUDIENCE_SQL)
    .bind(frequency, zone, after, limit)
    .all<{
      rid: number
      id: string
      platforms: string
      contestTypes: string
      minDuration: number | null
      maxDuration: number | null
      excludeWords: string
      followed: string
      muted: string
    }>()
  return results.map((r) => ({
    rid: r.rid,
    id: r.id,
    platforms: parseList(r.platforms),
    contestTypes: parseList(r.contestTypes),
    filters: {
      minDuration: r.minDuration,
      maxDuration: r.maxDuration,
      excludeWords: parseList(r.excludeWords),
    },
    followed: parseList(r.followed),
    muted: parseList(r.muted),
  }))
}

/** The distinct (frequency, zone) pairs that take digests: a small query, from the index alone. */
export async function digestTimeZones(db: Db) {
  const { results } = await db.$client
    .prepare(
      `SELECT DISTINCT alert_frequency AS frequency, timezone AS zone FROM users
        WHERE alert_frequency IN ('daily', 'weekly')`,
    )
    .all<{ frequency: DigestAlertFrequency; zone: string }>()
  return results
}

// The columns a linked chat or a pasted webhook is kept in, read for the sends.
const DESTINATION_COLUMNS = Object.fromEntries(
  CHANNEL_MODULES.flatMap((m) =>
    m.destination.kind === 'linked' || m.destination.kind === 'webhook'
      ? [[m.destination.field, users[m.destination.field]]]
      : [],
  ),
) as Record<DestinationField, typeof users.telegramChatId>

/**
 * The statement reading what sends need of their recipients, each row with its id; `userIds` is
 * a subquery (or a bound list) of ids, so the caller can batch it with the read that names the
 * users. A deleted account is read too (until it is purged), so the send can say why it stops.
 */
export function recipientsQuery(db: Db, userIds: SQLWrapper) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phoneNumber: users.phoneNumber,
      phoneVerifiedNumber: users.phoneVerifiedNumber,
      timezone: users.timezone,
      quietStart: users.quietStart,
      quietEnd: users.quietEnd,
      ...DESTINATION_COLUMNS,
      // Each channel's switch as it is now: one turned off after the delivery was made wins.
      channelsOn: perChannel((m) => users[m.switchField]),
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(sql`${users.id} IN ${userIds}`)
}
