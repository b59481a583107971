// How deliveries fare, per channel, read set-based from the deliveries' own outcomes: the 24
// hours /status shows (sent, retried, failed, and the median and 95th percentile of the delay
// from a reminder's due time to its send) and the hour the watchdog judges. Each status's rows
// are read newest first up to a bound through the (status, updated_at) index, so one read costs
// at most a known number of rows however busy the day was.
import { CHANNELS, type Channel } from '../../channels/registry.ts'
import { HOUR_MS } from '../../lib/time.ts'

export const STATS_WINDOW_MS = 24 * HOUR_MS
/** Rows read per status for /status: the counts say "at least" past it, the delays are the newest. */
export const STATS_ROWS_PER_STATUS = 2_000

export const WATCH_WINDOW_MS = HOUR_MS
const WATCH_ROWS_PER_STATUS = 10_000
/** The watchdog's line: more than this share failed, of at least WATCH_MIN_ATTEMPTS in the hour. */
export const FAILING_SHARE = 0.2
export const WATCH_MIN_ATTEMPTS = 20

const OUTCOMES = ['SENT', 'FAILED', 'RETRYING'] as const

/**
 * The deliveries with an outcome since ?1, at most `limit` of each status, newest first. The
 * `status <> 'PENDING'` repeats the partial index's condition, which SQLite must see to use it.
 */
function recentOutcomes(limit: number) {
  return OUTCOMES.map(
    (status) =>
      `SELECT * FROM (SELECT notification_id, channel, status, retry_count, sent_at
        FROM notification_deliveries
        WHERE status = '${status}' AND status <> 'PENDING' AND updated_at >= ?1
        ORDER BY updated_at DESC LIMIT ${limit})`,
  ).join(' UNION ALL ')
}

export interface ChannelDeliveryStats {
  channel: Channel
  sent: number
  retried: number
  failed: number
  /** Due time to send, in milliseconds; null when nothing with a due time was sent. */
  medianDelayMs: number | null
  p95DelayMs: number | null
}

export interface DeliveryStats {
  windowMs: number
  /** True when a status had more rows than were read: its count is then a lower bound. */
  limited: boolean
  channels: ChannelDeliveryStats[]
}

export interface StatsRow {
  channel: string
  sent: number
  retried: number
  failed: number
  medianMs: number | null
  p95Ms: number | null
  largest: number
}

/**
 * One statement for /status's batch. The percentiles are nearest-rank (the ceil(p * n)-th
 * smallest delay), ranked by a window function; a delay is never below zero (a reminder sent a
 * moment before its due time is on time).
 */
export function deliveryStatsStatement(d1: D1Database, now: number) {
  return d1
    .prepare(
      `WITH recent AS MATERIALIZED (${recentOutcomes(STATS_ROWS_PER_STATUS)}),
      delays AS (
        SELECT r.channel, max(0, r.sent_at - n.scheduled_at) AS delay
          FROM recent r JOIN notifications n ON n.id = r.notification_id
          WHERE r.status = 'SENT' AND r.sent_at IS NOT NULL AND n.scheduled_at IS NOT NULL),
      ranked AS (
        SELECT channel, delay, row_number() OVER (PARTITION BY channel ORDER BY delay) AS rn,
          count(*) OVER (PARTITION BY channel) AS total
          FROM delays),
      percentiles AS (
        SELECT channel, max(CASE WHEN rn = (total + 1) / 2 THEN delay END) AS medianMs,
          max(CASE WHEN rn = (95 * total + 99) / 100 THEN delay END) AS p95Ms
          FROM ranked GROUP BY channel),
      counts AS (
        SELECT channel, sum(status = 'SENT') AS sent,
          sum(status = 'RETRYING' OR retry_count > 0) AS retried, sum(status = 'FAILED') AS failed
          FROM recent GROUP BY channel)
      SELECT c.channel, c.sent, c.retried, c.failed, p.medianMs, p.p95Ms,
        (SELECT max(k) FROM (SELECT count(*) AS k FROM recent GROUP BY status)) AS largest
        FROM counts c LEFT JOIN percentiles p ON p.channel = c.channel`,
    )
    .bind(now - STATS_WINDOW_MS)
}

/** The statement's rows as every channel of the registry, in its order (zeros where none). */
export function readDeliveryStats(rows: readonly StatsRow[]): DeliveryStats {
  const byChannel = new Map(rows.map((r) => [r.channel, r]))
  return {
    windowMs: STATS_WINDOW_MS,
    limited: rows.some((r) => r.largest >= STATS_ROWS_PER_STATUS),
    channels: CHANNELS.map((channel) => {
      const r = byChannel.get(channel)
      return {
        channel,
        sent: r?.sent ?? 0,
        retried: r?.retried ?? 0,
        failed: r?.failed ?? 0,
        medianDelayMs: r?.medianMs ?? null,
        p95DelayMs: r?.p95Ms ?? null,
      }
    }),
  }
}

export interface FailingChannel {
  channel: string
  attempts: number
  failed: number
}

/**
 * The channels whose last hour's outcomes failed (FAILED, or RETRYING after a failed attempt)
 * above FAILING_SHARE, of at least WATCH_MIN_ATTEMPTS outcomes: fewer say nothing either way.
 */
export async function failingDeliveryChannels(
  d1: D1Database,
  now: number,
): Promise<FailingChannel[]> {
  const { results } = await d1
    .prepare(
      `SELECT channel, count(*) AS attempts, sum(status <> 'SENT') AS failed
        FROM (${recentOutcomes(WATCH_ROWS_PER_STATUS)})
        GROUP BY channel
        HAVING count(*) >= ?2 AND sum(status <> 'SENT') > count(*) * ?3
        ORDER BY channel`,
    )
    .bind(now - WATCH_WINDOW_MS, WATCH_MIN_ATTEMPTS, FAILING_SHARE)
    .all<FailingChannel>()
  return results
}
