// A contest as a platform's source describes it, before the catalogue stores it.

export const DIFFICULTIES = ['BEGINNER', 'EASY', 'MEDIUM', 'HARD', 'EXPERT'] as const
export type Difficulty = (typeof DIFFICULTIES)[number]

// A contest longer than 100 days is no contest: every duration filter is bounded by this.
export const MAX_DURATION_MINUTES = 100 * 24 * 60

/**
 * Generic over the platform id and its contest types, so that a platform's module is checked
 * against its own type list without knowing the registry (which imports it).
 */
export interface SourceContest<P extends string = string, T extends string = string> {
  platform: P
  platformId: string
  name: string
  type: T
  startTime: number
  endTime: number
  description?: string
  websiteUrl?: string
  registrationUrl?: string
  difficulty?: Difficulty
  participantCount?: number
  problemCount?: number
  platformMetadata?: Record<string, unknown>
  isActive?: boolean
}
