// POST /telegram/webhook: the updates Telegram pushes to the bot, signed with the secret given to
// setWebhook. The bot's commands (bot.ts) and presses on its buttons (callbacks.ts) are answered;
// everything else is acknowledged and ignored.
import { createRoute } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../../app-env.ts'
import { answerCallback, sendTelegram } from '../bot-api.ts'
import { createDb } from '../../../db/client.ts'
import { settings } from '../../../env.ts'
import { defer } from '../../../http/defer.ts'
import { createRouter } from '../../../http/router.ts'
import { sha256Hex, timingSafeEqualText } from '../../../lib/crypto.ts'
import { ApiError, unauthorized } from '../../../lib/errors.ts'
import { log } from '../../../lib/log.ts'
import { errorResponse, json, jsonBody } from '../../../lib/openapi.ts'
import { handleBotMessage } from './bot.ts'
import { notifier } from '../../../notifications/context.ts'
import { snoozeReminder, snoozeWords } from '../../../notifications/scheduling/snooze.ts'
import type { SnoozeClaim } from '../../../notifications/snooze-link.ts'
import { pressButton } from './callbacks.ts'
import { TelegramAckSchema, TelegramUpdateSchema, TelegramWebhookHeaders } from './schemas.ts'

const SECRET_HEADER = 'X-Telegram-Bot-Api-Secret-Token'

/**
 * Before the body is read: 503 without TELEGRAM_WEBHOOK_SECRET, 401 unless the header holds it.
 * Digests are compared, so neither the length nor the content of the secret shows in the timing.
 */
const telegramSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = settings(c.env).TELEGRAM_WEBHOOK_SECRET
  if (!secret) throw new ApiError(503, 'Telegram webhook is not configured')
  const offered = c.req.header(SECRET_HEADER) ?? ''
  const [want, got] = await Promise.all([sha256Hex(secret), sha256Hex(offered)])
  if (!timingSafeEqualText(want, got)) throw unauthorized('Wrong or missing secret token')
  await next()
}

const webhook = createRoute({
  method: 'post',
  path: '/webhook',
  tags: ['Telegram'],
  summary:
    'Telegram bot webhook: `/start <token>` links the chat, `/stop` unlinks it, the other commands answer, and the Follow and Mute buttons act',
  middleware: [telegramSecret] as const,
  request: { headers: TelegramWebhookHeaders, ...jsonBody(TelegramUpdateSchema) },
  responses: {
    200: json(TelegramAckSchema, 'Acknowledged (also for updates the bot ignores)'),
    400: errorResponse('Not a Telegram update'),
    401: errorResponse('Missing or wrong X-Telegram-Bot-Api-Secret-Token'),
    429: errorResponse('30 requests with a wrong secret from this address in 15 minutes'),
    503: errorResponse('TELEGRAM_WEBHOOK_SECRET is not set'),
  },
})

/** Mounted at /telegram. */
export const telegramWebhookRoutes = createRouter().openapi(webhook, async (c) => {
  const update = c.req.valid('json')
  const press = update.callback_query
  if (press) {
    const db = createDb(c.env.DB)
    const now = Date.now()
    const snooze = async (claim: SnoozeClaim) =>
      snoozeWords(await snoozeReminder(notifier(c.env), claim, now))
    const text = await pressButton(
      db,
      { fromId: String(press.from.id), data: press.data },
      now,
      snooze,
    )
    // Telegram shows the answer over the chat and stops the button's spinner.
    await defer(c, async () => {
      if (!(await answerCallback(c.env, press.id, text))) log.warn('telegram-answer-failed', {})
    })
  }
  const message = update.message ?? update.channel_post
  if (message) {
    const chatId = String(message.chat.id)
    // A forum topic is its own place: commands act on it and the reply goes there.
    const threadId =
      message.is_topic_message && message.message_thread_id !== undefined
        ? String(message.message_thread_id)
        : undefined
    const threadTitle = message.reply_to_message?.forum_topic_created?.name
    const reply = await handleBotMessage(
      c.env,
      createDb(c.env.DB),
      {
        chatId,
        type: message.chat.type ?? 'private',
        title: message.chat.title ?? '',
        ...(threadId && { threadId, ...(threadTitle && { threadTitle }) }),
        ...(message.from && { fromId: String(message.from.id) }),
        text: message.text,
        ...(message.left_chat_member && { leftMemberId: String(message.left_chat_member.id) }),
        botUsername: settings(c.env).TELEGRAM_BOT_USERNAME,
      },
      Date.now(),
    )
    // After the answer: Telegram waits for it, and retries an update that is slow to answer.
    if (reply) {
      await defer(c, async () => {
        const sent = await sendTelegram(c.env, { chatId, threadId, text: reply })
        if (!sent.ok) log.warn('telegram-reply-failed', { error: sent.error })
      })
    }
  }
  return c.json({ ok: true as const }, 200)
})
