// The contest types the settings page offers as checkboxes: each platform's types and the
// divisions the sync tags contests with (contests/matching.ts). The API stores free text, so
// anything else a user chose stays in "Other types".
import { platformName } from '../../contests/describe.ts'
import { normalizeContestType } from '../../contests/matching.ts'
import { PLATFORMS, TYPES_BY_PLATFORM, type Platform } from '../../contests/schemas.ts'
import { CONTEST_TYPE_NAMES } from '../contest-type-names.ts'

export interface TypeChoice {
  value: string
  label: string
}

// Not types but tags the sync reads from a round's name (contests/matching.ts).
const DIVISIONS: TypeChoice[] = [
  { value: 'div1', label: 'Div. 1' },
  { value: 'div2', label: 'Div. 2' },
  { value: 'div3', label: 'Div. 3' },
  { value: 'div4', label: 'Div. 4' },
  { value: 'educational', label: 'Educational' },
  { value: 'global', label: 'Global' },
]

const platformGroup = (platform: Platform) => ({
  legend: platformName(platform),
  types: TYPES_BY_PLATFORM[platform].map((type) => ({
    value: type,
    label: CONTEST_TYPE_NAMES[type],
  })),
})

// The divisions next to Codeforces, whose rounds carry them most.
export const TYPE_GROUPS: { legend: string; types: TypeChoice[] }[] = [
  platformGroup('codeforces'),
  { legend: 'Divisions (Codeforces and CodeChef)', types: DIVISIONS },
  ...PLATFORMS.filter((p) => p !== 'codeforces').map(platformGroup),
]

const KNOWN = new Map(
  TYPE_GROUPS.flatMap((g) => g.types).map((t) => [normalizeContestType(t.value), t.value]),
)

/**
 * Stored types split into the checkboxes they tick and the rest. Matching ignores case and
 * separators, so a stored "Div 2" ticks div2 as it would match the same contests.
 */
export function splitTypes(stored: readonly string[]): { checked: string[]; other: string[] } {
  const checked: string[] = []
  const other: string[] = []
  for (const type of stored) {
    const known = KNOWN.get(normalizeContestType(type))
    if (known) checked.push(known)
    else other.push(type)
  }
  return { checked, other }
}
