// Notification preferences: defaults, time zone checks, and the mapping between columns and API.
import { PLATFORMS, type Platform } from '../contests/schemas.ts'
import type { UserRow } from '../db/schema.ts'

export const ALERT_FREQUENCIES = ['immediate', 'daily', 'weekly'] as const
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number]
export { PLATFORMS, type Platform }

export interface NotificationChannels {
  whatsapp: boolean
  email: boolean
  push: boolean
}

export interface Preferences {
  platforms: Platform[]
  alertFrequency: AlertFrequency
  contestTypes: string[]
  notificationChannels: NotificationChannels
  notifyBefore: number
  timezone: string
}

export type PreferencesUpdate = Partial<Preferences>

export const DEFAULT_PREFERENCES: Preferences = {
  platforms: ['codeforces', 'leetcode'],
  alertFrequency: 'immediate',
  contestTypes: [],
  notificationChannels: { whatsapp: true, email: true, push: false },
  notifyBefore: 24,
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
    notificationChannels: {
      whatsapp: row.notifyWhatsapp,
      email: row.notifyEmail,
      push: row.notifyPush,
    },
    notifyBefore: row.notifyBefore,
    timezone: row.timezone,
  }
}

/** The columns a (partial) preferences update writes; fields not sent are left out. */
export function preferenceColumns(update: PreferencesUpdate) {
  const channels = update.notificationChannels
  return {
    ...(update.platforms && { platforms: update.platforms }),
    ...(update.alertFrequency && { alertFrequency: update.alertFrequency }),
    ...(update.contestTypes && { contestTypes: update.contestTypes }),
    // An object field replaces the stored value (spec), so a channel left out is switched off.
    ...(channels && {
      notifyWhatsapp: channels.whatsapp,
      notifyEmail: channels.email,
      notifyPush: channels.push,
    }),
    ...(update.notifyBefore !== undefined && { notifyBefore: update.notifyBefore }),
    ...(update.timezone && { timezone: update.timezone }),
  }
}
