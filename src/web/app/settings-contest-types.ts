// The contest types the settings page offers as checkboxes: each platform's types and the
// divisions the sync tags contests with (contests/matching.ts). The API stores free text, so
// anything else a user chose stays in "Other types".
import { normalizeContestType } from '../../contests/matching.ts'

export interface TypeChoice {
  value: string
  label: string
}

export const TYPE_GROUPS: { legend: string; types: TypeChoice[] }[] = [
  {
    legend: 'Codeforces',
    types: [
      { value: 'CF', label: 'Rounds (CF)' },
      { value: 'ICPC', label: 'ICPC format' },
      { value: 'IOI', label: 'IOI format' },
    ],
  },
  {
    legend: 'Divisions (Codeforces and CodeChef)',
    types: [
      { value: 'div1', label: 'Div. 1' },
      { value: 'div2', label: 'Div. 2' },
      { value: 'div3', label: 'Div. 3' },
      { value: 'div4', label: 'Div. 4' },
      { value: 'educational', label: 'Educational' },
      { value: 'global', label: 'Global' },
    ],
  },
  {
    legend: 'LeetCode',
    types: [
      { value: 'WEEKLY', label: 'Weekly' },
      { value: 'BIWEEKLY', label: 'Biweekly' },
    ],
  },
  {
    legend: 'CodeChef',
    types: [
      { value: 'STARTERS', label: 'Starters' },
      { value: 'LONG', label: 'Long' },
      { value: 'COOK_OFF', label: 'Cook-Off' },
      { value: 'LUNCH_TIME', label: 'Lunchtime' },
    ],
  },
  {
    legend: 'AtCoder',
    types: [
      { value: 'ABC', label: 'Beginner (ABC)' },
      { value: 'ARC', label: 'Regular (ARC)' },
      { value: 'AGC', label: 'Grand (AGC)' },
      { value: 'AHC', label: 'Heuristic (AHC)' },
    ],
  },
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
