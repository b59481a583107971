// Discord's guild endpoints the bot calls besides posting (bot-api.ts): a channel subscription's
// scheduled events (created, moved, deleted: Manage Events), the roles members pick for
// themselves with a button (added, removed: Manage Roles, and a role of the bot's above it), and
// its own messages edited or deleted (no permission needed for its own; Unknown Message, 10008,
// is one deleted by hand). Each
// answer in a few words: done, Missing Permissions (50013, which the caller turns into a notice,
// not a dead destination), an unknown event or role (10070, 10011), a 429 with its retry_after, a
// failure worth retrying (5xx, unreachable), or refused for good.
import { settings, type Env } from '../../env.ts'
import { secondsOf } from '../define.ts'
import { writeOutbox } from '../outbox.ts'

const TIMEOUT_MS = 10_000
export const MISSING_PERMISSIONS = 50013
export const UNKNOWN_ROLE = 10011
export const UNKNOWN_SCHEDULED_EVENT = 10070
export const UNKNOWN_MESSAGE = 10008

export type GuildAnswer =
  | { ok: true; id?: string }
  | {
      ok: false
      /** What the caller does: tell the server, forget the thing, wait, try again, give up. */
      kind: 'missing-permissions' | 'unknown' | 'rate-limited' | 'transient' | 'permanent'
      error: string
      retryAfterSeconds?: number
    }

/** A guild scheduled event as the bot makes it: external, at the contest's page. */
export interface ScheduledEventBody {
  name: string
  description: string
  scheduled_start_time: string
  scheduled_end_time: string
  entity_type: 3
  entity_metadata: { location: string }
  privacy_level: 2
}

const snowflake = (id: string) => /^\d{17,20}$/.test(id)

async function call(
  env: Env,
  method: 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  path: string,
  body?: unknown,
): Promise<GuildAnswer> {
  const s = settings(env)
  if (!s.DISCORD_BOT_TOKEN) {
    if (!s.DEV_OUTBOX) {
      return { ok: false, kind: 'permanent', error: 'The Discord bot is not set up' }
    }
    // A local run records the call instead of reaching Discord, and makes up a snowflake (the time
    // in its top bits, as Discord's) so a later change of the event finds an id of the right form.
    const record = { channel: 'discord', from: 'discord:bot', to: path, subject: method, body }
    await writeOutbox(env.KV, record, Date.now())
    return { ok: true, id: String((BigInt(Date.now()) - 1_420_070_400_000n) << 22n) }
  }
  const res = await fetch(`${s.DISCORD_API_URL.replace(/\/+$/, '')}${path}`, {
    method,
    headers: {
      Authorization: `Bot ${s.DISCORD_BOT_TOKEN}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'manual',
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
  if (!(res instanceof Response)) {
    return { ok: false, kind: 'transient', error: `Discord unreachable: ${res.name}` }
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>
  if (res.status >= 200 && res.status < 300) {
    return { ok: true, ...(typeof data.id === 'string' && { id: data.id }) }
  }
  const code = typeof data.code === 'number' ? data.code : undefined
  const detail = typeof data.message === 'string' ? data.message : res.statusText
  const error = `Discord answered ${res.status}${code !== undefined ? ` (code ${code})` : ''}: ${detail}`
  if (res.status === 429) {
    const retryAfterSeconds =
      secondsOf(data.retry_after) ?? secondsOf(res.headers.get('Retry-After')) ?? 1
    return { ok: false, kind: 'rate-limited', error, retryAfterSeconds }
  }
  if (code === MISSING_PERMISSIONS) return { ok: false, kind: 'missing-permissions', error }
  if (
    code === UNKNOWN_SCHEDULED_EVENT ||
    code === UNKNOWN_ROLE ||
    code === UNKNOWN_MESSAGE ||
    res.status === 404
  ) {
    return { ok: false, kind: 'unknown', error }
  }
  return { ok: false, kind: res.status >= 500 ? 'transient' : 'permanent', error }
}

const refused = (what: string): GuildAnswer => ({
  ok: false,
  kind: 'permanent',
  error: `Not a Discord ${what} id`,
})

/** POST /guilds/{guild}/scheduled-events: the event's id. */
export function createScheduledEvent(env: Env, guildId: string, event: ScheduledEventBody) {
  if (!snowflake(guildId)) return Promise.resolve(refused('server'))
  return call(env, 'POST', `/guilds/${guildId}/scheduled-events`, event)
}

/** PATCH /guilds/{guild}/scheduled-events/{event}: new times (and words). */
export function modifyScheduledEvent(
  env: Env,
  guildId: string,
  eventId: string,
  change: Partial<ScheduledEventBody>,
) {
  if (!snowflake(guildId) || !snowflake(eventId)) return Promise.resolve(refused('event'))
  return call(env, 'PATCH', `/guilds/${guildId}/scheduled-events/${eventId}`, change)
}

/** DELETE /guilds/{guild}/scheduled-events/{event} (204). */
export function deleteScheduledEvent(env: Env, guildId: string, eventId: string) {
  if (!snowflake(guildId) || !snowflake(eventId)) return Promise.resolve(refused('event'))
  return call(env, 'DELETE', `/guilds/${guildId}/scheduled-events/${eventId}`)
}

/** PUT (add) or DELETE (remove) /guilds/{guild}/members/{user}/roles/{role} (204). */
export function setMemberRole(
  env: Env,
  place: { guildId: string; userId: string; roleId: string },
  give: boolean,
) {
  const { guildId, userId, roleId } = place
  if (![guildId, userId, roleId].every(snowflake)) return Promise.resolve(refused('member'))
  return call(env, give ? 'PUT' : 'DELETE', `/guilds/${guildId}/members/${userId}/roles/${roleId}`)
}

/** PATCH /channels/{channel}/messages/{message}: new embeds for a message the bot posted. */
export function editChannelMessage(
  env: Env,
  channelId: string,
  messageId: string,
  change: { embeds: unknown[]; allowed_mentions: { parse: string[] } },
) {
  if (!snowflake(channelId) || !snowflake(messageId)) return Promise.resolve(refused('message'))
  return call(env, 'PATCH', `/channels/${channelId}/messages/${messageId}`, change)
}

/** DELETE /channels/{channel}/messages/{message} (204): a message the bot posted. */
export function deleteChannelMessage(env: Env, channelId: string, messageId: string) {
  if (!snowflake(channelId) || !snowflake(messageId)) return Promise.resolve(refused('message'))
  return call(env, 'DELETE', `/channels/${channelId}/messages/${messageId}`)
}
