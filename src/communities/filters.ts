// What a community destination announces: its platforms, contest types, lead times, words a name
// must hold or must not, and the shortest contest; checked here for the bots and the web app alike.
import { z } from '@hono/zod-openapi'
import type { CommunityDestinationRow } from '../db/schema.ts'
import { MAX_DURATION_MINUTES } from '../platforms/contest.ts'
import { isPlatform, PLATFORMS, type Platform } from '../platforms/registry.ts'

export const MAX_LEAD_TIMES = 5
export const MIN_LEAD_MINUTES = 5
export const MAX_LEAD_MINUTES = 7 * 24 * 60
const MAX_WORDS = 20
const MAX_WORD_LENGTH = 50
const MAX_TYPES = 50

/** An announcement an hour before the start, unless the destination chose otherwise. */
export const DEFAULT_LEAD_TIMES = [60]

const words = (field: string) =>
  z
    .array(z.string().trim().min(1).max(MAX_WORD_LENGTH), {
      error: `${field} must be a list of words`,
    })
    .max(MAX_WORDS, { error: `${field} takes at most ${MAX_WORDS} words` })

export const CommunityFiltersSchema = z.strictObject({
  platforms: z
    .array(z.enum(PLATFORMS, { error: 'platforms must name known platforms' }))
    .min(1, { error: 'platforms must name at least one platform' })
    .max(PLATFORMS.length)
    .transform((p) => [...new Set(p)]),
  contestTypes: z.array(z.string().trim().min(1).max(MAX_WORD_LENGTH)).max(MAX_TYPES),
  leadTimes: z
    .array(
      z
        .number()
        .int()
        .min(MIN_LEAD_MINUTES, { error: `lead times must be at least ${MIN_LEAD_MINUTES} minutes` })
        .max(MAX_LEAD_MINUTES, { error: 'lead times must be at most 7 days' }),
    )
    .min(1)
    .max(MAX_LEAD_TIMES, { error: `at most ${MAX_LEAD_TIMES} lead times` })
    .transform((l) => [...new Set(l)].sort((a, b) => b - a)),
  includeWords: words('includeWords'),
  excludeWords: words('excludeWords'),
  minDuration: z.number().int().min(0).max(MAX_DURATION_MINUTES).nullable(),
})

export type CommunityFilters = z.infer<typeof CommunityFiltersSchema>

/** The first problem of `filters`, in words, or the checked filters. */
export function checkFilters(
  filters: unknown,
): { ok: true; filters: CommunityFilters } | { ok: false; error: string } {
  const parsed = CommunityFiltersSchema.safeParse(filters)
  if (parsed.success) return { ok: true, filters: parsed.data }
  return { ok: false, error: parsed.error.issues[0]?.message ?? 'These settings are not valid' }
}

/** A destination's stored filters, as the schema reads them. */
export const filtersOf = (d: CommunityDestinationRow): CommunityFilters => ({
  platforms: d.platforms as CommunityFilters['platforms'],
  contestTypes: d.contestTypes,
  leadTimes: d.leadTimes,
  includeWords: d.includeWords,
  excludeWords: d.excludeWords,
  minDuration: d.minDuration,
})

/** The platforms a command names (any case, commas allowed), or the first word naming none. */
export function platformsNamed(
  words: readonly string[],
): { platforms: Platform[] } | { unknown: string } {
  const lower = words.map((w) => w.toLowerCase().replace(/,$/, '')).filter(Boolean)
  const unknown = lower.find((w) => !isPlatform(w))
  return unknown !== undefined ? { unknown } : { platforms: lower.filter(isPlatform) }
}
