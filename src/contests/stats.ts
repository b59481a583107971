// Catalogue statistics over active contests, each answered by one batched round trip to D1.
import { and, avg, count, eq, gt, isNotNull, ne, sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Db } from '../db/client.ts'
import { contests } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import type { Platform } from './schemas.ts'
import { ADMIN_ENTRY } from './sync-hash.ts'

const active = eq(contests.isActive, true)

function phaseCounts(now: number) {
  return {
    totalContests: count(),
    upcomingContests: sql<number>`coalesce(sum(${contests.startTime} > ${now}), 0)`,
    runningContests: sql<number>`coalesce(sum(${contests.startTime} <= ${now} and ${contests.endTime} >= ${now}), 0)`,
    finishedContests: sql<number>`coalesce(sum(${contests.endTime} < ${now}), 0)`,
  }
}

function breakdown(rows: { key: string | null; n: number }[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.key, r.n]))
}

export async function contestStats(db: Db, now: number) {
  const grouped = (column: AnySQLiteColumn) =>
    db
      .select({ key: sql<string | null>`${column}`, n: count() })
      .from(contests)
      .where(and(active, isNotNull(column)))
      .groupBy(column)
  const [[totals], platforms, types, difficulties] = await db.batch([
    db.select(phaseCounts(now)).from(contests).where(active),
    grouped(contests.platform),
    grouped(contests.type),
    grouped(contests.difficulty),
  ])
  return {
    ...totals,
    platformBreakdown: breakdown(platforms),
    typeBreakdown: breakdown(types),
    difficultyBreakdown: breakdown(difficulties),
  }
}

/** Active contests still to come, per platform (one indexed range read). */
export async function upcomingByPlatform(db: Db, now: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ platform: contests.platform, n: count() })
    .from(contests)
    .where(and(active, gt(contests.startTime, now)))
    .groupBy(contests.platform)
  return new Map(rows.map((r) => [r.platform, r.n]))
}

/**
 * Active contests still to come that a source wrote, per platform: the yardstick of the next
 * answer. An admin's own entries are left out (no source ever listed them, so a source listing
 * fewer than they number says nothing of the source), and so are the sync's cancellations
 * (inactive).
 */
export async function sourcedUpcomingByPlatform(db: Db, now: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ platform: contests.platform, n: count() })
    .from(contests)
    .where(
      and(
        active,
        gt(contests.startTime, now),
        isNotNull(contests.syncHash),
        ne(contests.syncHash, ADMIN_ENTRY),
      ),
    )
    .groupBy(contests.platform)
  return new Map(rows.map((r) => [r.platform, r.n]))
}

/** `lastSync` (epoch ms or null) comes from the sync feature's record of runs. */
export async function platformStats(
  db: Db,
  platform: Platform,
  lastSync: number | null,
  now: number,
) {
  const row = await db
    .select({
      ...phaseCounts(now),
      averageDuration: avg(contests.durationMinutes),
      averageParticipants: avg(contests.participantCount),
    })
    .from(contests)
    .where(and(active, eq(contests.platform, platform)))
    .get()
  return {
    platform,
    totalContests: row?.totalContests ?? 0,
    upcomingContests: row?.upcomingContests ?? 0,
    runningContests: row?.runningContests ?? 0,
    finishedContests: row?.finishedContests ?? 0,
    averageDuration: round(row?.averageDuration),
    averageParticipants: round(row?.averageParticipants),
    lastSyncTime: lastSync != null ? toIso(lastSync) : null,
  }
}

const round = (value: string | null | undefined) =>
  value == null ? 0 : Math.round(Number(value) * 100) / 100
