// What each of the catalogue's contest types (contests/schemas.ts) is called wherever a page shows
// one: the home page's list and filter, the followed contests and the settings' checkboxes.
import type { ContestType } from '../contests/schemas.ts'

export const CONTEST_TYPE_NAMES: Record<ContestType, string> = {
  CF: 'Rounds (CF)',
  ICPC: 'ICPC format',
  IOI: 'IOI format',
  WEEKLY: 'Weekly',
  BIWEEKLY: 'Biweekly',
  STARTERS: 'Starters',
  LONG: 'Long',
  COOK_OFF: 'Cook-Off',
  LUNCH_TIME: 'Lunchtime',
  ABC: 'Beginner (ABC)',
  ARC: 'Regular (ARC)',
  AGC: 'Grand (AGC)',
  AHC: 'Heuristic (AHC)',
}

/** A stored type in words; one the catalogue does not list (an admin's free text) as it is. */
export const contestTypeName = (type: string): string =>
  Object.hasOwn(CONTEST_TYPE_NAMES, type) ? CONTEST_TYPE_NAMES[type as ContestType] : type
