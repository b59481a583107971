// The part of Discord's API (v10) the application calls, as the provider stand-in serves it under
// /discord/api/v10, for the bot token STAND_IN_BOT_TOKEN only, with Discord's error bodies: the
// application's commands, global or of one guild, listed (GET) and replaced in bulk (PUT),
// messages the bot posts to a channel, and interaction replies edited through their webhook.
import type { ScriptedResponse } from './providers.ts'

export const STAND_IN_BOT_TOKEN = 'stand-in-discord-bot-token'

const COMMANDS_PATH = /^\/discord\/api\/v10\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/
const MESSAGES_PATH = /^\/discord\/api\/v10\/channels\/(\d+)\/messages$/
// An interaction's reply, edited through its webhook (the interaction's token, no bot token).
const REPLY_PATH = /^\/discord\/api\/v10\/webhooks\/(\d+)\/([\w.-]+)\/messages\/@original$/

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
    if (!match && !channel) return undefined
    if (headers.authorization !== `Bot ${STAND_IN_BOT_TOKEN}`) {
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } }
    }
    if (channel) return postMessage(channel[1], body)
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

  function postMessage(channelId: string, body: string): ScriptedResponse {
    const message = (() => {
      try {
        return JSON.parse(body) as { content?: string; embeds?: unknown[] }
      } catch {
        return undefined
      }
    })()
    if (!message?.content && !message?.embeds?.length) {
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } }
    }
    const id = String(++nextId)
    return {
      status: 200,
      body: {
        id,
        channel_id: channelId,
        type: 0,
        content: message.content ?? '',
        embeds: message.embeds ?? [],
      },
    }
  }

  return { respond, reset: () => registered.clear() }
}
