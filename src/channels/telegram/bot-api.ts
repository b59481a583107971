// The Telegram channel: Bot API messages to a linked chat when TELEGRAM_BOT_TOKEN is set, the
// local outbox when DEV_OUTBOX is on, otherwise disabled.
import { settings, type Env } from '../../env.ts'
import { writeOutbox } from '../outbox.ts'

export type TelegramProvider = 'bot-api' | 'outbox' | 'none'

/** A button under a message: a callback the bot answers, or a link the app opens. */
export type InlineButton = { text: string } & ({ callback_data: string } | { url: string })

export interface TelegramMessage {
  chatId: string
  /** A forum topic of the chat (message_thread_id); none for the chat's General topic. */
  threadId?: string
  /** Bot API HTML (parse_mode 'HTML'). */
  text: string
  /** Rows of buttons under the message (reply_markup.inline_keyboard). */
  buttons?: InlineButton[][]
}

export interface TelegramResult {
  ok: boolean
  /** Telegram's message_id (or the outbox id). */
  id?: string
  error?: string
  /** The answer in a person's words (define.ts SendResult). */
  said?: string
  /** Worth retrying later: 429, 5xx, a network failure. */
  transient?: boolean
  /** The chat will never take the bot's messages (403: the user blocked the bot, left the chat). */
  blocked?: boolean
  /** Telegram's parameters.retry_after of a 429: the wait it asks for. */
  retryAfterSeconds?: number
  /** The group became a supergroup with this id (parameters.migrate_to_chat_id): send there. */
  migratedTo?: string
  provider: TelegramProvider
}

const SEND_TIMEOUT_MS = 10_000

export function telegramProvider(env: Env): TelegramProvider {
  const s = settings(env)
  if (s.TELEGRAM_BOT_TOKEN) return 'bot-api'
  return s.DEV_OUTBOX ? 'outbox' : 'none'
}

/** `{TELEGRAM_API_URL}/bot<token>/<method>`: the Bot API's address of a method. */
export function botApiUrl(env: Env, method: string): string {
  const s = settings(env)
  return `${s.TELEGRAM_API_URL.replace(/\/+$/, '')}/bot${s.TELEGRAM_BOT_TOKEN}/${method}`
}

interface BotApiAnswer {
  ok?: unknown
  description?: unknown
  result?: { message_id?: unknown; status?: unknown }
  parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown }
}

/** What a Bot API answer means for a send: 403 never gets better, 429 and 5xx may. */
export function readSendAnswer(status: number, data: BotApiAnswer): TelegramResult {
  const provider = 'bot-api' as const
  if (status >= 200 && status < 300 && data.ok === true) {
    const id = data.result?.message_id
    return { ok: true, provider, ...(id !== undefined && { id: String(id) }) }
  }
  const detail = typeof data.description === 'string' ? data.description : `HTTP ${status}`
  const error = `Telegram answered ${status}: ${detail}`
  if (status === 429) {
    const after = data.parameters?.retry_after
    const retryAfterSeconds =
      typeof after === 'number' && Number.isFinite(after) && after > 0
        ? Math.ceil(after)
        : undefined
    const said = 'Telegram asked to wait before the next message'
    return { ok: false, provider, transient: true, error, said, retryAfterSeconds }
  }
  const said = telegramWords(status, detail)
  if (status === 403) return { ok: false, provider, transient: false, blocked: true, error, said }
  const migrated = data.parameters?.migrate_to_chat_id
  if (typeof migrated === 'number' && Number.isSafeInteger(migrated)) {
    // The same chat under its new id: worth sending again, there.
    const moved = 'the group became a supergroup; sent there next time'
    return {
      ok: false,
      provider,
      transient: true,
      error,
      said: moved,
      migratedTo: String(migrated),
    }
  }
  return { ok: false, provider, transient: status >= 500, error, said }
}

/** The Bot API's descriptions of a send that failed, in a person's words. */
function telegramWords(status: number, description: string): string {
  const d = description.toLowerCase()
  if (d.includes('blocked by the user')) return 'the bot was blocked in this chat'
  if (d.includes('kicked')) return 'the bot was removed from the chat'
  if (d.includes('user is deactivated')) return 'the Telegram account was deleted'
  if (d.includes('chat not found')) return 'the chat was not found'
  if (d.includes('not enough rights')) return 'the bot may not write in this chat'
  if (status === 403) return 'the bot may not write to this chat'
  if (status >= 500) return 'Telegram is having trouble'
  return 'Telegram did not take the message'
}

/** Calls a Bot API method; throws only when Telegram could not be reached. */
async function callBotApi(env: Env, method: string, body: object) {
  const res = await fetch(botApiUrl(env, method), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  })
  return { status: res.status, data: (await res.json().catch(() => ({}))) as BotApiAnswer }
}

async function sendWithBotApi(env: Env, message: TelegramMessage): Promise<TelegramResult> {
  const body = {
    chat_id: message.chatId,
    ...(message.threadId && { message_thread_id: Number(message.threadId) }),
    text: message.text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...(message.buttons && { reply_markup: { inline_keyboard: message.buttons } }),
  }
  try {
    const { status, data } = await callBotApi(env, 'sendMessage', body)
    return readSendAnswer(status, data)
  } catch (error) {
    return unreachableAnswer(error)
  }
}

/** A Bot API that could not be reached: worth another try. */
function unreachableAnswer(error: unknown): TelegramResult {
  // The error names the URL, which holds the token: say only what kind of failure it was.
  const kind = error instanceof Error ? error.name : 'Error'
  return { ok: false, provider: 'bot-api', transient: true, error: `Telegram unreachable: ${kind}` }
}

/** Telegram's words for a forum topic that is gone or closed: the bot can never post there. */
export const TOPIC_GONE = /message thread not found|TOPIC_CLOSED|TOPIC_DELETED/i

/**
 * Telegram's words for a message a change has nothing left to do with: already as asked (the
 * same text), deleted by someone, too old to delete (48 hours) or edit. Done, not failed.
 */
export const NOTHING_TO_CHANGE =
  /message is not modified|message to edit not found|message to delete not found|message can't be deleted|message can't be edited|MESSAGE_ID_INVALID/i

export interface TelegramChange {
  chatId: string
  messageId: string
  /** editMessageText: the new text (Bot API HTML) and buttons; deleteMessage without. */
  text?: string
  buttons?: InlineButton[][]
}

/**
 * Edits (editMessageText) or deletes (deleteMessage) a message the bot sent, read as a send's
 * answer is; the outbox of a local run records it.
 */
export async function changeTelegramMessage(
  env: Env,
  change: TelegramChange,
): Promise<TelegramResult> {
  const provider = telegramProvider(env)
  const method = change.text === undefined ? 'deleteMessage' : 'editMessageText'
  if (provider === 'outbox') {
    const record = {
      channel: 'telegram' as const,
      from: `telegram:${settings(env).TELEGRAM_BOT_USERNAME ?? 'bot'}`,
      to: change.chatId,
      subject: `${method} ${change.messageId}`,
      html: change.text ?? '',
    }
    return { ok: true, provider, id: await writeOutbox(env.KV, record, Date.now()) }
  }
  if (provider === 'none') {
    return { ok: false, provider, transient: false, error: 'The Telegram channel is disabled' }
  }
  const body = {
    chat_id: change.chatId,
    message_id: Number(change.messageId),
    ...(change.text !== undefined && {
      text: change.text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(change.buttons && { reply_markup: { inline_keyboard: change.buttons } }),
    }),
  }
  try {
    const { status, data } = await callBotApi(env, method, body)
    return readSendAnswer(status, data)
  } catch (error) {
    return unreachableAnswer(error)
  }
}

/** Sends `text` to the chat through the provider in use, or says why it could not. */
export async function sendTelegram(env: Env, message: TelegramMessage): Promise<TelegramResult> {
  const provider = telegramProvider(env)
  if (provider === 'bot-api') return sendWithBotApi(env, message)
  if (provider === 'outbox') {
    const record = {
      channel: 'telegram' as const,
      from: `telegram:${settings(env).TELEGRAM_BOT_USERNAME ?? 'bot'}`,
      to: message.chatId,
      subject: 'sendMessage',
      html: message.text,
    }
    return { ok: true, provider, id: await writeOutbox(env.KV, record, Date.now()) }
  }
  return {
    ok: false,
    provider,
    transient: false,
    error: 'The Telegram channel is disabled: TELEGRAM_BOT_TOKEN is not set and DEV_OUTBOX is off',
  }
}

/**
 * Whether `userId` administers the group `chatId` (getChatMember: creator or administrator).
 * Without a bot token (a local run writing to the outbox) nobody can be asked, so everyone is;
 * an unreachable Bot API answers no.
 */
export async function isChatAdmin(env: Env, chatId: string, userId: string): Promise<boolean> {
  const provider = telegramProvider(env)
  if (provider === 'outbox') return true
  if (provider === 'none') return false
  try {
    const { data } = await callBotApi(env, 'getChatMember', {
      chat_id: chatId,
      user_id: Number(userId),
    })
    return data.ok === true && ['creator', 'administrator'].includes(String(data.result?.status))
  } catch {
    return false
  }
}

/**
 * Answers a button press (answerCallbackQuery): the app shows `text` over the chat and stops the
 * button's spinner; a local run writes it to the outbox. Whether it was taken.
 */
export async function answerCallback(env: Env, queryId: string, text: string): Promise<boolean> {
  const provider = telegramProvider(env)
  if (provider === 'outbox') {
    const record = {
      channel: 'telegram' as const,
      from: `telegram:${settings(env).TELEGRAM_BOT_USERNAME ?? 'bot'}`,
      to: queryId,
      subject: 'answerCallbackQuery',
      html: text,
    }
    await writeOutbox(env.KV, record, Date.now())
    return true
  }
  if (provider === 'none') return false
  try {
    const { data } = await callBotApi(env, 'answerCallbackQuery', {
      callback_query_id: queryId,
      text,
    })
    return data.ok === true
  } catch {
    return false
  }
}
