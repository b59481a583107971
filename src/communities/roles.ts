// Roles members pick for themselves in a Discord channel subscription: the destination maps
// platforms (or contest types) to roles; an announcement pings the roles of its platform and its
// tags (and the subscription's own role), and nothing else, and carries one "Ping me for …"
// button per such role, whose press gives the member the role or takes it away.
import { contestTags, normalizeContestType } from '../contests/matching.ts'
import type { CommunityDestinationRow, ContestRow } from '../db/schema.ts'
import { isPlatform, platformName } from '../platforms/registry.ts'

// Five buttons fill a row; an announcement carries at most one row of them.
export const MAX_BUTTONS = 5
// Mappings one channel keeps: far more than its judges, bounded for the settings' reply.
export const MAX_ROLES = 25
const ROLE_ID = /^\d{17,20}$/

/** The custom_id prefix of a role button; the rest is the mapping's key. */
export const ROLE_BUTTON_PREFIX = 'contests:role:'

/** The key a platform or a contest type is mapped under, or undefined for a word that is neither. */
export function roleKey(word: string): string | undefined {
  const lower = word.trim().toLowerCase()
  if (isPlatform(lower)) return lower
  const type = normalizeContestType(word.trim())
  return /^[a-z0-9]{1,40}$/.test(type) ? type : undefined
}

export const isRoleId = (id: string) => ROLE_ID.test(id)

/** What a key names, in words: the judge's name, or the contest type as typed. */
export const keyName = (key: string) => (isPlatform(key) ? platformName(key) : key)

/** The mapped keys an announcement of `contest` pings, its platform first. */
export function keysOf(d: CommunityDestinationRow, contest: ContestRow): string[] {
  const keys = [contest.platform, ...contestTags(contest)]
  return [...new Set(keys)].filter((k) => Object.hasOwn(d.roles, k) && isRoleId(d.roles[k]))
}

/** The mentions, allowed mentions and buttons of an announcement of `contest` in `d`. */
export function announcementPings(d: CommunityDestinationRow, contest: ContestRow) {
  const keys = keysOf(d, contest)
  const roles = [...new Set([...(d.roleId ? [d.roleId] : []), ...keys.map((k) => d.roles[k])])]
  const buttons = keys.slice(0, MAX_BUTTONS).map((k) => ({
    type: 2,
    // Secondary: grey, beside the announcement rather than louder than it.
    style: 2,
    label: `Ping me for ${keyName(k)}`.slice(0, 80),
    custom_id: `${ROLE_BUTTON_PREFIX}${k}`,
  }))
  return {
    ...(roles.length > 0 && { content: roles.map((r) => `<@&${r}>`).join(' ') }),
    // The mapped roles, and no @everyone or other mention whatever a contest's name says.
    allowed_mentions: { parse: [], roles },
    ...(buttons.length > 0 && { components: [{ type: 1, components: buttons }] }),
  }
}

/** The mapping in words, one line each, for `/contests roles list` and the settings. */
export function describeRoles(d: CommunityDestinationRow): string[] {
  return Object.entries(d.roles)
    .filter(([, id]) => isRoleId(id))
    .map(([key, id]) => `${keyName(key)}: <@&${id}>`)
}

/** The mapping as the Communities page shows it: `codeforces: <role id>`, comma separated. */
export const rolesText = (d: CommunityDestinationRow) =>
  Object.entries(d.roles)
    .map(([key, id]) => `${key}: ${id}`)
    .join(', ')

/** The mapping the page's field means (`key: role id`, commas or lines), or what is wrong. */
export function parseRoles(
  text: string,
): { ok: true; roles: Record<string, string> } | { ok: false; error: string } {
  const roles: Record<string, string> = {}
  for (const part of text.split(/[,\n]/).map((p) => p.trim())) {
    if (!part) continue
    const [word = '', id = '', ...rest] = part.split(/\s*[:=]\s*/)
    const key = roleKey(word)
    if (!key || rest.length > 0) {
      return { ok: false, error: `Roles: ${part} is not a platform or type with a role id` }
    }
    if (!isRoleId(id)) return { ok: false, error: `Roles: ${id || '(none)'} is not a role id` }
    roles[key] = id
  }
  if (Object.keys(roles).length > MAX_ROLES) {
    return { ok: false, error: `Roles: at most ${MAX_ROLES}` }
  }
  return { ok: true, roles }
}
