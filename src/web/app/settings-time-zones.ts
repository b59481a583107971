// The time zones the settings page offers: the runtime's IANA zones under their current names
// (ICU still answers some legacy ones, such as Asia/Calcutta for Asia/Kolkata), UTC, grouped by
// region, and a zone's name and offset in words.
import { addToGroup } from '../../lib/group.ts'
import { currentZoneName } from '../../lib/time-zones.ts'

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
  for (const id of Intl.supportedValuesOf('timeZone')) ids.add(currentZoneName(id))
  const byRegion = new Map<string, ZoneGroup['zones']>()
  for (const id of [...ids].sort()) {
    if (!id.includes('/')) continue
    const region = id.split('/')[0]
    addToGroup(byRegion, region, { id, label: placeOf(id) })
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
