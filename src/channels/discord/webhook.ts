// The Discord channel: embeds posted to the channel webhook a user pasted. It needs no credentials
// of ours, so it is on unless DISCORD_ENABLED=false; a local run (DEV_OUTBOX) writes to the outbox
// instead, since it cannot reach Discord.
import { settings, type Env } from '../../env.ts'
import { discordWebhookProblem, maskDiscordWebhookUrl } from './webhook-url.ts'
import { secondsOf } from '../define.ts'
import { writeOutbox } from '../outbox.ts'
import { postJson, sendJson } from '../post-json.ts'

export type DiscordProvider = 'webhook' | 'outbox' | 'none'

export interface DiscordSend {
  webhookUrl: string
  /** An execute-webhook body (kinds/chat.ts). */
  message: unknown
}

export interface DiscordResult {
  ok: boolean
  /** The id of the message Discord created (or the outbox id). */
  id?: string
  error?: string
  /** The answer in a person's words (define.ts SendResult). */
  said?: string
  /** Worth retrying later: 429, 5xx, a network failure. */
  transient?: boolean
  /** Discord no longer knows the webhook (404, code 10015): it was deleted or its token reset. */
  unknownWebhook?: boolean
  /** The wait a 429 asks for (retry_after, or Retry-After), in whole seconds. */
  retryAfterSeconds?: number
  provider: DiscordProvider
}

export function discordProvider(env: Env): DiscordProvider {
  const s = settings(env)
  if (!s.DISCORD_ENABLED) return 'none'
  return s.DEV_OUTBOX ? 'outbox' : 'webhook'
}

interface DiscordAnswer {
  id?: unknown
  message?: unknown
  code?: unknown
  retry_after?: unknown
}

/** What an execute-webhook answer means: 404 and other 4xx never get better, 429 and 5xx may. */
export function readWebhookAnswer(res: Response, data: DiscordAnswer): DiscordResult {
  const provider = 'webhook' as const
  if (res.status >= 200 && res.status < 300) {
    return { ok: true, provider, ...(typeof data.id === 'string' && { id: data.id }) }
  }
  const detail = typeof data.message === 'string' ? data.message : res.statusText
  const code = typeof data.code === 'number' ? ` (code ${data.code})` : ''
  const error = `Discord answered ${res.status}${code}: ${detail}`
  if (res.status === 429) {
    const retryAfterSeconds =
      secondsOf(data.retry_after) ?? secondsOf(res.headers.get('Retry-After'))
    const said = 'Discord asked to wait before the next message'
    return { ok: false, provider, transient: true, error, said, retryAfterSeconds }
  }
  // 404 is Unknown Webhook (10015) whatever the body says: the URL's id and token name nothing.
  if (res.status === 404) {
    const said = 'the webhook was deleted'
    return { ok: false, provider, transient: false, unknownWebhook: true, error, said }
  }
  const said = res.status >= 500 ? 'Discord is having trouble' : undefined
  return { ok: false, provider, transient: res.status >= 500, error, ...(said && { said }) }
}

async function postToWebhook(webhookUrl: string, message: unknown): Promise<DiscordResult> {
  // wait=true makes Discord answer with the message it created (its id), not an empty 204.
  const url = new URL(webhookUrl)
  url.searchParams.set('wait', 'true')
  const res = await postJson(url, message)
  if (!(res instanceof Response)) {
    // The error may name the URL, which holds the token: say only what kind of failure it was.
    return {
      ok: false,
      provider: 'webhook',
      transient: true,
      error: `Discord unreachable: ${res.name}`,
    }
  }
  const data = (await res.json().catch(() => ({}))) as DiscordAnswer
  return readWebhookAnswer(res, data)
}

/** Posts `message` to the webhook through the provider in use, or says why it could not. */
export async function sendDiscord(env: Env, send: DiscordSend): Promise<DiscordResult> {
  const provider = discordProvider(env)
  if (provider === 'none') {
    const error = 'The Discord channel is disabled: DISCORD_ENABLED is false'
    return { ok: false, provider, transient: false, error }
  }
  // Checked again at send time: the rules or the settings may have changed since it was set.
  const refused = discordWebhookProblem(env, send.webhookUrl)
  if (refused) return { ok: false, provider, transient: false, error: `Not sent: ${refused}` }
  if (provider === 'webhook') return postToWebhook(send.webhookUrl, send.message)
  const record = {
    channel: 'discord' as const,
    from: 'discord:webhook',
    to: maskDiscordWebhookUrl(send.webhookUrl),
    subject: 'execute webhook',
    body: send.message,
  }
  return { ok: true, provider, id: await writeOutbox(env.KV, record, Date.now()) }
}

/**
 * PATCH {webhook}/messages/{id}: new embeds for a message the webhook posted (a person's reminder
 * whose contest moved). Unknown Message (10008) or Unknown Webhook (10015) is a 404: nothing left
 * to edit.
 */
export async function editDiscordWebhookMessage(
  env: Env,
  edit: { webhookUrl: string; messageId: string; message: unknown },
): Promise<DiscordResult> {
  const provider = discordProvider(env)
  if (provider === 'none') {
    return { ok: false, provider, transient: false, error: 'The Discord channel is disabled' }
  }
  const refused = discordWebhookProblem(env, edit.webhookUrl)
  if (refused) return { ok: false, provider, transient: false, error: `Not sent: ${refused}` }
  if (!/^\d{17,20}$/.test(edit.messageId)) {
    return { ok: false, provider, transient: false, error: 'Not a Discord message id' }
  }
  if (provider === 'outbox') {
    const record = {
      channel: 'discord' as const,
      from: 'discord:webhook',
      to: maskDiscordWebhookUrl(edit.webhookUrl),
      subject: `edit message ${edit.messageId}`,
      body: edit.message,
    }
    return { ok: true, provider, id: await writeOutbox(env.KV, record, Date.now()) }
  }
  const url = new URL(edit.webhookUrl)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/messages/${edit.messageId}`
  const res = await sendJson('PATCH', url, edit.message)
  if (!(res instanceof Response)) {
    return { ok: false, provider, transient: true, error: `Discord unreachable: ${res.name}` }
  }
  const data = (await res.json().catch(() => ({}))) as DiscordAnswer
  return readWebhookAnswer(res, data)
}
