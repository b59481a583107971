// Discord's API with the application's bot token: a message posted to a channel (a community
// destination's announcement), or the local outbox. What each answer means: 429 waits its
// retry_after; Unknown Channel (10003), Missing Access (50001) and Missing Permissions (50013) are
// a destination the bot can never post to again.
import { settings, type Env } from '../../env.ts'
import { notSent, resultOf, secondsOf, unreachable, type SendResult } from '../define.ts'
import { writeOutbox } from '../outbox.ts'
import { postJson } from '../post-json.ts'

const DEAD_CODES = new Set([10003, 50001, 50013])

export interface ChannelMessage {
  content?: string
  embeds: unknown[]
  allowed_mentions: { parse: string[]; roles?: string[] }
  /** Action rows of buttons (the roles members pick, communities/roles.ts). */
  components?: unknown[]
}

/** 'bot' with DISCORD_BOT_TOKEN, the outbox in a local run, otherwise undefined (off). */
function discordBotProvider(env: Env): 'bot' | 'outbox' | undefined {
  const s = settings(env)
  if (s.DISCORD_BOT_TOKEN) return 'bot'
  return s.DEV_OUTBOX ? 'outbox' : undefined
}

interface DiscordAnswer {
  id?: unknown
  message?: unknown
  code?: unknown
  retry_after?: unknown
  global?: unknown
}

function readMessageAnswer(res: Response, data: DiscordAnswer): SendResult {
  if (res.status >= 200 && res.status < 300) {
    return resultOf({ ok: true, ...(typeof data.id === 'string' && { id: data.id }) })
  }
  const code = typeof data.code === 'number' ? data.code : undefined
  const detail = typeof data.message === 'string' ? data.message : res.statusText
  const error = `Discord answered ${res.status}${code !== undefined ? ` (code ${code})` : ''}: ${detail}`
  if (res.status === 429) {
    const retryAfterSeconds =
      secondsOf(data.retry_after) ?? secondsOf(res.headers.get('Retry-After'))
    return resultOf({ ok: false, transient: true, error, retryAfterSeconds })
  }
  const dead = (code !== undefined && DEAD_CODES.has(code)) || res.status === 404
  return resultOf({ ok: false, dead, transient: res.status >= 500, error })
}

/** POST /channels/{channelId}/messages as the bot. */
export async function postChannelMessage(
  env: Env,
  channelId: string,
  message: ChannelMessage,
): Promise<SendResult> {
  const provider = discordBotProvider(env)
  if (!provider) return notSent('permanent', 'The Discord bot is not set up: DISCORD_BOT_TOKEN')
  if (!/^\d{17,20}$/.test(channelId)) return notSent('dead', 'Not a Discord channel id')
  if (provider === 'outbox') {
    const record = {
      channel: 'discord',
      from: 'discord:bot',
      to: channelId,
      subject: 'channel message',
      body: message,
    }
    return resultOf({ ok: true, id: await writeOutbox(env.KV, record, Date.now()) })
  }
  const s = settings(env)
  const url = `${s.DISCORD_API_URL.replace(/\/+$/, '')}/channels/${channelId}/messages`
  const res = await postJson(url, message, { Authorization: `Bot ${s.DISCORD_BOT_TOKEN}` })
  if (!(res instanceof Response)) return unreachable('Discord', res)
  const data = (await res.json().catch(() => ({}))) as DiscordAnswer
  return readMessageAnswer(res, data)
}
