// The part of Discord's API (v10) the application calls, as the provider stand-in serves it under
// /discord/api/v10, for the bot token STAND_IN_BOT_TOKEN only, with Discord's error bodies: the
// application's commands, global or of one guild, listed (GET) and replaced in bulk (PUT),
// messages the bot posts to a channel (and edits, PATCH, or deletes: Unknown Message, 10008, for
// one it never posted or already deleted), interaction replies edited through their webhook, a guild's
// scheduled events created, modified and deleted (Unknown Guild Scheduled Event, 10070; Invalid
// Form Body, 50035, for what Discord refuses of an external event), and a member's roles added and
// removed (204). Missing Permissions (403, 50013) is what a test scripts for a server that did not
// grant the bot Manage Events or Manage Roles.
import type { ScriptedResponse } from './providers.ts'

export const STAND_IN_BOT_TOKEN = 'stand-in-discord-bot-token'

const COMMANDS_PATH = /^\/discord\/api\/v10\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/
const MESSAGES_PATH = /^\/discord\/api\/v10\/channels\/(\d+)\/messages(?:\/(\d+))?$/
// An interaction's reply, edited through its webhook (the interaction's token, no bot token).
const REPLY_PATH = /^\/discord\/api\/v10\/webhooks\/(\d+)\/([\w.-]+)\/messages\/@original$/
const EVENTS_PATH = /^\/discord\/api\/v10\/guilds\/(\d+)\/scheduled-events(?:\/(\d+))?$/
const MEMBER_ROLE_PATH = /^\/discord\/api\/v10\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/

const INVALID_FORM = { status: 400, body: { message: 'Invalid Form Body', code: 50035 } }
const UNKNOWN_MESSAGE = { status: 404, body: { message: 'Unknown Message', code: 10008 } }
const UNKNOWN_EVENT = {
  status: 404,
  body: { message: 'Unknown Guild Scheduled Event', code: 10070 },
}

/** A guild scheduled event as Discord answers it (entity_type 3: external). */
interface ScheduledEvent {
  id: string
  guild_id: string
  channel_id: null
  name: string
  description?: string
  scheduled_start_time: string
  scheduled_end_time: string
  privacy_level: number
  status: number
  entity_type: number
  entity_id: null
  entity_metadata: { location?: string }
  [field: string]: unknown
}

/** Discord's rules for an external event: a name, a location and an end after the start. */
function externalEventProblem(e: Partial<ScheduledEvent>, isNew: boolean): boolean {
  const start = Date.parse(e.scheduled_start_time ?? '')
  const end = Date.parse(e.scheduled_end_time ?? '')
  const location = e.entity_metadata?.location
  return (
    typeof e.name !== 'string' ||
    e.name.length < 1 ||
    e.name.length > 100 ||
    (e.description !== undefined && String(e.description).length > 1000) ||
    e.entity_type !== 3 ||
    e.privacy_level !== 2 ||
    typeof location !== 'string' ||
    location.length < 1 ||
    location.length > 100 ||
    !Number.isFinite(start) ||
    !Number.isFinite(end) ||
    end <= start ||
    // A new event cannot start in the past.
    (isNew && start < Date.now())
  )
}

interface Command {
  name: string
  description: string
  [field: string]: unknown
}

function safeParse(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return {}
  }
}

export function createDiscordApiStandIn() {
  // Per application and scope ('' global, else the guild id): the commands Discord keeps.
  const registered = new Map<string, Command[]>()
  // The scheduled events of each guild, by id, and the roles each member holds ('guild/user').
  const events = new Map<string, Map<string, ScheduledEvent>>()
  const memberRoles = new Map<string, Set<string>>()
  // The messages the bot posted, by `<channel>/<message>`.
  const posted = new Map<string, Record<string, unknown>>()
  let nextId = 1_400_000_000_000_000_000n

  function respond(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): ScriptedResponse | undefined {
    if (REPLY_PATH.test(path)) {
      if (method !== 'PATCH')
        return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
      return { status: 200, body: { id: String(++nextId), type: 20, ...safeParse(body) } }
    }
    const match = COMMANDS_PATH.exec(path)
    const channel = MESSAGES_PATH.exec(path)
    const event = EVENTS_PATH.exec(path)
    const role = MEMBER_ROLE_PATH.exec(path)
    if (!match && !channel && !event && !role) return undefined
    if (headers.authorization !== `Bot ${STAND_IN_BOT_TOKEN}`) {
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } }
    }
    if (channel && channel[2] !== undefined) return ownMessage(method, channel[1], channel[2], body)
    if (channel) return postMessage(channel[1], body)
    if (event) return scheduledEvent(method, event[1], event[2], body)
    if (role) {
      if (method !== 'PUT' && method !== 'DELETE') {
        return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
      }
      const key = `${role[1]}/${role[2]}`
      const held = memberRoles.get(key) ?? new Set<string>()
      if (method === 'PUT') held.add(role[3])
      else held.delete(role[3])
      memberRoles.set(key, held)
      return { status: 204 }
    }
    if (!match) return undefined
    const [, application, guild = ''] = match
    const key = `${application}/${guild}`
    if (method === 'GET') return { status: 200, body: registered.get(key) ?? [] }
    if (method !== 'PUT')
      return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
    let commands: Command[]
    try {
      commands = JSON.parse(body) as Command[]
    } catch {
      return { status: 400, body: { message: '400: Bad Request', code: 50109 } }
    }
    const invalid =
      !Array.isArray(commands) ||
      commands.some(
        (c) =>
          !/^[-_\p{L}\p{N}]{1,32}$/u.test(c?.name) || !c.description || c.description.length > 100,
      )
    if (invalid) {
      return { status: 400, body: { message: 'Invalid Form Body', code: 50035 } }
    }
    const stored = commands.map((c) => ({
      ...c,
      id: String(++nextId),
      application_id: application,
      ...(guild && { guild_id: guild }),
      version: String(nextId),
    }))
    registered.set(key, stored)
    return { status: 200, body: stored }
  }

  function scheduledEvent(
    method: string,
    guildId: string,
    eventId: string | undefined,
    body: string,
  ): ScriptedResponse {
    const guild = events.get(guildId) ?? new Map<string, ScheduledEvent>()
    events.set(guildId, guild)
    if (eventId === undefined) {
      if (method === 'GET') return { status: 200, body: [...guild.values()] }
      if (method !== 'POST') {
        return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
      }
      const asked = safeParse(body) as Partial<ScheduledEvent>
      if (externalEventProblem(asked, true)) return INVALID_FORM
      const made: ScheduledEvent = {
        ...(asked as ScheduledEvent),
        id: String(++nextId),
        guild_id: guildId,
        channel_id: null,
        creator_id: '1300000000000000001',
        status: 1,
        entity_id: null,
        user_count: 0,
      }
      guild.set(made.id, made)
      return { status: 200, body: made }
    }
    const found = guild.get(eventId)
    if (!found) return UNKNOWN_EVENT
    if (method === 'GET') return { status: 200, body: found }
    if (method === 'DELETE') {
      guild.delete(eventId)
      return { status: 204 }
    }
    if (method !== 'PATCH') {
      return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
    }
    const changed = { ...found, ...(safeParse(body) as Partial<ScheduledEvent>), id: found.id }
    if (externalEventProblem(changed, false)) return INVALID_FORM
    guild.set(eventId, changed)
    return { status: 200, body: changed }
  }

  /** A message the bot posted, edited (PATCH: new fields) or deleted (204). */
  function ownMessage(
    method: string,
    channelId: string,
    messageId: string,
    body: string,
  ): ScriptedResponse {
    const key = `${channelId}/${messageId}`
    const found = posted.get(key)
    if (!found) return UNKNOWN_MESSAGE
    if (method === 'GET') return { status: 200, body: found }
    if (method === 'DELETE') {
      posted.delete(key)
      return { status: 204 }
    }
    if (method !== 'PATCH') {
      return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } }
    }
    const changed = {
      ...found,
      ...safeParse(body),
      id: found.id,
      channel_id: channelId,
      edited_timestamp: new Date().toISOString(),
    }
    posted.set(key, changed)
    return { status: 200, body: changed }
  }

  function postMessage(channelId: string, body: string): ScriptedResponse {
    const message = (() => {
      try {
        return JSON.parse(body) as { content?: string; embeds?: unknown[]; components?: unknown[] }
      } catch {
        return undefined
      }
    })()
    if (!message?.content && !message?.embeds?.length) {
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } }
    }
    const id = String(++nextId)
    const made = {
      id,
      channel_id: channelId,
      type: 0,
      content: message.content ?? '',
      embeds: message.embeds ?? [],
      components: message.components ?? [],
      edited_timestamp: null,
    }
    posted.set(`${channelId}/${id}`, made)
    return { status: 200, body: made }
  }

  return {
    respond,
    reset: () => {
      registered.clear()
      events.clear()
      memberRoles.clear()
      posted.clear()
    },
  }
}
