// `/contests roles list|set|unset`: the roles a channel's announcements ping, by platform or contest
// type, which its members take with the button under an announcement. Anyone reads the mapping;
// changing it is a community command (community-commands.ts checks Manage Channels on the channel).
import { findDestination, setRole, type PlaceKey } from '../../../communities/destinations.ts'
import { describeRoles, isRoleId, keyName, MAX_ROLES, roleKey } from '../../../communities/roles.ts'
import type { Db } from '../../../db/client.ts'
import type { CommunityDestinationRow } from '../../../db/schema.ts'

interface Options {
  guildId?: string
  options: { name: string; value?: unknown }[]
}

const valueOf = (i: Options, name: string) => {
  const value = i.options.find((o) => o.name === name)?.value
  return typeof value === 'string' ? value : undefined
}

/** The mapping of the channel in words, for every member. */
export function rolesWords(d: CommunityDestinationRow, title: string): string {
  const lines = describeRoles(d)
  if (lines.length === 0) {
    return `${title} maps no roles. Members who may manage it add one with /contests roles set.`
  }
  return [
    `Roles of ${title}:`,
    ...lines,
    'Press “Ping me for …” under an announcement to take its role; press again to give it back.',
  ].join('\n')
}

export interface RoleChange {
  key: string
  /** null takes the mapping away. */
  roleId: string | null
}

/** The change a `roles set` or `roles unset` asks for, checked; a refusal in words otherwise. */
export function roleChange(sub: string, i: Options): RoleChange | { refused: string } {
  const key = roleKey(valueOf(i, 'platform') ?? '')
  if (!key) return { refused: 'Name a platform (codeforces) or a contest type (div2).' }
  if (sub === 'roles unset') return { key, roleId: null }
  const roleId = valueOf(i, 'role')
  if (!roleId || !isRoleId(roleId)) return { refused: 'Choose a role.' }
  // @everyone's id is the server's: it pings everyone and cannot be given or taken.
  if (roleId === i.guildId) return { refused: 'Choose a role other than @everyone.' }
  return { key, roleId }
}

/** Applies the change; the reply in words. */
export async function mapRole(db: Db, place: PlaceKey & { title: string }, change: RoleChange) {
  const found = await findDestination(db, place)
  if (!found) return `${place.title} has no announcements: subscribe it first.`
  const { key, roleId } = change
  if (roleId && !Object.hasOwn(found.roles, key) && Object.keys(found.roles).length >= MAX_ROLES) {
    return `${place.title} maps ${MAX_ROLES} roles already; unset one first.`
  }
  const row = await setRole(db, place, key, roleId, Date.now())
  if (!row) return `${place.title} has no announcements: subscribe it first.`
  return roleId
    ? `Announcements of ${keyName(key)} in ${place.title} ping <@&${roleId}>, and members take it with their button.`
    : `Announcements of ${keyName(key)} in ${place.title} ping no role of their own now.`
}
