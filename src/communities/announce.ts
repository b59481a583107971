// The announcement step of the half-hourly scheduler: for every live community destination, each
// contest of its platforms (and types, words, length) whose lead time comes within the next period
// gets one announcement row, once whatever runs race (the unique key), queued to go out at its
// moment; a run that died before queueing leaves rows the next run queues.
import { startingContestsSql } from '../contests/coming.ts'
import { normalizedSql } from '../contests/matching.ts'
import type { QueueProducer } from '../ports/queue.ts'
import { MINUTE_MS } from '../lib/time.ts'
import { MAX_LEAD_MINUTES } from './filters.ts'

/** The scheduler's period: what is due before the next run is made now. */
const ANNOUNCE_PERIOD_MS = 30 * MINUTE_MS
// Cloudflare Queues delay a message by at most 12 hours.
const MAX_DELAY_SECONDS = 12 * 60 * 60
// Rows made this long ago and still unqueued were left by a run that died.
const STRANDED_AFTER_MS = 10 * MINUTE_MS

/** The body of an announcement's message on the notifications queue. */
export interface AnnouncementMessage {
  announcementId: string
}

export const isAnnouncementMessage = (body: unknown): body is AnnouncementMessage =>
  typeof (body as AnnouncementMessage | null)?.announcementId === 'string'

// ?1 now, ?2 the end of the period. A lead time whose moment passed more than a period ago is not
// made (a destination that subscribed late gets the next one, not a burst of old ones); the one
// whose moment is now or within the period is, with its due time.
const ANNOUNCE_SQL = `INSERT INTO community_announcements
    (id, destination_id, contest_id, dedupe_key, lead_minutes, due_at, created_at, updated_at)
  SELECT lower(hex(randomblob(12))), d.id, c.id, c.start_time || ':' || lt.value, lt.value,
      max(?1, c.start_time - lt.value * 60000), ?1, ?1
    FROM community_destinations d
    JOIN json_each(d.lead_times) lt
    JOIN (${startingContestsSql('?1', `?2 + ${MAX_LEAD_MINUTES * 60_000}`)}) c
      ON c.platform IN (SELECT value FROM json_each(d.platforms))
    WHERE d.dead_at IS NULL
      AND c.start_time - lt.value * 60000 <= ?2
      AND c.start_time - lt.value * 60000 > ?1 - ${ANNOUNCE_PERIOD_MS}
      AND (d.contest_types = '[]' OR EXISTS (SELECT 1 FROM json_each(d.contest_types) t
        WHERE ${normalizedSql('t.value')} IN (${normalizedSql('c.type')}, ${normalizedSql('c.division')})))
      AND (d.min_duration IS NULL OR c.duration_minutes >= d.min_duration)
      AND NOT EXISTS (SELECT 1 FROM json_each(d.exclude_words) w
        WHERE instr(c.name, lower(w.value)) > 0)
      AND (d.include_words = '[]' OR EXISTS (SELECT 1 FROM json_each(d.include_words) w
        WHERE instr(c.name, lower(w.value)) > 0))
  ON CONFLICT DO NOTHING
  RETURNING id, due_at AS dueAt`

const STRANDED_SQL = `SELECT id, due_at AS dueAt FROM community_announcements
  WHERE queued_at IS NULL AND created_at < ?1 LIMIT 1000`

const MARK_QUEUED_SQL = `UPDATE community_announcements SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

async function enqueue(
  d1: D1Database,
  queue: QueueProducer,
  rows: readonly { id: string; dueAt: number }[],
  now: number,
) {
  for (let i = 0; i < rows.length; i += 100) {
    const page = rows.slice(i, i + 100)
    await queue.sendBatch(
      page.map((r) => ({
        body: { announcementId: r.id } satisfies AnnouncementMessage,
        delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((r.dueAt - now) / 1000))),
      })),
    )
    await d1
      .prepare(MARK_QUEUED_SQL)
      .bind(now, JSON.stringify(page.map((r) => r.id)))
      .run()
  }
}

/** Makes and queues the announcements due within the period; counts for the job's log line. */
export async function announceDue(d1: D1Database, queue: QueueProducer, now: number) {
  const { results: made } = await d1
    .prepare(ANNOUNCE_SQL)
    .bind(now, now + ANNOUNCE_PERIOD_MS)
    .all<{ id: string; dueAt: number }>()
  const { results: stranded } = await d1
    .prepare(STRANDED_SQL)
    .bind(now - STRANDED_AFTER_MS)
    .all<{ id: string; dueAt: number }>()
  await enqueue(d1, queue, [...made, ...stranded], now)
  return { announcementsMade: made.length, announcementsRequeued: stranded.length }
}
