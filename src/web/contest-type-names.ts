// What each of the catalogue's contest types (each platform's module) is called wherever a page shows
// one: the home page's list and filter, the followed contests and the settings' checkboxes.
import { CONTEST_TYPE_NAMES, type ContestType } from '../platforms/registry.ts'

export { CONTEST_TYPE_NAMES }

/** A stored type in words; one the catalogue does not list (an admin's free text) as it is. */
export const contestTypeName = (type: string): string =>
  Object.hasOwn(CONTEST_TYPE_NAMES, type) ? CONTEST_TYPE_NAMES[type as ContestType] : type
