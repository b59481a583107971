// Digests that carry the account's own results have words of their own (each account's results
// differ), so they are not grouped by their list of contests as the others are: they point at one
// content of the (frequency, date), each row keeping its own words beside it (as the result
// alerts do), and are written with their deliveries in one D1 batch, the digests bound as JSON
// (chunked), never a statement per account.
import type { DigestResultRow } from '../../results/digest-results.ts'
import { DIGEST_KEY_SQL } from '../../db/schema.ts'
import { CHANNELS } from '../../channels/registry.ts'
import { joinUserSql, REACHABLE_ON_SQL } from '../../users/recipients.ts'
import { contentKey, keepContent } from '../contents.ts'
import type { DigestResult } from '../kinds/digest.ts'
import { resultEntry } from '../kinds/result.ts'
import type { NotificationSpec } from '../spec.ts'
import type { FanOutContext, QueuedDelivery } from './fan-out.ts'
import { pageIdSql, randomHex } from './fan-out.ts'

/** Characters of one statement's digests (?1) at most, below D1's 2 MB a string. */
export const DIGEST_CHARS_PER_STATEMENT = 1_000_000

/** A stored result as the digest carries it, with the judge's titles. */
export function digestResult(row: DigestResultRow): DigestResult {
  const url = row.websiteUrl ?? undefined
  return {
    contestId: row.contestId,
    contestName: row.contestName,
    platform: row.platform,
    rated: row.rated === 1,
    participants: row.participants,
    ...resultEntry(row.platform, { ...row, toldDelta: null }),
    ...(url && { url }),
  }
}

/** ?1 the digests [user id, title, message, payload]; ?2 the content's digest. */
const DIGESTS_CTE = `WITH a AS MATERIALIZED (SELECT j.key AS k, j.value ->> 0 AS user_id,
    j.value ->> 1 AS title, j.value ->> 2 AS message, j.value ->> 3 AS payload FROM json_each(?1) j),
  k AS MATERIALIZED (SELECT id FROM notification_contents WHERE digest = ?2)`

/** ?3 seconds, ?4 random bytes, ?5 dedupe key, ?6 scheduled at, ?7 expiry, ?8 now. Email only. */
const INSERT_DIGESTS_SQL = `${DIGESTS_CTE}
INSERT INTO notifications (id, user_id, contest_id, type, title, message, payload, content_id,
    channels, status, dedupe_key, scheduled_at, is_read, expires_at, created_at, updated_at)
  SELECT ${pageIdSql('?3', '?4', 'a.k')}, u.id, NULL, 'CONTEST_REMINDER', a.title, a.message,
    a.payload, k.id, '["email"]', 'PENDING', ?5, ?6, 0, ?7, ?8, ?8
  FROM a CROSS JOIN k ${joinUserSql('a.user_id')}
  WHERE ${REACHABLE_ON_SQL.email}
  ON CONFLICT (user_id, type, dedupe_key) WHERE ${DIGEST_KEY_SQL} DO NOTHING`

/** The email deliveries of the statement's digests; RETURNING gives only those made now. */
const INSERT_DELIVERIES_SQL = `${DIGESTS_CTE}
INSERT INTO notification_deliveries (id, notification_id, channel, status, retry_count, attempts,
    queued_at, created_at, updated_at)
  SELECT ${pageIdSql('?3', '?4', `a.k * ${CHANNELS.length}`)}, n.id, 'email', 'PENDING', 0, 0,
    NULL, ?8, ?8
  FROM a CROSS JOIN k CROSS JOIN notifications n ON n.user_id = a.user_id
      AND n.type = 'CONTEST_REMINDER' AND n.dedupe_key = ?5 AND n.contest_id IS NULL
      AND n.content_id = k.id
  WHERE ?7 IS NOT NULL
  ON CONFLICT (notification_id, channel) DO NOTHING
  RETURNING id, channel`

type Bound = [userId: string, title: string, message: string, payload: string]

function chunks(rows: readonly Bound[], maxChars: number): string[] {
  const out: string[] = []
  let current: string[] = []
  let chars = 2
  for (const row of rows) {
    const text = JSON.stringify(row)
    if (current.length > 0 && chars + text.length + 1 > maxChars) {
      out.push(`[${current.join(',')}]`)
      current = []
      chars = 2
    }
    current.push(text)
    chars += text.length + 1
  }
  if (current.length > 0) out.push(`[${current.join(',')}]`)
  return out
}

/**
 * Creates the digests of `personal` (each account's spec, all of one frequency and date) and
 * their email deliveries: the shared content (`base`: the digest's words without contests or
 * results), then per chunk one statement of notifications and one of deliveries. The digest's
 * unique (user, type, dedupe key) makes a second run add nothing.
 */
export async function createPersonalDigests(
  ctx: FanOutContext,
  base: NotificationSpec,
  personal: readonly { userId: string; spec: NotificationSpec }[],
  { charsPerStatement = DIGEST_CHARS_PER_STATEMENT } = {},
): Promise<{ created: number; toQueue: QueuedDelivery[] }> {
  if (personal.length === 0 || !ctx.enabled.email) return { created: 0, toQueue: [] }
  const key = await contentKey(base)
  if (!('digest' in key)) throw new Error('a digest content is keyed by its words')
  const bound: Bound[] = personal.map(({ userId, spec }) => [
    userId,
    spec.title,
    spec.message,
    JSON.stringify(spec.payload),
  ])
  const seconds = Math.floor(ctx.now / 1000)
  const statements: D1PreparedStatement[] = [keepContent(ctx.d1, base, key, ctx.now)]
  for (const chunk of chunks(bound, charsPerStatement)) {
    const binds = [
      chunk,
      key.digest,
      seconds,
      randomHex(5),
      base.dedupeKey,
      base.scheduledAt ?? null,
      ctx.now + ctx.ttlMs,
      ctx.now,
    ]
    statements.push(
      ctx.d1.prepare(INSERT_DIGESTS_SQL).bind(...binds),
      ctx.d1.prepare(INSERT_DELIVERIES_SQL).bind(...binds),
    )
  }
  const results = await ctx.d1.batch<QueuedDelivery>(statements)
  let created = 0
  const toQueue: QueuedDelivery[] = []
  for (let i = 1; i < results.length; i += 2) {
    created += results[i].meta.changes
    toQueue.push(...results[i + 1].results)
  }
  return { created, toQueue }
}
