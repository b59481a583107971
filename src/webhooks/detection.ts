// Detection of contest.starting and contest.finished by the half-hourly run. Starting: contests
// whose start falls before the next run. Finished: contests that ended since the previous run,
// after a watermark kept in KV. Event ids make an overlap between runs harmless.
import { listContests } from '../contests/queries.ts'
import type { ListFilters } from '../contests/schemas.ts'
import { createDb, type Db } from '../db/client.ts'
import type { ContestRow } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { DAY_MS, MINUTE_MS, toIso } from '../lib/time.ts'
import { contestEvent } from './contest-events.ts'
import { emitWebhookEvents } from './emit.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

/** The scheduler's period: a contest starting within it would have started by the next run. */
export const STARTING_WINDOW_MS = 30 * MINUTE_MS
/** A watermark older than this (runs missed for a day) is not honoured: no flood of old events. */
export const MAX_LOOKBACK_MS = DAY_MS
export const FINISHED_WATERMARK_KEY = 'webhooks:contest-finished-watermark'

const PAGE_SIZE = 100
const MAX_PAGES = 20

const pageOf = (filters: Partial<ListFilters>, offset: number): ListFilters => ({
  sortBy: 'startTime',
  sortOrder: 'asc',
  limit: PAGE_SIZE,
  offset,
  ...filters,
})

/** Active contests starting in [now, now + 30 min]; both ends in, the event id dedupes. */
export async function contestsStartingSoon(db: Db, now: number): Promise<ContestRow[]> {
  const found: ContestRow[] = []
  for (let page = 0; page < MAX_PAGES; page++) {
    const filters = { startDate: toIso(now), endDate: toIso(now + STARTING_WINDOW_MS) }
    const { rows } = await listContests(db, pageOf(filters, page * PAGE_SIZE), now)
    found.push(...rows)
    if (rows.length < PAGE_SIZE) break
  }
  return found
}

/** Active contests that ended in [from, now), newest end first. */
export async function contestsFinishedSince(
  db: Db,
  from: number,
  now: number,
): Promise<ContestRow[]> {
  const found: ContestRow[] = []
  for (let page = 0; page < MAX_PAGES; page++) {
    const filters: Partial<ListFilters> = {
      phase: 'FINISHED',
      sortBy: 'endTime',
      sortOrder: 'desc',
    }
    const { rows } = await listContests(db, pageOf(filters, page * PAGE_SIZE), now)
    const recent = rows.filter((row) => row.endTime >= from)
    found.push(...recent)
    if (rows.length < PAGE_SIZE || recent.length < rows.length) break
  }
  return found
}

/** Where the previous run's finished window ended, kept within [now - a day, now]. */
async function finishedFrom(kv: KeyValueStore, now: number): Promise<number> {
  const stored = Number(await kv.get(FINISHED_WATERMARK_KEY))
  const from = Number.isFinite(stored) && stored > 0 ? stored : now - STARTING_WINDOW_MS
  return Math.min(now, Math.max(from, now - MAX_LOOKBACK_MS))
}

export interface DetectionCounts {
  webhookStarting: number
  webhookFinished: number
  webhookQueued: number
}

/** Emits the events of this run; the watermark moves only once they are all queued. */
export async function detectContestEvents(env: Env, now: number): Promise<DetectionCounts> {
  const db = createDb(env.DB)
  const from = await finishedFrom(env.KV, now)
  const [starting, finished] = await Promise.all([
    contestsStartingSoon(db, now),
    contestsFinishedSince(db, from, now),
  ])
  const events = [
    ...starting.map((row) => contestEvent('contest.starting', row, now)),
    ...finished.map((row) => contestEvent('contest.finished', row, now)),
  ]
  const webhookQueued = await emitWebhookEvents(env, events, now)
  await env.KV.put(FINISHED_WATERMARK_KEY, String(now))
  return { webhookStarting: starting.length, webhookFinished: finished.length, webhookQueued }
}
