// A contest as a platform or an admin describes it: the input of every catalogue write.
import type { SourceContest } from '../platforms/contest.ts'
import type { ContestType, Platform } from '../platforms/registry.ts'

export type ContestInput = SourceContest<Platform, ContestType>
