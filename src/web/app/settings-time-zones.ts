// The time zones the settings page offers: the runtime's IANA zones under their current names
// (ICU still answers some legacy ones, such as Asia/Calcutta for Asia/Kolkata), UTC, grouped by
// region, and a zone's name and offset in words.
import { canonicalTimeZone } from '../../users/preferences.ts'

// Zones IANA renamed whose old name the runtime's ICU may still list; the current name is offered
// when the runtime accepts it, so a person finds their city under the name they know.
const RENAMED: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Coral_Harbour': 'America/Atikokan',
}

export interface ZoneGroup {
  region: string
  zones: { id: string; label: string }[]
}

let groups: ZoneGroup[] | undefined

/** "America/Argentina/Buenos_Aires" reads "Argentina / Buenos Aires" under America. */
const placeOf = (id: string) => id.split('/').slice(1).join(' / ').replace(/_/g, ' ')

/** The runtime's zones once per isolate: the list does not change while it runs. */
function zoneGroups(): ZoneGroup[] {
  if (groups) return groups
  const ids = new Set<string>()
  for (const id of Intl.supportedValuesOf('timeZone')) {
    const renamed = RENAMED[id]
    ids.add(renamed && canonicalTimeZone(renamed) === renamed ? renamed : id)
  }
  const byRegion = new Map<string, ZoneGroup['zones']>()
  for (const id of [...ids].sort()) {
    if (!id.includes('/')) continue
    const region = id.split('/')[0]
    const zones = byRegion.get(region) ?? []
    zones.push({ id, label: placeOf(id) })
    byRegion.set(region, zones)
  }
  groups = [...byRegion].map(([region, zones]) => ({ region, zones }))
  return groups
}

/**
 * The groups to offer, with `current` among them even when the runtime does not list it (a zone
 * the API accepted under another spelling), so the select always shows what is stored.
 */
export function zoneChoices(current: string): { utc: boolean; groups: ZoneGroup[] } {
  const all = zoneGroups()
  const listed = current === 'UTC' || all.some((g) => g.zones.some((z) => z.id === current))
  if (listed) return { utc: true, groups: all }
  return {
    utc: true,
    groups: [{ region: 'Your time zone', zones: [{ id: current, label: current }] }, ...all],
  }
}

/** "India Standard Time (GMT+05:30)": the zone's name and offset at `at`, as Intl says them. */
export function zoneWords(zone: string, at: number): string {
  const part = (style: 'long' | 'longOffset') => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: style })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value
    } catch {
      return undefined
    }
  }
  const name = part('long')
  const offset = part('longOffset')
  if (!name) return zone
  return offset && offset !== name ? `${name} (${offset})` : name
}
