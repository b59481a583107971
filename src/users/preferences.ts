// Notification preferences: defaults, time zone checks, and the mapping between columns and API.
import {
  CHANNEL_MODULES,
  perChannel,
  WEBHOOK_CHANNELS,
  type Channel,
} from '../channels/registry.ts'
import { PLATFORMS, type Platform } from '../contests/schemas.ts'
import type { UserRow } from '../db/schema.ts'
import type { Env } from '../env.ts'

export const ALERT_FREQUENCIES = ['immediate', 'daily', 'weekly'] as const
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number]
export { PLATFORMS, type Platform }

/** Each channel of the registry on or off. */
export type NotificationChannels = Record<Channel, boolean>

/** The preferences' field of each webhook channel's URL ('discordWebhookUrl'). */
export type WebhookUrlField = (typeof WEBHOOK_CHANNELS)[number]['destination']['field']

/** Local times of day ('HH:MM' in the user's zone) between which reminders wait. */
export interface QuietHours {
  start: string
  end: string
}

/** Contests left out of reminders, digests and the private feed. */
export interface NoiseFilters {
  minDuration: number | null
  maxDuration: number | null
  excludeWords: string[]
}

export interface Preferences {
  platforms: Platform[]
  alertFrequency: AlertFrequency
  contestTypes: string[]
  notificationChannels: NotificationChannels
  /** The longest lead time in hours, rounded up: the spec's single setting. */
  notifyBefore: number
  /** Minutes before the start, one reminder each; sorted longest first. */
  leadTimes: number[]
  quietHours: QuietHours | null
  filters: NoiseFilters
  timezone: string
}

/**
 * What an update may carry: notifyBefore and leadTimes both set the lead times; a webhook
 * channel's URL goes in here (null removes it) and comes out, masked, in the own profile only.
 */
export type PreferencesUpdate = Partial<Omit<Preferences, 'filters'>> & {
  filters?: Partial<NoiseFilters>
} & Partial<Record<WebhookUrlField, string | null>>

export const MAX_LEAD_TIMES = 5
export const MIN_LEAD_MINUTES = 5
export const MAX_LEAD_MINUTES = 7 * 24 * 60

/** Distinct lead times, longest first (the order reminders go out in). */
export const sortedLeadTimes = (minutes: readonly number[]) =>
  [...new Set(minutes)].sort((a, b) => b - a)

/** The spec's notifyBefore for lead times: the longest, in hours, rounded up. */
export const notifyBeforeOf = (leadTimes: readonly number[]) =>
  Math.ceil(Math.max(...leadTimes) / 60)

export const DEFAULT_PREFERENCES: Preferences = {
  platforms: ['codeforces', 'leetcode'],
  alertFrequency: 'immediate',
  contestTypes: [],
  notificationChannels: perChannel((m) => m.defaultOn),
  notifyBefore: 24,
  leadTimes: [24 * 60],
  quietHours: null,
  filters: { minDuration: null, maxDuration: null, excludeWords: [] },
  timezone: 'UTC',
}

let knownZones: Map<string, string> | undefined

/**
 * `zone` spelled as the IANA database spells it, or undefined when it is not a zone. The name
 * the user chose is kept (Intl would turn "Asia/Kolkata" into the legacy "Asia/Calcutta"); only
 * its letter case is corrected. Offsets such as "+05:30" are refused even where Intl takes them:
 * digests need a zone with its daylight-saving rules.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return undefined
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
  } catch {
    return undefined
  }
  knownZones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]))
  return knownZones.get(zone.toLowerCase()) ?? zone
}

export function preferencesOf(row: UserRow): Preferences {
  return {
    platforms: row.platforms as Platform[],
    alertFrequency: row.alertFrequency,
    contestTypes: row.contestTypes,
    notificationChannels: perChannel((m) => row[m.switchField]),
    // Derived from the lead times, its one source; the column is written alongside for the spec.
    notifyBefore: notifyBeforeOf(row.leadTimes),
    leadTimes: sortedLeadTimes(row.leadTimes),
    quietHours:
      row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
    filters: {
      minDuration: row.minDuration,
      maxDuration: row.maxDuration,
      excludeWords: row.excludeWords,
    },
    timezone: row.timezone,
  }
}

/** leadTimes, or notifyBefore as its one lead time (hours to minutes); never both (schemas.ts). */
function leadTimeColumns(update: PreferencesUpdate) {
  const leadTimes =
    update.leadTimes ?? (update.notifyBefore !== undefined ? [update.notifyBefore * 60] : undefined)
  if (!leadTimes) return {}
  const sorted = sortedLeadTimes(leadTimes)
  return {
    leadTimes: sorted,
    notifyBefore: notifyBeforeOf(sorted),
  }
}

/** Filter fields sent replace their stored values; fields left out are kept. */
function filterColumns(filters: PreferencesUpdate['filters']) {
  if (!filters) return {}
  return {
    ...(filters.minDuration !== undefined && { minDuration: filters.minDuration }),
    ...(filters.maxDuration !== undefined && { maxDuration: filters.maxDuration }),
    ...(filters.excludeWords !== undefined && { excludeWords: filters.excludeWords }),
  }
}

/**
 * A webhook set turns its channel on and one removed turns it off, unless the same update sends
 * notificationChannels, which then says whether the channel is on.
 */
function webhookColumns(update: PreferencesUpdate) {
  const columns: Partial<UserRow> = {}
  for (const m of WEBHOOK_CHANNELS) {
    const url = update[m.destination.field]
    if (url === undefined) continue
    columns[m.destination.field] = url
    if (!update.notificationChannels) columns[m.switchField] = url !== null
  }
  return columns
}

/** The switches of an update's notificationChannels. */
function switchColumns(channels: NotificationChannels | undefined) {
  if (!channels) return {}
  return Object.fromEntries(CHANNEL_MODULES.map((m) => [m.switchField, channels[m.id]]))
}

/** The columns a (partial) preferences update writes; fields not sent are left out. */
export function preferenceColumns(update: PreferencesUpdate) {
  const channels = update.notificationChannels
  return {
    ...(update.platforms && { platforms: update.platforms }),
    ...(update.alertFrequency && { alertFrequency: update.alertFrequency }),
    ...(update.contestTypes && { contestTypes: update.contestTypes }),
    // An object field replaces the stored value (spec), so a channel left out is switched off.
    ...switchColumns(channels),
    ...webhookColumns(update),
    ...leadTimeColumns(update),
    ...(update.quietHours !== undefined && {
      quietStart: update.quietHours?.start ?? null,
      quietEnd: update.quietHours?.end ?? null,
    }),
    ...filterColumns(update.filters),
    ...(update.timezone && { timezone: update.timezone }),
  }
}

/**
 * Why the webhook URLs an update sets may not be used, in the API's words: which hosts may be
 * reached depends on the settings, so this is checked here rather than in the schema.
 */
export function webhookUrlProblems(env: Env, update: PreferencesUpdate): string[] {
  return WEBHOOK_CHANNELS.flatMap(({ destination: { field, webhook } }) => {
    const url = update[field]
    const problem = url != null ? webhook.problem(env, url) : undefined
    return problem ? [problem] : []
  })
}
