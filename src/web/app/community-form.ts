// The form that changes what a claimed community announces: platforms ticked, the lists typed
// comma-separated, the length in minutes; turned into the filters the bots use and checked by
// their rules (communities/filters.ts), so the page says what the bots would say.
import { z } from '@hono/zod-openapi'
import { checkFilters, type CommunityFilters } from '../../communities/filters.ts'
import { parseRoles, rolesText } from '../../communities/roles.ts'
import type { CommunityDestinationRow } from '../../db/schema.ts'

// Far beyond any honest list (5 lead times, 20 words of 50 characters), so typing is never cut.
const MAX_TEXT = 2000

const text = z.string().max(MAX_TEXT, { error: `A field takes at most ${MAX_TEXT} characters` })

export const CommunityForm = z.strictObject({
  platforms: z.union([z.string().max(100), z.array(z.string().max(100)).max(100)]).optional(),
  leadTimes: text,
  contestTypes: text,
  includeWords: text,
  excludeWords: text,
  minDuration: text,
  // The cleanup box, sent only when ticked.
  cleanup: z.literal('on').optional(),
  // A Discord channel's form only: the events box (sent only when ticked) and the roles.
  events: z.literal('on').optional(),
  roles: text.optional(),
  // Rank posts after each contest (sent only when ticked).
  rankUpdates: z.literal('on').optional(),
})

export type CommunityFormValues = z.infer<typeof CommunityForm>

const list = (value: string) =>
  value
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean)

/** The filters the form means, or the first thing wrong with them in the bots' words. */
export function filtersOfForm(
  form: CommunityFormValues,
): { ok: true; filters: CommunityFilters } | { ok: false; error: string } {
  const leadTimes = list(form.leadTimes).map(Number)
  if (leadTimes.some((n) => !Number.isInteger(n))) {
    return { ok: false, error: 'Lead times must be whole minutes, such as 60, 1440' }
  }
  const min = form.minDuration.trim()
  if (min !== '' && !/^\d{1,6}$/.test(min)) {
    return { ok: false, error: 'The shortest length must be a whole number of minutes' }
  }
  return checkFilters({
    platforms: [form.platforms ?? []].flat(),
    leadTimes,
    contestTypes: list(form.contestTypes),
    includeWords: list(form.includeWords),
    excludeWords: list(form.excludeWords),
    minDuration: min === '' ? null : Number(min),
  })
}

/** A Discord form's events and roles; undefined for a Telegram one, or what is wrong. */
export function discordOfForm(
  form: CommunityFormValues,
):
  | { ok: true; discord?: { events: boolean; roles: Record<string, string> } }
  | { ok: false; error: string } {
  if (form.roles === undefined) return { ok: true }
  const parsed = parseRoles(form.roles)
  if (!parsed.ok) return parsed
  return { ok: true, discord: { events: form.events === 'on', roles: parsed.roles } }
}

/** The form filled from a destination's stored filters. */
export const formOf = (d: CommunityDestinationRow): CommunityFormValues => ({
  platforms: d.platforms,
  leadTimes: d.leadTimes.join(', '),
  contestTypes: d.contestTypes.join(', '),
  includeWords: d.includeWords.join(', '),
  excludeWords: d.excludeWords.join(', '),
  minDuration: d.minDuration === null ? '' : String(d.minDuration),
  ...(d.rankUpdates && { rankUpdates: 'on' as const }),
  ...(d.cleanup && { cleanup: 'on' as const }),
  ...(d.channel === 'discord' && {
    ...(d.events && { events: 'on' as const }),
    roles: rolesText(d),
  }),
})
