// A contest as a platform or an admin describes it: the input of every catalogue write.
import type { ContestType, Difficulty, Platform } from './schemas.ts'

export interface ContestInput {
  platform: Platform
  platformId: string
  name: string
  type: ContestType
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
