// The part of Telegram's Bot API the service calls, as the provider stand-in serves it under
// /telegram/bot<token>/<method>, with the Bot API's answers ({ok:true, result} or {ok:false,
// error_code, description}): sendMessage (400 for HTML it cannot parse; into a forum topic with
// message_thread_id: "message thread not found" for a topic the chat never had, TOPIC_CLOSED and
// TOPIC_DELETED for one closed or deleted), editMessageText ("message to edit not found", "message
// is not modified"), deleteMessage ("message to delete not found", and "message can't be deleted"
// past 48 hours), getChatMember, setWebhook, answerCallbackQuery; and the forum topics a test
// makes as a group's members would (createForumTopic, closeForumTopic, reopenForumTopic,
// deleteForumTopic).
import type { ScriptedResponse } from './providers.ts'
import { telegramHtmlProblem } from './telegram-html.ts'

// Telegram lets a bot delete a message for 48 hours after it was sent.
const DELETABLE_MS = 48 * 60 * 60 * 1000

interface Message {
  message_id: number
  date: number
  chat: { id: number; type: string }
  message_thread_id?: number
  is_topic_message?: boolean
  text: string
  reply_markup?: unknown
  edit_date?: number
}

interface Topic {
  name: string
  state: 'open' | 'closed' | 'deleted'
}

const fail = (description: string, error_code = 400): ScriptedResponse => ({
  status: error_code,
  body: { ok: false, error_code, description },
})

const ok = (result: unknown): ScriptedResponse => ({ status: 200, body: { ok: true, result } })

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
}

let nextMessageId = 0

export function createTelegramApiStandIn() {
  // By `<chat id>:<message id>`: what each chat holds of the bot's messages.
  const messages = new Map<string, Message>()
  // By `<chat id>:<message_thread_id>`: the forum topics of each chat.
  const topics = new Map<string, Topic>()

  /** Why a message cannot go to the topic, in Telegram's words; undefined when it can. */
  function topicProblem(chatId: string, thread: unknown): string | undefined {
    if (thread === undefined) return undefined
    const topic = topics.get(`${chatId}:${String(thread)}`)
    if (!topic) return 'Bad Request: message thread not found'
    if (topic.state === 'deleted') return 'Bad Request: TOPIC_DELETED'
    if (topic.state === 'closed') return 'Bad Request: TOPIC_CLOSED'
    return undefined
  }

  function respond(method: string, body: string): ScriptedResponse {
    const asked = safeJson(body) ?? {}
    const chatId = asked.chat_id === undefined ? '' : String(asked.chat_id)
    switch (method) {
      case 'setWebhook':
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } }
      case 'answerCallbackQuery':
        return ok(true)
      case 'getChatMember': {
        // Everyone is a plain member unless a test scripts an administrator.
        const user = { id: Number(asked.user_id ?? 0), is_bot: false, first_name: 'Member' }
        return ok({ status: 'member', user })
      }
      case 'createForumTopic': {
        if (!chatId || typeof asked.name !== 'string') return fail('Bad Request: invalid name')
        const id = ++nextMessageId
        topics.set(`${chatId}:${id}`, { name: asked.name, state: 'open' })
        return ok({ message_thread_id: id, name: asked.name, icon_color: 7322096 })
      }
      case 'closeForumTopic':
      case 'reopenForumTopic':
      case 'deleteForumTopic': {
        const topic = topics.get(`${chatId}:${String(asked.message_thread_id)}`)
        if (!topic || topic.state === 'deleted') return fail('Bad Request: TOPIC_ID_INVALID')
        topic.state =
          method === 'closeForumTopic'
            ? 'closed'
            : method === 'deleteForumTopic'
              ? 'deleted'
              : 'open'
        return ok(true)
      }
      case 'sendMessage': {
        if (!chatId || typeof asked.text !== 'string' || !asked.text) return fail('Bad Request')
        const unparsed = asked.parse_mode === 'HTML' ? telegramHtmlProblem(asked.text) : undefined
        if (unparsed) return fail(`Bad Request: can't parse entities: ${unparsed}`)
        const problem = topicProblem(chatId, asked.message_thread_id)
        if (problem) return fail(problem)
        const message: Message = {
          message_id: ++nextMessageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(chatId), type: asked.message_thread_id ? 'supergroup' : 'private' },
          ...(asked.message_thread_id !== undefined && {
            message_thread_id: Number(asked.message_thread_id),
            is_topic_message: true,
          }),
          text: asked.text,
          ...(asked.reply_markup !== undefined && { reply_markup: asked.reply_markup }),
        }
        messages.set(`${chatId}:${message.message_id}`, message)
        return ok(message)
      }
      case 'editMessageText': {
        const key = `${chatId}:${String(asked.message_id)}`
        const message = messages.get(key)
        if (!message) return fail('Bad Request: message to edit not found')
        if (typeof asked.text !== 'string' || !asked.text) return fail('Bad Request: text is empty')
        const unparsed = asked.parse_mode === 'HTML' ? telegramHtmlProblem(asked.text) : undefined
        if (unparsed) return fail(`Bad Request: can't parse entities: ${unparsed}`)
        const problem = topicProblem(chatId, message.message_thread_id)
        if (problem) return fail(problem)
        const markup = asked.reply_markup ?? message.reply_markup
        if (
          asked.text === message.text &&
          JSON.stringify(markup) === JSON.stringify(message.reply_markup)
        ) {
          return fail(
            'Bad Request: message is not modified: specified new message content and reply ' +
              'markup are exactly the same as a current content and reply markup of the message',
          )
        }
        const edited = {
          ...message,
          text: asked.text,
          ...(markup !== undefined && { reply_markup: markup }),
          edit_date: Math.floor(Date.now() / 1000),
        }
        messages.set(key, edited)
        return ok(edited)
      }
      case 'deleteMessage': {
        const key = `${chatId}:${String(asked.message_id)}`
        const message = messages.get(key)
        if (!message) return fail('Bad Request: message to delete not found')
        if (Date.now() - message.date * 1000 > DELETABLE_MS) {
          return fail("Bad Request: message can't be deleted")
        }
        messages.delete(key)
        return ok(true)
      }
    }
    return fail('Not Found', 404)
  }

  return {
    respond: (path: string, body: string) => respond(path.slice(path.lastIndexOf('/') + 1), body),
    /** What the chat holds of the bot's message now (undefined once deleted). */
    message: (chatId: string, messageId: string) => messages.get(`${chatId}:${messageId}`),
    reset: () => {
      messages.clear()
      topics.clear()
    },
  }
}
