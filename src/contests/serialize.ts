// Contest rows rendered as API objects: ISO times, a time-derived phase, optional fields left out.
import type { ContestRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import type { ContestType, Difficulty, Phase, Platform } from './schemas.ts'

/** The phase follows the clock, so a stored phase that a sync has not refreshed yet never leaks. */
export function phaseAt(startTime: number, endTime: number, now: number): Phase {
  if (startTime > now) return 'BEFORE'
  return endTime >= now ? 'CODING' : 'FINISHED'
}

export function toApiContest(row: ContestRow, now: number) {
  return {
    id: row.id,
    platformId: row.platformId,
    name: row.name,
    platform: row.platform as Platform,
    phase: phaseAt(row.startTime, row.endTime, now),
    type: row.type as ContestType,
    startTime: toIso(row.startTime),
    endTime: toIso(row.endTime),
    durationMinutes: row.durationMinutes,
    ...(row.description != null && { description: row.description }),
    ...(row.websiteUrl != null && { websiteUrl: row.websiteUrl }),
    ...(row.registrationUrl != null && { registrationUrl: row.registrationUrl }),
    ...(row.difficulty != null && { difficulty: row.difficulty as Difficulty }),
    ...(row.participantCount != null && { participantCount: row.participantCount }),
    ...(row.problemCount != null && { problemCount: row.problemCount }),
    ...(row.platformMetadata != null && { platformMetadata: row.platformMetadata }),
    isActive: row.isActive,
    isNotified: row.isNotified,
    lastSyncedAt: toIso(row.lastSyncedAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

export function toApiContestDetail(row: ContestRow, now: number) {
  return {
    ...toApiContest(row, now),
    isUpcoming: row.startTime > now,
    isRunning: row.startTime <= now && row.endTime >= now,
    isFinished: row.endTime < now,
    timeUntilStart: Math.max(0, row.startTime - now),
    timeUntilEnd: Math.max(0, row.endTime - now),
  }
}
