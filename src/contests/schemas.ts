// Contest enumerations and the zod schemas shared by the routes and the OpenAPI document.
import { z } from '@hono/zod-openapi'
import { PaginationSchema } from '../lib/pagination.ts'
import { idParam, intInRange, isoDate, oneOf, pagingFields } from '../lib/validation.ts'

import { DIFFICULTIES, type Difficulty } from '../platforms/contest.ts'
import {
  CONTEST_TYPES,
  PLATFORMS,
  TYPES_BY_PLATFORM,
  type ContestType,
  type Platform,
} from '../platforms/registry.ts'

export { CONTEST_TYPES, DIFFICULTIES, PLATFORMS, TYPES_BY_PLATFORM }
export type { ContestType, Difficulty, Platform }
export const PHASES = ['BEFORE', 'CODING', 'FINISHED'] as const
export const SORT_FIELDS = [
  'startTime',
  'endTime',
  'name',
  'participantCount',
  'createdAt',
] as const

export type Phase = (typeof PHASES)[number]
export type SortField = (typeof SORT_FIELDS)[number]

const platform = oneOf('platform', PLATFORMS)
const phase = oneOf('phase', PHASES)
const type = oneOf('type', CONTEST_TYPES)
const difficulty = oneOf('difficulty', DIFFICULTIES)

export const PlatformQuery = z.object({ platform: platform.optional() })
export const PlatformParam = z.object({
  platform: platform.openapi({ param: { name: 'platform', in: 'path' } }),
})
export const DifficultyParam = z.object({
  level: oneOf('level', DIFFICULTIES).openapi({ param: { name: 'level', in: 'path' } }),
})
export const TypeParam = z.object({ type: type.openapi({ param: { name: 'type', in: 'path' } }) })
export const IdParam = idParam('contest')

/**
 * The bounds of a search, shared by GET /contests/search and the home page. A contest name fits
 * in 100 characters; with the words capped at 10, each once, the FTS5 query costs the same
 * whatever the caller sends (an uncapped one grew with the square of its words).
 */
export const MAX_SEARCH_LENGTH = 100
/** Words after the tenth distinct one are ignored: more narrow nothing a reader would notice. */
export const MAX_SEARCH_TERMS = 10

export const SEARCH_TOO_LONG = `q must be at most ${MAX_SEARCH_LENGTH} characters`

export const SearchQuery = z.object({
  // A missing q is read as empty, so that it gets the spec's sentence rather than zod's. The
  // length is that of the trimmed text, as the home page counts it.
  q: z
    .preprocess(
      (q) => q ?? '',
      z
        .string()
        .refine((q) => q.trim() !== '', { error: 'Search query parameter "q" is required' })
        .refine((q) => q.trim().length <= MAX_SEARCH_LENGTH, { error: SEARCH_TOO_LONG }),
    )
    .openapi({
      type: 'string',
      maxLength: MAX_SEARCH_LENGTH,
      description:
        `Words to find (letters and digits; everything else separates them), each matched as ` +
        `the start of a word in the name or description. At most ${MAX_SEARCH_LENGTH} ` +
        `characters; repeated words count once and words after the ${MAX_SEARCH_TERMS}th ` +
        'distinct one are ignored.',
      example: 'educational round',
    }),
})

export const PlatformListQuery = z.object({
  phase: phase.optional(),
  type: type.optional(),
  difficulty: difficulty.optional(),
  limit: intInRange('limit', 1, 100, 50),
})

export const ListQuery = z
  .object({
    platform: platform.optional(),
    phase: phase.optional(),
    type: type.optional(),
    difficulty: difficulty.optional(),
    startDate: isoDate('startDate').optional(),
    endDate: isoDate('endDate').optional(),
    sortBy: oneOf('sortBy', SORT_FIELDS).default('startTime'),
    sortOrder: oneOf('sortOrder', ['asc', 'desc']).default('asc'),
    ...pagingFields(),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    error: 'startDate must not be after endDate',
  })

export type ListFilters = z.infer<typeof ListQuery>
export type PlatformListFilters = z.infer<typeof PlatformListQuery>

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

export const ContestSchema = z
  .object({
    id: z.string().openapi({ example: '6745a1f03c9e4b2a1d0e7f11' }),
    platformId: z.string(),
    name: z.string(),
    platform: z.enum(PLATFORMS),
    phase: z.enum(PHASES),
    type: z.enum(CONTEST_TYPES),
    startTime: timestamp,
    endTime: timestamp,
    durationMinutes: z.number(),
    description: z.string().optional(),
    websiteUrl: z.string().optional(),
    registrationUrl: z.string().optional(),
    difficulty: z.enum(DIFFICULTIES).optional(),
    participantCount: z.number().optional(),
    problemCount: z.number().optional(),
    platformMetadata: z.record(z.string(), z.unknown()).optional(),
    isActive: z.boolean(),
    isNotified: z.boolean(),
    lastSyncedAt: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Contest')

export const ContestDetailSchema = ContestSchema.extend({
  isUpcoming: z.boolean(),
  isRunning: z.boolean(),
  isFinished: z.boolean(),
  timeUntilStart: z.number(),
  timeUntilEnd: z.number(),
}).openapi('ContestDetail')

const counts = z.record(z.string(), z.number())

export const ContestStatsSchema = z
  .object({
    totalContests: z.number(),
    upcomingContests: z.number(),
    runningContests: z.number(),
    finishedContests: z.number(),
    platformBreakdown: counts,
    typeBreakdown: counts,
    difficultyBreakdown: counts,
  })
  .openapi('ContestStats')

export const PlatformStatsSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    totalContests: z.number(),
    upcomingContests: z.number(),
    runningContests: z.number(),
    finishedContests: z.number(),
    averageDuration: z.number(),
    averageParticipants: z.number(),
    lastSyncTime: timestamp.nullable(),
  })
  .openapi('PlatformStats')

export const ContestPageSchema = z
  .object({
    data: z.array(ContestSchema),
    pagination: PaginationSchema,
  })
  .openapi('ContestPage')

// A platform's freshness (the sync feature fills it in): GET /platforms and /contests/health.
export const PlatformViewSchema = z
  .object({
    id: platform,
    name: z.string(),
    homeUrl: z.string(),
    enabled: z.boolean().openapi({ description: 'false: a clist.by platform while clist is off' }),
    upcoming: z.number().int().openapi({ description: 'Active contests still to come' }),
    state: z.enum(['ok', 'degraded', 'failing', 'blocked']).openapi({
      description:
        'ok; degraded: the source answered something that cannot be right (schema broken, ' +
        'empty, half gone) and stored contests are kept; failing: no answer; blocked: 403 or 429, ' +
        'asked again after a backoff',
    }),
    source: z.enum(['own', 'clist']).openapi({ description: 'Where the contests came from last' }),
    stale: z.boolean().openapi({ description: 'No successful sync for 12 hours' }),
    lastSuccess: z.string().optional(),
    lastAttempt: z.string().optional(),
  })
  .openapi('Platform')

export const PlatformListSchema = z.array(PlatformViewSchema).openapi('Platforms')
export type PlatformView = z.infer<typeof PlatformViewSchema>

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    timestamp,
    platforms: z
      .array(PlatformViewSchema)
      .openapi({ description: 'As GET /platforms, as of the last sync' }),
  })
  .openapi('Health')
