// Follow and mute choices rendered as API objects, each list entry with a short contest summary.
import type { ContestType, Platform } from '../contests/schemas.ts'
import { phaseAt } from '../contests/serialize.ts'
import type { ContestRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import type { ContestSubscription } from './contest-subscriptions.ts'

export function toSubscription(s: ContestSubscription) {
  return { contestId: s.contestId, mode: s.mode, updatedAt: toIso(s.updatedAt) }
}

/** Enough to show the choice in a list; the full contest is GET /contests/{id}. */
export function toContestSummary(row: ContestRow, now: number) {
  return {
    id: row.id,
    name: row.name,
    platform: row.platform as Platform,
    type: row.type as ContestType,
    phase: phaseAt(row.startTime, row.endTime, now),
    startTime: toIso(row.startTime),
    endTime: toIso(row.endTime),
    durationMinutes: row.durationMinutes,
    ...(row.websiteUrl != null && { websiteUrl: row.websiteUrl }),
  }
}
